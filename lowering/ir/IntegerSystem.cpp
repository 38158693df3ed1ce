//===- IntegerSystem.cpp - Emptiness of integer linear systems ------------===//
//
// Rows are dense: Row[0] is the constant, Row[1 + v] the coefficient of
// variable v. Equalities go first (each one removes a variable exactly),
// then Fourier-Motzkin removes the rest. Arithmetic is checked: on overflow
// the procedure answers "maybe" rather than risk a wrong "empty".
//
//===----------------------------------------------------------------------===//

#include "IntegerSystem.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_map>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <set>

namespace sched {
namespace ir {

//===----------------------------------------------------------------------===//
// LinearExpr
//===----------------------------------------------------------------------===//

namespace {

bool addChecked(int64_t A, int64_t B, int64_t &Out) { return !__builtin_add_overflow(A, B, &Out); }
bool mulChecked(int64_t A, int64_t B, int64_t &Out) { return !__builtin_mul_overflow(A, B, &Out); }

} // namespace

LinearExpr LinearExpr::constant(int64_t C) {
  LinearExpr E;
  E.Constant = C;
  return E;
}

LinearExpr LinearExpr::variable(int V, int64_t Coef) {
  LinearExpr E;
  if (Coef != 0)
    E.Coefs[V] = Coef;
  return E;
}

LinearExpr &LinearExpr::operator+=(const LinearExpr &O) {
  Overflow |= O.Overflow || !addChecked(Constant, O.Constant, Constant);
  for (const auto &[V, C] : O.Coefs) {
    int64_t Sum;
    Overflow |= !addChecked(Coefs[V], C, Sum);
    if (Sum == 0)
      Coefs.erase(V);
    else
      Coefs[V] = Sum;
  }
  return *this;
}

LinearExpr &LinearExpr::operator-=(const LinearExpr &O) { return *this += O * -1; }

LinearExpr &LinearExpr::operator*=(int64_t K) {
  if (K == 0) {
    Coefs.clear();
    Constant = 0;
    return *this;
  }
  Overflow |= !mulChecked(Constant, K, Constant);
  for (auto &Entry : Coefs)
    Overflow |= !mulChecked(Entry.second, K, Entry.second);
  return *this;
}

LinearExpr operator+(LinearExpr A, const LinearExpr &B) { return A += B; }
LinearExpr operator-(LinearExpr A, const LinearExpr &B) { return A -= B; }
LinearExpr operator*(LinearExpr A, int64_t K) { return A *= K; }

std::string LinearExpr::str() const {
  std::string S;
  for (const auto &[V, C] : Coefs) {
    if (!S.empty())
      S += C < 0 ? " - " : " + ";
    else if (C < 0)
      S += "-";
    int64_t Abs = C < 0 ? -C : C;
    if (Abs != 1)
      S += std::to_string(Abs) + "*";
    S += "x" + std::to_string(V);
  }
  if (S.empty())
    return std::to_string(Constant);
  if (Constant != 0)
    S += (Constant < 0 ? " - " : " + ") + std::to_string(Constant < 0 ? -Constant : Constant);
  return S;
}

//===----------------------------------------------------------------------===//
// IntegerSystem
//===----------------------------------------------------------------------===//

int IntegerSystem::addVariable() { return NumVars++; }

void IntegerSystem::addEquality(const LinearExpr &E) {
  if (E.Overflow)
    return;
  if (E.isConstant()) {
    Contradiction |= E.Constant != 0;
    return;
  }
  Equalities.push_back(E);
}

void IntegerSystem::addInequality(const LinearExpr &E) {
  if (E.Overflow)
    return;
  if (E.isConstant()) {
    Contradiction |= E.Constant < 0;
    return;
  }
  Inequalities.push_back(E);
}

void IntegerSystem::addRange(const LinearExpr &E, int64_t Lo, int64_t Hi) {
  addInequality(E - LinearExpr::constant(Lo));
  addInequality(LinearExpr::constant(Hi) - E);
}

std::string IntegerSystem::str() const {
  std::string S;
  for (const LinearExpr &E : Equalities)
    S += E.str() + " == 0\n";
  for (const LinearExpr &E : Inequalities)
    S += E.str() + " >= 0\n";
  return S;
}

namespace {

using Row = std::vector<int64_t>; // [constant, coef of x0, coef of x1, ...]

constexpr size_t MaxInequalities = 600;
constexpr int MaxSteps = 2000; // shared by a problem and its splinters

int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  if ((A % B != 0) && ((A < 0) != (B < 0)))
    --Q;
  return Q;
}

/// The Omega test's symmetric modulo: A - B * floor(A/B + 1/2), in (-B/2, B/2].
int64_t modHat(int64_t A, int64_t B) {
  int64_t R = A - B * floorDiv(A, B); // in [0, B)
  if (2 * R > B)
    R -= B;
  return R;
}

int64_t coefGcd(const Row &R) {
  int64_t G = 0;
  for (size_t I = 1; I < R.size(); ++I)
    G = std::gcd(G, R[I] < 0 ? -R[I] : R[I]);
  return G;
}

/// Gives up ("maybe non-empty") when arithmetic would overflow or the
/// system grows too large: GaveUp is checked after every step.
class Solver {
public:
  /// Budget: steps shared by this solver and every sub-problem it splits
  /// off; when it runs out the answer is "maybe".
  Solver(int NumVars, const std::vector<LinearExpr> &Eqs, const std::vector<LinearExpr> &Ineqs,
         int &Budget)
      : Width(NumVars + 1), Budget(Budget) {
    for (const LinearExpr &E : Eqs)
      Equalities.push_back(toRow(E));
    for (const LinearExpr &E : Ineqs)
      Inequalities.push_back(toRow(E));
  }

