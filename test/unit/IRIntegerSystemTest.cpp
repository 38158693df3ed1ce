//===- IRIntegerSystemTest.cpp - Emptiness of integer linear systems -----===//

#include "ir/IntegerSystem.h"

#include <gtest/gtest.h>

using namespace sched::ir;

namespace {

LinearExpr var(int V, int64_t C = 1) { return LinearExpr::variable(V, C); }
LinearExpr lit(int64_t C) { return LinearExpr::constant(C); }

TEST(IntegerSystemTest, EmptySystemHasAPoint) {
  IntegerSystem S;
  S.addVariable();
  EXPECT_FALSE(S.provablyEmpty());
}

TEST(IntegerSystemTest, ContradictoryBoundsAreEmpty) {
  IntegerSystem S;
  int X = S.addVariable();
  S.addInequality(var(X) - lit(5));  // x >= 5
  S.addInequality(lit(3) - var(X));  // x <= 3
  EXPECT_TRUE(S.provablyEmpty());
}

TEST(IntegerSystemTest, BackToTakesBackWhatAQuestionAdded) {
  // The dependence analysis asks a system with a few more constraints and
  // takes them back (mark/backTo) instead of copying it: afterwards the
  // system is the one it was, constant contradictions included.
  IntegerSystem S;
  int X = S.addVariable(), Y = S.addVariable();
  S.addRange(var(X), 0, 7);
  S.addEquality(var(Y) - var(X, 2));
  const std::string Before = S.str();
  IntegerSystem::Mark M = S.mark();
  S.addInequality(var(Y) - lit(15)); // 2x >= 15 with x <= 7: empty
  S.addEquality(lit(1));             // a constant contradiction
  EXPECT_TRUE(S.provablyEmpty());
  S.backTo(M);
  EXPECT_EQ(S.str(), Before);
  EXPECT_FALSE(S.provablyEmpty());
}

TEST(IntegerSystemTest, GcdTestRefutesParity) {
  // 2i == 2j + 1 has no integer solution (C[2*i] vs C[2*j + 1]).
  IntegerSystem S;
  int I = S.addVariable(), J = S.addVariable();
  S.addEquality(var(I, 2) - var(J, 2) - lit(1));
  EXPECT_TRUE(S.provablyEmpty());
}

TEST(IntegerSystemTest, NonUnitEqualityIsSolvedExactly) {
  // 2i == 3j + 1 has solutions (i = 2, j = 1), but none with 0 <= i <= 1.
  IntegerSystem S;
  int I = S.addVariable(), J = S.addVariable();
  S.addEquality(var(I, 2) - var(J, 3) - lit(1));
  IntegerSystem Bounded = S;
  EXPECT_FALSE(S.provablyEmpty());
  Bounded.addRange(var(I), 0, 1);
  Bounded.addRange(var(J), 0, 100);
  EXPECT_TRUE(Bounded.provablyEmpty());
}

TEST(IntegerSystemTest, TighteningFindsNoIntegerBetweenRationalBounds) {
  // 1 <= 3x <= 2: a rational point (x = 1/2) but no integer.
  IntegerSystem S;
  int X = S.addVariable();
  S.addInequality(var(X, 3) - lit(1));
  S.addInequality(lit(2) - var(X, 3));
  EXPECT_TRUE(S.provablyEmpty());
}

TEST(IntegerSystemTest, MixedRadixIndexIsInjective) {
  // 8*ty + tx == 8*ty' + tx' with tx, tx' in [0, 8) and ty < ty': no point.
  IntegerSystem S;
  int Ty = S.addVariable(), Tx = S.addVariable(), Ty2 = S.addVariable(), Tx2 = S.addVariable();
  for (int V : {Ty, Tx, Ty2, Tx2})
    S.addRange(var(V), 0, 7);
  S.addEquality(var(Ty, 8) + var(Tx) - var(Ty2, 8) - var(Tx2));
  S.addInequality(var(Ty2) - var(Ty) - lit(1));
  EXPECT_TRUE(S.provablyEmpty());
}

TEST(IntegerSystemTest, OverlappingStridesMeet) {
  // 7*io + ii == 7*io' + ii' with ii in [0, 8): io=0,ii=7 and io'=1,ii'=0.
  IntegerSystem S;
  int Io = S.addVariable(), Ii = S.addVariable(), Io2 = S.addVariable(), Ii2 = S.addVariable();
  S.addRange(var(Ii), 0, 7);
  S.addRange(var(Ii2), 0, 7);
  S.addEquality(var(Io, 7) + var(Ii) - var(Io2, 7) - var(Ii2));
  S.addInequality(var(Io2) - var(Io) - lit(1));
  EXPECT_FALSE(S.provablyEmpty());
}

TEST(IntegerSystemTest, SymbolicBoundsAreVariables) {
  // 0 <= i < n, i' = i - 1 >= 0, i' >= i: empty for every n.
  IntegerSystem S;
  int I = S.addVariable(), I2 = S.addVariable(), N = S.addVariable();
  S.addInequality(var(I));
  S.addInequality(var(N) - var(I) - lit(1));
  S.addEquality(var(I2) - var(I) + lit(1));
  S.addInequality(var(I2) - var(I));
  EXPECT_TRUE(S.provablyEmpty());
}

TEST(IntegerSystemTest, RationalSolutionsDoNotCount) {
  // 3v + t == 3v' + t' with t, t' in [0, 2] and t < t': rationally v - v'
  // may be 1/3, but no integer point exists. (Where elimination cannot stay
  // exact, the Omega test's dark shadow and splinters decide; the
  // dependence tests ThreadsApartOnlyInIntegersNeedNoBarrier and
  // BlocksOfANestedSplitNeverMeet need them.)
  IntegerSystem S;
  int V = S.addVariable(), T = S.addVariable(), V2 = S.addVariable(), T2 = S.addVariable();
  for (int X : {V, V2})
    S.addRange(var(X), 0, 1);
  for (int X : {T, T2})
    S.addRange(var(X), 0, 2);
  S.addEquality(var(V, 3) + var(T) - var(V2, 3) - var(T2));
  S.addInequality(var(T2) - var(T) - lit(1));
  EXPECT_TRUE(S.provablyEmpty());
}

TEST(IntegerSystemTest, DarkShadowFindsAnIntegerPoint) {
  // 2 <= 3x - 2y <= 4 with 0 <= x, y <= 10 has integer points (x = 2, y = 1).
  IntegerSystem S;
  int X = S.addVariable(), Y = S.addVariable();
  S.addRange(var(X), 0, 10);
  S.addRange(var(Y), 0, 10);
  S.addRange(var(X, 3) - var(Y, 2), 2, 4);
  EXPECT_FALSE(S.provablyEmpty());
}

TEST(IntegerSystemTest, HugeCoefficientsNeverGiveAFalseEmpty) {
  // 2^62 x == (2^62 - 1) y has the point x = 2^62 - 1, y = 2^62; the
  // reduction overflows int64 on the way, and must then answer "maybe".
  IntegerSystem S;
  int X = S.addVariable(), Y = S.addVariable();
  int64_t Big = int64_t(1) << 62;
  S.addEquality(var(X, Big) - var(Y, Big - 1));
  S.addInequality(var(X) - lit(1));
  S.addInequality(var(Y, 3) - var(X, 2));
  EXPECT_FALSE(S.provablyEmpty());
}

} // namespace
