//===- IRQuickProofTest.cpp - The cheap tests in front of the solver ------===//
//
// Each of IntegerSystem's cheap exact tests (IntegerSystem::quickProof) on a
// system it proves empty and on one it must leave to the solver, and all of
// them against brute force on small random systems: a quick proof is never
// given for a system with an integer point, a quick point (quickPoint) never
// found in one without, and provablyEmpty() agrees with the solver: a system
// with a point is never called empty.
//
//===----------------------------------------------------------------------===//

#include "ir/IntegerSystem.h"

#include <gtest/gtest.h>

#include <random>

using namespace sched::ir;

namespace {

LinearExpr var(int V, int64_t C = 1) { return LinearExpr::variable(V, C); }
LinearExpr lit(int64_t C) { return LinearExpr::constant(C); }

TEST(QuickProofTest, GcdRefutesAnEquality) {
  // C[2*i] against C[2*j + 1].
  IntegerSystem S;
  int I = S.addVariable(), J = S.addVariable();
  S.addEquality(var(I, 2) - var(J, 2) - lit(1));
  EXPECT_EQ(S.quickProof(), QuickProof::Gcd);
  EXPECT_TRUE(S.provablyEmpty());
}

TEST(QuickProofTest, GcdLeavesASolvableEqualityToTheSolver) {
  // 2i == 3j + 1: the gcd 1 divides everything; (i, j) = (2, 1) is a point.
  IntegerSystem S;
  int I = S.addVariable(), J = S.addVariable();
  S.addEquality(var(I, 2) - var(J, 3) - lit(1));
  EXPECT_EQ(S.quickProof(), QuickProof::None);
  EXPECT_FALSE(S.provablyEmpty());
}

TEST(QuickProofTest, AliasesRefuteDifferentConstantOffsets) {
  // Two copies of one loop forced equal (i == i'), the accesses C[i + 16]
  // and C[i']: after i' -> i the index equation is 16 == 0.
  IntegerSystem S;
  int I = S.addVariable(), I2 = S.addVariable();
  S.addEquality(var(I) - var(I2));
  S.addEquality(var(I) + lit(16) - var(I2));
  EXPECT_EQ(S.quickProof(), QuickProof::Aliases);
  EXPECT_TRUE(S.provablyEmpty());
}

TEST(QuickProofTest, AliasesRefuteAnOrderOfEqualVariables) {
  // tx == tx' and tx < tx' (the same thread asked to be two).
  IntegerSystem S;
  int T = S.addVariable(), T2 = S.addVariable();
  S.addEquality(var(T2) - var(T));
  S.addInequality(var(T2) - var(T) - lit(1));
  EXPECT_EQ(S.quickProof(), QuickProof::Aliases);
  EXPECT_TRUE(S.provablyEmpty());
}

TEST(QuickProofTest, AliasesLeaveAConsistentSystemToTheSolver) {
  // x == y and x > z: (1, 1, 0) is a point.
  IntegerSystem S;
  int X = S.addVariable(), Y = S.addVariable(), Z = S.addVariable();
  S.addEquality(var(X) - var(Y));
  S.addInequality(var(X) - var(Z) - lit(1));
  EXPECT_EQ(S.quickProof(), QuickProof::None);
  EXPECT_FALSE(S.provablyEmpty());
}

TEST(QuickProofTest, BoundsRefuteIndicesThatNeverOverlap) {
  // Banerjee: 2x - y + 40 with x, y in [0, 15] is at least 25, never 0.
  IntegerSystem S;
  int X = S.addVariable(), Y = S.addVariable();
  S.addRange(var(X), 0, 15);
  S.addRange(var(Y), 0, 15);
  S.addEquality(var(X, 2) - var(Y) + lit(40));
  EXPECT_EQ(S.quickProof(), QuickProof::Bounds);
  EXPECT_TRUE(S.provablyEmpty());
}

TEST(QuickProofTest, BoundsPropagateThroughAChain) {
  // 0 <= x < y < z <= 1: each bound moves the next one.
  IntegerSystem S;
  int X = S.addVariable(), Y = S.addVariable(), Z = S.addVariable();
  S.addInequality(var(X));
  S.addInequality(var(Y) - var(X) - lit(1));
  S.addInequality(var(Z) - var(Y) - lit(1));
  S.addInequality(lit(1) - var(Z));
  EXPECT_EQ(S.quickProof(), QuickProof::Bounds);
  EXPECT_TRUE(S.provablyEmpty());
}

TEST(QuickProofTest, StridesRefuteAnIntegerGap) {
  // 3v + t == 3v' + t' with t < t' (t, t' in [0, 2], v, v' in [0, 1]): the
  // ranges overlap everywhere; the multiples of 3 against the rest (in
  // [-2, 2]) give v == v', then t == t', which contradicts t < t'.
  IntegerSystem S;
  int V = S.addVariable(), T = S.addVariable(), V2 = S.addVariable(), T2 = S.addVariable();
  for (int X : {V, V2})
    S.addRange(var(X), 0, 1);
  for (int X : {T, T2})
    S.addRange(var(X), 0, 2);
  S.addEquality(var(V, 3) + var(T) - var(V2, 3) - var(T2));
  S.addInequality(var(T2) - var(T) - lit(1));
  EXPECT_EQ(S.quickProof(), QuickProof::Strides);
  EXPECT_TRUE(S.provablyEmpty());
}

TEST(QuickProofTest, StridesRefuteRowsOfUnboundedTiles) {
  // Thread sync's relaxed question on a shared tile A_s[64*j + l] written
  // at j < j' (j, j' unbounded: a symbolic loop), l, l' in [0, 63]: the
  // rows 64*j and 64*j' must be equal, and then j == j' contradicts j < j'.
  IntegerSystem S;
  int J = S.addVariable(), L = S.addVariable(), J2 = S.addVariable(), L2 = S.addVariable();
  for (int X : {L, L2})
    S.addRange(var(X), 0, 63);
  S.addEquality(var(J, 64) + var(L) - var(J2, 64) - var(L2));
  S.addInequality(var(J2) - var(J) - lit(1));
  EXPECT_EQ(S.quickProof(), QuickProof::Strides);
  EXPECT_TRUE(S.provablyEmpty());
  // With l allowed to run to 64 (one past the row) a point remains (l = 64,
  // l' = 0, j' = j + 1), and no proof is given.
  IntegerSystem T;
  for (int K = 0; K < 4; ++K)
    T.addVariable();
  T.addRange(var(L), 0, 64);
  T.addRange(var(L2), 0, 63);
  T.addEquality(var(J, 64) + var(L) - var(J2, 64) - var(L2));
  T.addInequality(var(J2) - var(J) - lit(1));
  EXPECT_EQ(T.quickProof(), QuickProof::None);
  EXPECT_FALSE(T.provablyEmpty());
}

TEST(QuickProofTest, AnIntegerGapWithoutEqualitiesIsLeftToTheSolver) {
  // The Omega test's example: 27 <= 11x + 13y <= 45 and -10 <= 7x - 9y
  // <= 4 has real points and no integer one; no cheap test sees that.
  IntegerSystem S;
  int X = S.addVariable(), Y = S.addVariable();
  S.addRange(var(X, 11) + var(Y, 13), 27, 45);
  S.addRange(var(X, 7) - var(Y, 9), -10, 4);
  EXPECT_EQ(S.quickProof(), QuickProof::None);
  EXPECT_TRUE(S.provablyEmpty());
}

TEST(QuickProofTest, HugeCoefficientsGiveNoProof) {
  // Overflowing arithmetic loses a proof, never makes one.
  IntegerSystem S;
  int X = S.addVariable(), Y = S.addVariable();
  int64_t Big = int64_t(1) << 62;
  S.addRange(var(X), 0, Big);
  S.addRange(var(Y), 0, Big);
  S.addEquality(var(X, Big) - var(Y, Big - 1));
  S.addInequality(var(X) - lit(1));
  EXPECT_EQ(S.quickProof(), QuickProof::None);
  EXPECT_FALSE(S.provablyEmpty());
}

/// Whether S (over N variables, each in [-R, R] by its own constraints)
/// has an integer point, by enumeration.
bool hasPoint(const std::vector<LinearExpr> &Eqs, const std::vector<LinearExpr> &Ineqs, int N,
              int R) {
  std::vector<int64_t> X(N, -R);
  auto Value = [&](const LinearExpr &E) {
    int64_t V = E.Constant;
    for (const auto &[I, C] : E.Coefs)
      V += C * X[I];
    return V;
  };
  while (true) {
    bool Ok = true;
    for (const LinearExpr &E : Eqs)
      Ok &= Value(E) == 0;
    for (const LinearExpr &E : Ineqs)
      Ok &= Value(E) >= 0;
    if (Ok)
      return true;
    int I = 0;
    while (I < N && X[I] == R)
      X[I++] = -R;
    if (I == N)
      return false;
    ++X[I];
  }
}

TEST(QuickProofTest, NeverAProofForASystemWithAPoint) {
  // Small random systems in the shapes the dependence analysis makes:
  // ranges, index equations with strides, orders between copies.
  std::mt19937 Rng(24);
  auto Coef = [&](int Max) { return static_cast<int64_t>(Rng() % (2 * Max + 1)) - Max; };
  int Proofs = 0, Empty = 0, Points = 0, Quick = 0;
  for (int Case = 0; Case < 400; ++Case) {
    const int N = 2 + static_cast<int>(Rng() % 3), R = 3;
    IntegerSystem S;
    std::vector<LinearExpr> Eqs, Ineqs;
    for (int V = 0; V < N; ++V) {
      S.addVariable();
      Ineqs.push_back(var(V) + lit(R - Coef(1) * (Rng() % 2)));
      Ineqs.push_back(lit(R - Coef(1) * (Rng() % 2)) - var(V));
    }
    for (int K = 0, M = static_cast<int>(Rng() % 3); K < M; ++K) {
      LinearExpr E = lit(Coef(6));
      for (int V = 0; V < N; ++V)
        if (Rng() % 2)
          E += var(V, Coef(Rng() % 3 ? 1 : 4));
      (Rng() % 2 ? Eqs : Ineqs).push_back(E);
    }
    for (const LinearExpr &E : Eqs)
      S.addEquality(E);
    for (const LinearExpr &E : Ineqs)
      S.addInequality(E);
    bool Point = hasPoint(Eqs, Ineqs, N, R + 1);
    QuickProof P = S.quickProof();
    EXPECT_FALSE(Point && P != QuickProof::None)
        << "a " << quickProofName(P) << " proof for a system with a point:\n" << S.str();
    bool Found = S.quickPoint();
    EXPECT_FALSE(Found && !Point) << "a point found in a system without one:\n" << S.str();
    EXPECT_FALSE(Found && S.provablyEmpty()) << "a system with a point called empty:\n" << S.str();
    Proofs += P != QuickProof::None;
    Empty += !Point;
    Points += Point;
    Quick += Found;
  }
  // The cases exercise the tests: many proofs, some empty systems left over,
  // most points found without the solver.
  EXPECT_GT(Proofs, 40);
  EXPECT_GT(Empty, Proofs);
  EXPECT_GT(Quick, Points / 2);
}

TEST(QuickProofTest, QuickPointFindsTheOverlapOfTwoThreadsRows) {
  // 4*t0 + i0 + 4 == 4*t1 + i1 with t0 < t1 in [0, 8), i0, i1 in [0, 4)
  // (the next thread's row, at t1 == t0 + 1): a point, found without the
  // solver.
  IntegerSystem S;
  for (int V = 0; V < 4; ++V)
    S.addVariable();
  S.addRange(var(0), 0, 7);
  S.addRange(var(1), 0, 7);
  S.addRange(var(2), 0, 3);
  S.addRange(var(3), 0, 3);
  S.addInequality(var(1) - var(0) - lit(1));
  S.addEquality(var(0, 4) + var(2) + lit(4) - var(1, 4) - var(3));
  EXPECT_EQ(S.quickProof(), QuickProof::None);
  EXPECT_TRUE(S.quickPoint());
  EXPECT_FALSE(S.provablyEmpty());
}

TEST(QuickProofTest, QuickPointTriesUpperBoundsToo) {
  // Thread sync's exact question on a GEMM nest's stage (a vthread's
  // 8*v + t against 4*t' + r, t < t'): no point with every variable at its
  // lower bound (v == 0 leaves 8*0 + t == 4*t' + r with t < t'), one from
  // the upper bounds; found without the solver.
  IntegerSystem S;
  for (int V = 0; V < 24; ++V)
    S.addVariable();
  for (auto [A, B] : {std::pair{2, 10}, {0, 11}, {6, 12}, {4, 13}, {3, 16}, {1, 17}, {7, 18},
                      {5, 19}, {21, 15}, {1, 0}, {3, 2}})
    S.addEquality(var(B) - var(A));
  S.addEquality(var(12, 8) + var(13) - var(19, 4) - var(23));
  for (int V : {0, 1, 2, 3})
    S.addInequality(var(V));
  for (int V : {4, 5, 6, 7, 12, 13, 15, 18, 19, 21})
    S.addRange(var(V), 0, 7);
  for (int V : {8, 9})
    S.addRange(var(V), 0, 0);
  for (int V : {22, 23})
    S.addRange(var(V), 0, 3);
  S.addInequality(var(5) - var(4) - lit(1));
  EXPECT_EQ(S.quickProof(), QuickProof::None);
  EXPECT_TRUE(S.quickPoint());
  EXPECT_FALSE(S.provablyEmpty());
}

TEST(QuickProofTest, QuickPointNeverInAnEmptySystem) {
  // 2x == 2y + 1 has real points but no integer one.
  IntegerSystem S;
  S.addVariable();
  S.addVariable();
  S.addRange(var(0), 0, 10);
  S.addRange(var(1), 0, 10);
  S.addInequality(var(0, 2) - var(1, 2) - lit(1));
  S.addInequality(lit(1) - var(0, 2) + var(1, 2));
  EXPECT_FALSE(S.quickPoint());
  EXPECT_TRUE(S.provablyEmpty());
}

} // namespace