  /// True when the system provably has no integer point.
  bool empty() {
    while (!GaveUp && --Budget > 0) {
      bool Consistent = eliminateEqualities() && normalizeInequalities();
      if (GaveUp)
        return false;
      if (!Consistent)
        return true;
      if (!Equalities.empty())
        continue; // opposite inequalities became an equality
      bool Exact = false;
      int V = pickVariable(Exact);
      if (V < 0)
        return false; // only satisfiable constant rows remain
      if (Exact) {
        eliminate(V, 0);
        continue;
      }
      return emptyByOmega(V);
    }
    return false;
  }

private:
  size_t Width;
  std::vector<Row> Equalities, Inequalities;
  bool GaveUp = false;
  int &Budget;

  /// The Omega test's integer step for a variable with non-unit
  /// coefficients on both sides: no integer point when the real shadow has
  /// none; some when the dark shadow has one; otherwise exactly when one of
  /// the splinters (the variable pinned to each of the few values next to a
  /// lower bound) has one.
  bool emptyByOmega(int V) {
    Solver Real = *this;
    Real.eliminate(V, 0);
    if (Real.empty())
      return true;
    Solver Dark = *this;
    Dark.eliminate(V, 1);
    if (!Dark.empty())
      return false;
    int64_t MaxUpper = 0;
    for (const Row &R : Inequalities)
      MaxUpper = std::max(MaxUpper, -R[V]);
    for (const Row &Lower : Inequalities) {
      int64_t A = Lower[V];
      if (A <= 0)
        continue;
      // a*x >= alpha with an integer point has a*x == alpha + k for some k
      // in [0, (a*m - a - m)/m], m the largest upper-bound coefficient.
      int64_t Last = floorDiv(add(mul(A, MaxUpper), -add(A, MaxUpper)), MaxUpper);
      if (GaveUp)
        return false;
      for (int64_t K = 0; K <= Last; ++K) {
        Solver Splinter = *this;
        Row Pinned = Lower;
        Pinned[0] = add(Pinned[0], -K);
        Splinter.Equalities.push_back(Pinned);
        if (!Splinter.empty() || Splinter.GaveUp || Budget <= 0)
          return false;
      }
    }
    return true;
  }

  int64_t mul(int64_t A, int64_t B) {
    int64_t Out = 0;
    GaveUp |= !mulChecked(A, B, Out);
    return Out;
  }
  int64_t add(int64_t A, int64_t B) {
    int64_t Out = 0;
    GaveUp |= !addChecked(A, B, Out);
    return Out;
  }
  /// R * A + S * B, element-wise.
  Row combine(const Row &R, int64_t A, const Row &S, int64_t B) {
    Row Out(R.size());
    for (size_t I = 0; I < R.size(); ++I)
      Out[I] = add(mul(R[I], A), mul(S[I], B));
    return Out;
  }

  Row toRow(const LinearExpr &E) const {
    Row R(Width, 0);
    R[0] = E.Constant;
    for (const auto &[V, C] : E.Coefs)
      R[1 + V] = C;
    return R;
  }

  void addColumn() {
    ++Width;
    for (Row &R : Equalities)
      R.push_back(0);
    for (Row &R : Inequalities)
      R.push_back(0);
  }

  /// Substitutes the variable at column K using equality E, whose
  /// coefficient there is +1 or -1, into every other row.
  void substitute(const Row &E, size_t K) {
    int64_t Unit = E[K];
    auto Apply = [&](Row &R) {
      if (R[K] == 0)
        return;
      // R - (R[K] / Unit) * E has a zero in column K (element-wise, in place).
      int64_t B = -R[K] * Unit;
      for (size_t I = 0; I < R.size(); ++I)
        R[I] = add(R[I], mul(E[I], B));
    };
    for (Row &R : Equalities)
      Apply(R);
    for (Row &R : Inequalities)
      Apply(R);
  }

  /// Removes every equality. False when one is unsatisfiable.
  bool eliminateEqualities() {
    int Guard = 0;
    while (!Equalities.empty() && !GaveUp) {
      if (++Guard > 4 * MaxSteps) {
        GaveUp = true;
        break;
      }
      Row E = Equalities.back();
      int64_t G = coefGcd(E);
      if (G == 0) {
        if (E[0] != 0)
          return false;
        Equalities.pop_back();
        continue;
      }
      if (E[0] % G != 0)
        return false; // gcd test
      for (int64_t &C : E)
        C /= G;
      Equalities.back() = E;
      size_t K = 0;
      for (size_t I = 1; I < E.size(); ++I)
        if (E[I] != 0 && (K == 0 || std::llabs(E[I]) < std::llabs(E[K])))
          K = I;
      if (std::llabs(E[K]) == 1) {
        Equalities.pop_back();
        substitute(E, K);
        continue;
      }
      // Omega: with m = |a_k| + 1, sum(modHat(a_i, m) x_i) + modHat(c, m) = m*sigma
      // has coefficient -sign(a_k) on x_k; substituting x_k from it shrinks
      // the coefficients of E.
      int64_t M = add(std::llabs(E[K]), 1);
      addColumn();
      E.push_back(0);
      Row Reduced(Width, 0);
      for (size_t I = 0; I + 1 < Width; ++I)
        Reduced[I] = modHat(E[I], M);
      Reduced[Width - 1] = -M;
      substitute(Reduced, K);
    }
    return true;
  }

  /// Divides each inequality by the gcd of its coefficients (rounding the
  /// constant down), drops satisfied constant rows and duplicates, keeps the
  /// tightest of parallel rows, and turns a pair a.x + c >= 0, -a.x - c >= 0
  /// into an equality. False when a constant row, or a pair, contradicts.
  bool normalizeInequalities() {
    // Each row divided by its coefficients' gcd, then sorted by coefficients
    // with the smallest constant first: the first of each run of parallel
    // rows is the tightest, in the order a map keyed by coefficients would
    // give (the next steps depend on it).
    std::vector<Row> Rows;
    Rows.reserve(Inequalities.size());
    for (Row &R : Inequalities) {
      int64_t G = coefGcd(R);
      if (G == 0) {
        if (R[0] < 0)
          return false;
        continue;
      }
      if (G != 1) {
        for (size_t I = 1; I < R.size(); ++I)
          R[I] /= G;
        R[0] = floorDiv(R[0], G);
      }
      Rows.push_back(std::move(R));
    }
    // Three-way comparison of X's coefficients with Sign times Y's.
    auto CompareCoefs = [](const Row &X, const Row &Y, int64_t Sign) {
      if (Sign == 1) {
        auto [XI, YI] = std::mismatch(X.begin() + 1, X.end(), Y.begin() + 1);
        return XI == X.end() ? 0 : *XI < *YI ? -1 : 1;
      }
      for (size_t I = 1; I < X.size(); ++I)
        if (X[I] != -Y[I])
          return X[I] < -Y[I] ? -1 : 1;
      return 0;
    };
    std::sort(Rows.begin(), Rows.end(), [&](const Row &X, const Row &Y) {
      int C = CompareCoefs(X, Y, 1);
      return C < 0 || (C == 0 && X[0] < Y[0]);
    });
    Rows.erase(std::unique(Rows.begin(), Rows.end(),
                           [&](const Row &X, const Row &Y) { return CompareCoefs(X, Y, 1) == 0; }),
               Rows.end());
    std::vector<char> Done(Rows.size(), 0);
    Inequalities.clear();
    for (size_t P = 0; P < Rows.size(); ++P) {
      // The row with the opposite coefficients, if any.
      auto It = std::lower_bound(Rows.begin(), Rows.end(), Rows[P], [&](const Row &X, const Row &Y) {
        return CompareCoefs(X, Y, -1) < 0;
      });
      if (It != Rows.end() && CompareCoefs(*It, Rows[P], -1) == 0) {
        size_t Opp = static_cast<size_t>(It - Rows.begin());
        int64_t Sum = add(Rows[P][0], Rows[Opp][0]);
        if (Sum < 0)
          return false;
        if (Sum == 0) {
          // The pair becomes one equality (when the first of the two comes).
          if (!Done[Opp]) {
            Done[Opp] = 1;
            if (!Done[P]) {
              Done[P] = 1;
              Equalities.push_back(Rows[P]);
            }
          }
          continue;
        }
      }
      Inequalities.push_back(Rows[P]);
    }
    return true;
  }

  /// The variable to eliminate next: one bounded on one side only (its rows
  /// go away exactly), else one whose lower (or upper) bounds all have unit
  /// coefficients (the projection is then exact over the integers, as in the
  /// Omega test), else the one whose elimination makes the fewest rows.
  /// -1 when no variable is left.
  int pickVariable(bool &BestExactOut) const {
    int Best = -1;
    bool BestExact = false;
    size_t BestCost = 0;
    for (size_t K = 1; K < Width; ++K) {
      size_t Lower = 0, Upper = 0;
      bool UnitLower = true, UnitUpper = true;
      for (const Row &R : Inequalities) {
        Lower += R[K] > 0;
        Upper += R[K] < 0;
        UnitLower &= R[K] <= 1;
        UnitUpper &= R[K] >= -1;
      }
      if (Lower + Upper == 0)
        continue;
      bool Exact = UnitLower || UnitUpper;
      size_t Cost = Lower * Upper;
      if (Best < 0 || (Exact && !BestExact) || (Exact == BestExact && Cost < BestCost)) {
        Best = static_cast<int>(K);
        BestExact = Exact;
        BestCost = Cost;
      }
    }
    BestExactOut = BestExact;
    return Best;
  }

  /// Fourier-Motzkin on column K: every lower bound against every upper
  /// one. Dark == 1 gives the Omega test's dark shadow instead of the real
  /// one: each combination must exceed (a - 1)(b - 1).
  void eliminate(int K, int Dark) {
    std::vector<Row> Lower, Upper, Rest;
    for (Row &R : Inequalities)
      (R[K] > 0 ? Lower : R[K] < 0 ? Upper : Rest).push_back(std::move(R));
    for (const Row &L : Lower)
      for (const Row &U : Upper) {
        // L: a*x + p >= 0 (a > 0); U: -b*x + q >= 0 (b > 0): b*p + a*q >= 0.
        Row C = combine(L, -U[K], U, L[K]);
        if (Dark)
          C[0] = add(C[0], -mul(L[K] - 1, -U[K] - 1));
        Rest.push_back(std::move(C));
        if (Rest.size() > MaxInequalities) {
          GaveUp = true;
          return;
        }
      }
    Inequalities = std::move(Rest);
  }
};

} // namespace

namespace {

/// The system exactly as given (variable count, then each equality and each
/// inequality with its constant, in order): the same key, the same question,
/// the same answer. Not canonicalised: the solver's step budget can make the
/// answer depend on the order of the constraints, and no answer may change.
std::string systemKey(int NumVars, const std::vector<LinearExpr> &Equalities,
                      const std::vector<LinearExpr> &Inequalities) {
  // Sized first and filled in place: this runs for every question asked.
  size_t Words = 1;
  for (const auto *List : {&Equalities, &Inequalities}) {
    Words += 1;
    for (const LinearExpr &E : *List)
      Words += 2 + 2 * E.Coefs.size();
  }
  std::string Key(Words * sizeof(int64_t), '\0');
  char *At = Key.data();
  auto Put = [&At](int64_t V) {
    std::memcpy(At, &V, sizeof V);
    At += sizeof V;
  };
  Put(NumVars);
  for (const auto *List : {&Equalities, &Inequalities}) {
    Put(static_cast<int64_t>(List->size()));
    for (const LinearExpr &E : *List) {
      Put(E.Constant);
      Put(static_cast<int64_t>(E.Coefs.size()));
      for (const auto &[Var, Coef] : E.Coefs) {
        Put(Var);
        Put(Coef);
      }
    }
  }
  return Key;
}

} // namespace

//===----------------------------------------------------------------------===//
// Cheap exact tests (before the solver)
//===----------------------------------------------------------------------===//

namespace {

/// A constraint over the alias classes' representatives: Constant +
/// sum(Terms) >= 0, or == 0 for an equality.
struct QuickRow {
  int64_t Constant = 0;
  std::vector<std::pair<int, int64_t>> Terms; // sorted by variable, non-zero
  bool Equality = false;
};

bool gcdRefutes(const std::vector<std::pair<int, int64_t>> &Terms, int64_t Constant) {
  int64_t G = 0;
  for (const auto &Term : Terms)
    G = std::gcd(G, Term.second < 0 ? -Term.second : Term.second);
  return G > 1 && Constant % G != 0;
}

/// The tests of quickProof() over one system. Arithmetic is checked: a
/// constraint whose rewriting overflows is dropped and a bound that would
/// overflow is not derived, which only ever loses a proof.
class QuickTests {
public:
  QuickTests(int NumVars, const std::vector<LinearExpr> &Eqs, const std::vector<LinearExpr> &Ineqs)
      : Parent(NumVars), Offset(NumVars, 0), Eqs(Eqs), Ineqs(Ineqs) {}

  /// The first cheap test that proves the system empty; with none and
  /// FoundPoint given, whether findPoint() found an integer point.
  QuickProof run(bool *FoundPoint = nullptr) {
    for (const LinearExpr &E : Eqs) {
      std::vector<std::pair<int, int64_t>> Terms(E.Coefs.begin(), E.Coefs.end());
      if (gcdRefutes(Terms, E.Constant))
        return QuickProof::Gcd;
    }
    // Each round starts over with the equalities the last one derived
    // (deriveEqualities): a few rounds settle the shapes the dependence
    // analysis makes (a row index, then the column within it).
    for (int Round = 0;; ++Round) {
      QuickProof Proof = runRound();
      if (Proof != QuickProof::None)
        return Derived.empty() ? Proof : QuickProof::Strides;
      if (Round == MaxRounds)
        break;
      int Found = deriveEqualities();
      if (Found < 0)
        return QuickProof::Strides;
      if (Found == 0)
        break;
    }
    if (FoundPoint) {
      // Lower bounds first, then (from the same ranges) upper bounds: a
      // strided equality (8*j + i == 4*j' + i' with i < i') may need a
      // variable off its lower bound.
      const std::vector<int64_t> Lo0 = Lo, Hi0 = Hi;
      *FoundPoint = findPoint(/*Upper=*/false);
      if (!*FoundPoint) {
        Lo = Lo0;
        Hi = Hi0;
        *FoundPoint = findPoint(/*Upper=*/true);
      }
    }
    return QuickProof::None;
  }

private:
  /// Rounds of derived equalities (each adds at least one).
  static constexpr int MaxRounds = 4;

  /// x_v == x_Parent[v] + Offset[v]; a representative is its own parent.
  std::vector<int> Parent;
  std::vector<int64_t> Offset;
  const std::vector<LinearExpr> &Eqs, &Ineqs;
  /// Equalities that every point of the system satisfies, derived from it
  /// (over representatives, which are variables of the system).
  std::vector<LinearExpr> Derived;
  const std::vector<LinearExpr> &DerivedEqs() const { return Derived; }
  std::vector<const LinearExpr *> Aliasing; // the equalities merged
  std::vector<QuickRow> Rows;
  /// Each representative's constant range; INT64_MIN / INT64_MAX: unbounded.
  std::vector<int64_t> Lo, Hi;

  /// One round of the tests over the equalities given and derived.
  QuickProof runRound() {
    std::iota(Parent.begin(), Parent.end(), 0);
    std::fill(Offset.begin(), Offset.end(), 0);
    Aliasing.clear();
    Rows.clear();
    if (!mergeAliases() || !rewrite())
      return QuickProof::Aliases;
    for (const QuickRow &R : Rows)
      if (R.Equality && gcdRefutes(R.Terms, R.Constant))
        return QuickProof::Gcd;
    if (!propagateBounds())
      return QuickProof::Bounds;
    return QuickProof::None;
  }

  /// Equalities that follow from an equality row and the ranges, added to
  /// Derived: a row of two unit terms of opposite signs (an alias the
  /// rewriting made: x + c == y + c' once other terms cancelled), and the
  /// strides split: with g the gcd of the coefficients of the terms that
  /// are multiples of one term's, S those terms and R the others plus the
  /// constant, S == g*k and g*k == -R; when R's range leaves one k, S == g*k
  /// and R == -g*k each hold (64*j + l - 64*j' - l' == 0 with l, l' in [0,
  /// 63] gives j - j' == 0 and l - l' == 0). The number added; -1 when some
  /// row's range leaves no k at all (the system is empty).
  int deriveEqualities() {
    int Added = 0;
    auto Add = [&](const std::vector<std::pair<int, int64_t>> &Terms, int64_t Constant) {
      LinearExpr E = LinearExpr::constant(Constant);
      for (const auto &[V, C] : Terms)
        E.Coefs[V] = C;
      for (const LinearExpr &D : Derived)
        if (D.Coefs == E.Coefs && D.Constant == E.Constant)
          return;
      Derived.push_back(std::move(E));
      ++Added;
    };
    for (const QuickRow &R : Rows) {
      if (!R.Equality || R.Terms.size() < 2)
        continue;
      if (R.Terms.size() == 2 && R.Terms[0].second == -R.Terms[1].second &&
          (R.Terms[0].second == 1 || R.Terms[0].second == -1)) {
        Add(R.Terms, R.Constant);
        continue;
      }
      for (const auto &Pivot : R.Terms) {
        int64_t P = Pivot.second < 0 ? -Pivot.second : Pivot.second;
        if (P < 2)
          continue;
        std::vector<std::pair<int, int64_t>> Multiples, Rest;
        int64_t G = 0;
        for (const auto &Term : R.Terms)
          if (Term.second % P == 0) {
            Multiples.push_back(Term);
            G = std::gcd(G, Term.second < 0 ? -Term.second : Term.second);
          } else {
            Rest.push_back(Term);
          }
        // The rest's range (with the constant); it must be bounded.
        __int128 RestLo = R.Constant, RestHi = R.Constant;
        bool Bounded = !Rest.empty();
        for (const auto &[V, C] : Rest) {
          if (Lo[V] == NegInf || Hi[V] == Inf) {
            Bounded = false;
            break;
          }
          __int128 A = __int128(C) * Lo[V], B = __int128(C) * Hi[V];
          RestLo += std::min(A, B);
          RestHi += std::max(A, B);
        }
        if (!Bounded)
          continue;
        // g*k == -rest: k in [ceil(-RestHi / g), floor(-RestLo / g)].
        __int128 KLo = -floorDiv128(RestHi, G), KHi = floorDiv128(-RestLo, G);
        if (KLo > KHi)
          return -1;
        if (KLo != KHi || KLo * G >= Inf || KLo * G <= NegInf)
          continue;
        int64_t K = static_cast<int64_t>(KLo), RestConstant;
        if (!addChecked(R.Constant, K * G, RestConstant))
          continue;
        std::vector<std::pair<int, int64_t>> Unit;
        for (const auto &[V, C] : Multiples)
          Unit.push_back({V, C / G});
        Add(Unit, -K);             // S/g - k == 0
        Add(Rest, RestConstant);   // R + g*k == 0
      }
    }
    return Added;
  }

  /// V's representative R, and Off with x_V == x_R + Off (false on overflow).
  bool find(int V, int &R, int64_t &Off) const {
    Off = 0;
    while (Parent[V] != V) {
      if (!addChecked(Off, Offset[V], Off))
        return false;
      V = Parent[V];
    }
    R = V;
    return true;
  }

  /// Merges the classes of the equalities x_b - x_a + c == 0 (unit
  /// coefficients of opposite signs). False when two of them contradict.
  bool mergeAliases() {
    for (const std::vector<LinearExpr> *List : {&Eqs, &DerivedEqs()})
      for (const LinearExpr &E : *List)
        if (!mergeAlias(E))
          return false;
    return true;
  }

  /// Merges the classes of E when it is x_b - x_a + c == 0. False when it
  /// contradicts the classes so far.
  bool mergeAlias(const LinearExpr &E) {
    {
      if (E.Coefs.size() != 2)
        return true;
      auto [VA, CA] = *E.Coefs.begin();
      auto [VB, CB] = *std::next(E.Coefs.begin());
      if (!((CA == 1 && CB == -1) || (CA == -1 && CB == 1)))
        return true;
      // CA*xa + CB*xb + c == 0 with CA == -CB: xb == xa + D, D = -c*CB.
      int64_t D, OA, OB, Link;
      int RA, RB;
      if (!mulChecked(-CB, E.Constant, D) || !find(VA, RA, OA) || !find(VB, RB, OB))
        return true;
      // x_RB + OB == x_RA + OA + D.
      if (!addChecked(OA, D, Link) || !addChecked(Link, -OB, Link))
        return true;
      if (RA == RB) {
        if (Link != 0)
          return false;
      } else {
        Parent[RB] = RA;
        Offset[RB] = Link;
      }
      Aliasing.push_back(&E);
    }
    return true;
  }

  /// Rows: every other constraint over the representatives. False when one
  /// becomes a false constant.
  bool rewrite() {
    auto Add = [&](const LinearExpr &E, bool Equality) {
      QuickRow R;
      R.Equality = Equality;
      R.Constant = E.Constant;
      for (const auto &[V, C] : E.Coefs) {
        int Rep;
        int64_t Off, Shift;
        if (!find(V, Rep, Off) || !mulChecked(C, Off, Shift) ||
            !addChecked(R.Constant, Shift, R.Constant))
          return true; // dropped
        R.Terms.push_back({Rep, C});
      }
      // Terms of one class added up, zeros left out.
      std::sort(R.Terms.begin(), R.Terms.end());
      size_t Kept = 0;
      for (size_t I = 0; I < R.Terms.size(); ++I) {
        if (Kept > 0 && R.Terms[Kept - 1].first == R.Terms[I].first) {
          if (!addChecked(R.Terms[Kept - 1].second, R.Terms[I].second, R.Terms[Kept - 1].second))
            return true; // dropped
        } else {
          R.Terms[Kept++] = R.Terms[I];
        }
        if (R.Terms[Kept - 1].second == 0)
          --Kept;
      }
      R.Terms.resize(Kept);
      if (R.Terms.empty())
        return Equality ? R.Constant == 0 : R.Constant >= 0;
      Rows.push_back(std::move(R));
      return true;
    };
    for (const std::vector<LinearExpr> *List : {&Eqs, &DerivedEqs()})
      for (const LinearExpr &E : *List)
        if (std::find(Aliasing.begin(), Aliasing.end(), &E) == Aliasing.end() && !Add(E, true))
          return false;
    for (const LinearExpr &E : Ineqs)
      if (!Add(E, false))
        return false;
    return true;
  }

  /// Bounds consistency: each constraint, with every other term at its
  /// extreme, bounds each variable; rounds until nothing tightens (at most
  /// a few: a chain x < y < z ... moves one step per round). False when a
  /// constraint cannot hold within the ranges.
  bool propagateBounds() {
    Lo.assign(Parent.size(), NegInf);
    Hi.assign(Parent.size(), Inf);
    for (int Round = 0; Round < 16; ++Round) {
      bool Changed = false;
      for (const QuickRow &R : Rows)
        if (!tightenBy(R, [&](int) { Changed = true; }))
          return false;
      if (!Changed)
        break;
    }
    return true;
  }

  static constexpr int64_t Inf = std::numeric_limits<int64_t>::max();
  static constexpr int64_t NegInf = std::numeric_limits<int64_t>::min();

  /// The ranges tightened by row R (both ways for an equality), Tightened
  /// called with each variable whose range shrank. False when R cannot hold
  /// within the ranges.
  template <typename TightenedFn> bool tightenBy(const QuickRow &R, TightenedFn Tightened) {
    // A term beyond this magnitude counts as unbounded: no sum overflows.
    const __int128 Huge = __int128(1) << 100;
    for (int Sign : {1, -1}) {
      if (Sign < 0 && !R.Equality)
        break;
      // Max: the largest value of Sign*(row) over the ranges, from the
      // bounded terms; Open: the unbounded ones (their variable in Last).
      __int128 Max = __int128(R.Constant) * Sign;
      int Open = 0, Last = -1;
      for (const auto &[V, C] : R.Terms) {
        __int128 A = __int128(C) * Sign;
        int64_t Best = A > 0 ? Hi[V] : Lo[V];
        __int128 Term = A * Best;
        if (Best == Inf || Best == NegInf || Term > Huge || Term < -Huge) {
          ++Open;
          Last = V;
        } else {
          Max += Term;
        }
      }
      if (Open == 0 && Max < 0)
        return false;
      if (Open > 1)
        continue;
      for (const auto &[V, C] : R.Terms) {
        if (Open == 1 && V != Last)
          continue;
        __int128 A = __int128(C) * Sign;
        // A*x + Rest >= 0, Rest the others at their largest.
        __int128 Rest = Open ? Max : Max - A * (A > 0 ? Hi[V] : Lo[V]);
        __int128 Bound = A > 0 ? -floorDiv128(Rest, A) : floorDiv128(Rest, -A);
        if (Bound >= Inf || Bound <= NegInf)
          continue;
        if (A > 0 && Bound > Lo[V]) {
          Lo[V] = static_cast<int64_t>(Bound);
          Tightened(V);
        } else if (A < 0 && Bound < Hi[V]) {
          Hi[V] = static_cast<int64_t>(Bound);
          Tightened(V);
        }
        if (Lo[V] > Hi[V])
          return false;
      }
    }
    return true;
  }

  /// A point of the system, found greedily from the propagated ranges: each
  /// representative in turn, the last first (the innermost loops and the
  /// facts derived last, before the parameters whose ranges they bound), is
  /// fixed at its lower bound (else its upper bound, else 0; Upper: the
  /// other way round) and the rows
  /// that use it tighten the ranges of the others (once: no fixpoint). True only when every
  /// constraint of the system holds at the point found: an integer point,
  /// which no proof of emptiness can exist against. False says nothing (a
  /// choice may have been wrong; the solver decides).
  bool findPoint(bool Upper) {
    const int N = static_cast<int>(Parent.size());
    std::vector<std::vector<size_t>> Uses(N);
    for (size_t I = 0; I < Rows.size(); ++I)
      for (const auto &Term : Rows[I].Terms)
        Uses[Term.first].push_back(I);
    for (int V = N - 1; V >= 0; --V) {
      if (Parent[V] != V || Lo[V] == Hi[V])
        continue;
      if (Upper)
        Lo[V] = Hi[V] = Hi[V] != Inf ? Hi[V] : Lo[V] != NegInf ? Lo[V] : 0;
      else
        Lo[V] = Hi[V] = Lo[V] != NegInf ? Lo[V] : Hi[V] != Inf ? Hi[V] : 0;
      for (size_t I : Uses[V])
        if (!tightenBy(Rows[I], [](int) {}))
          return false;
    }
    // The point, checked against the constraints as given (not the rows,
    // which left out any whose rewriting overflowed).
    // Values below 2^40: no sum of products below overflows.
    const __int128 Limit = __int128(1) << 40;
    std::vector<__int128> X(N);
    for (int V = 0; V < N; ++V) {
      int Rep;
      int64_t Off;
      if (!find(V, Rep, Off) || Lo[Rep] != Hi[Rep])
        return false;
      X[V] = __int128(Lo[Rep]) + Off;
      if (X[V] >= Limit || X[V] <= -Limit)
        return false;
    }
    auto Value = [&](const LinearExpr &E) {
      __int128 Sum = E.Constant;
      for (const auto &[V, C] : E.Coefs)
        Sum += __int128(C) * X[V];
      return Sum;
    };
    for (const LinearExpr &E : Eqs)
      if (Value(E) != 0)
        return false;
    for (const LinearExpr &E : Ineqs)
      if (Value(E) < 0)
        return false;
    return true;
  }

  static __int128 floorDiv128(__int128 A, __int128 B) {
    __int128 Q = A / B;
    if ((A % B != 0) && ((A < 0) != (B < 0)))
      --Q;
    return Q;
  }
};

} // namespace

const char *quickProofName(QuickProof P) {
  switch (P) {
  case QuickProof::None: return "none";
  case QuickProof::Gcd: return "gcd";
  case QuickProof::Aliases: return "aliases";
  case QuickProof::Bounds: return "bounds";
  case QuickProof::Strides: return "strides";
  }
  return "?";
}

QuickProof IntegerSystem::quickProof() const {
  if (Contradiction)
    return QuickProof::None; // provablyEmpty() knows it without a test
  return QuickTests(NumVars, Equalities, Inequalities).run();
}

bool IntegerSystem::quickPoint() const {
  bool Found = false;
  if (!Contradiction)
    QuickTests(NumVars, Equalities, Inequalities).run(&Found);
  return Found;
}

bool checkFastDependence() {
  static const bool On = [] {
    const char *V = std::getenv("SCHED_CHECK_FAST_DEPENDENCE");
    return V && *V && std::string(V) != "0";
  }();
  return On;
}

void fastDependenceMismatch(const std::string &What) {
  std::fprintf(stderr, "sched: SCHED_CHECK_FAST_DEPENDENCE: a fast path's answer differs from "
                       "the exact one: %s\n", What.c_str());
  std::abort();
}

bool IntegerSystem::provablyEmpty() const {
  if (Contradiction)
    return true;
  // The thread-sync and stage analyses ask the same pair questions many times
  // over a nest (each enclosing level asks again): answers are kept for the
  // process (one compile), keyed by the system itself.
  static std::mutex Lock;
  static std::unordered_map<std::string, bool> Answers;
  std::string Key = systemKey(NumVars, Equalities, Inequalities);
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Answers.find(Key);
    if (It != Answers.end())
      return It->second;
  }
  auto Solve = [&] {
    int Budget = MaxSteps;
    return Solver(NumVars, Equalities, Inequalities, Budget).empty();
  };
  bool Empty = true, Point = false;
  QuickProof Quick = QuickTests(NumVars, Equalities, Inequalities).run(&Point);
  if (Point) {
    Empty = false;
    if (checkFastDependence() && Solve())
      fastDependenceMismatch("the solver proves a system with an integer point empty:\n" + str());
  } else if (Quick == QuickProof::None)
    Empty = Solve();
  else if (checkFastDependence() && !Solve())
    fastDependenceMismatch(std::string("the ") + quickProofName(Quick) +
                           " test proves this system empty, the solver does not:\n" + str());
  std::lock_guard<std::mutex> Guard(Lock);
  if (Answers.size() > 200000)
    Answers.clear(); // bound the memory of a very long compile
  Answers.emplace(std::move(Key), Empty);
  return Empty;
}

} // namespace ir
} // namespace sched
