//===- Dependence.cpp - The one dependence analysis -----------------------===//
//
// A PairSystem is the integer system of one question about two accesses:
// a copy of the loop variables of each (side A and side B), variables for
// the symbols both see (parameters, loops around the question's scope), the
// loop bounds and guards of each side, and one equation per buffer
// dimension. The queries at the bottom add how the iterations relate (equal,
// earlier, later) and ask IntegerSystem whether any point remains.
//
// Expressions become polynomials over the system's variables. Degree one is
// a linear constraint; X / C and X % C for a constant C > 0 become a
// quotient q and remainder r with X == C*q + r and r's range from X's sign;
// min/max become a variable bounded by both operands; X / E and X % E for a
// symbolic E become a quotient and remainder too, tied together once the
// system forces two quotients equal (a fuse of run-time extents reaches a
// buffer as [f / E, (f % E)*16 + j]). A degree-two equation
// P*U + R == 0 whose rest R provably lies strictly between -P and P (a split
// into nparts of a run-time extent: bx*S + tx with tx < S) splits into
// U == 0 and R == 0. What cannot be expressed is dropped, which only adds
// points: the answers err towards "the accesses may meet".
//
// Compile time (issue 24): the questions across threads and blocks are
// answered once per compile each, remembered by their exact structure
// (QuestionKey: thread sync asks a pair again at every loop around it and
// in every round of guard sinking, PromoteToShared and InjectThreadSync ask
// the same hand-offs, a file of many nests the same questions per nest); a
// question with no coordinate that can tell two agents apart is answered
// without a system; every question is asked of relaxed systems first (only
// the constant loop bounds and the indices: no guards, no symbolic bounds
// to derive facts about), which keep most pairs apart for a fraction of the
// cost (mayMeet); IntegerSystem runs cheap exact tests before its solver (a
// proof of emptiness, or an integer point). None of these changes an
// answer: SCHED_CHECK_FAST_DEPENDENCE=1 recomputes every fast answer on the
// exact path and aborts on a difference (ctest lit-check-fast-dependence).
//
//===----------------------------------------------------------------------===//

#include "Dependence.h"
#include "Affine.h"
#include "IRMutator.h"
#include "IRVisitor.h"
#include "IntegerSystem.h"
#include "Intrinsics.h"
#include "Printer.h"
#include "Simplify.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace sched {
namespace ir {

std::string DependenceWitness::describe(const std::string &What) const {
  if (!Detail.empty())
    return Detail;
  return What + " on '" + Buffer + "': " + First + " and " + Second;
}

namespace {

//===----------------------------------------------------------------------===//
// Polynomials over system variables
//===----------------------------------------------------------------------===//

using Monomial = std::vector<int>;        // sorted variable indices; {} is 1
using Poly = std::map<Monomial, int64_t>; // monomial -> non-zero coefficient

bool addInto(Poly &P, const Monomial &M, int64_t C) {
  int64_t Sum;
  if (__builtin_add_overflow(P[M], C, &Sum))
    return false;
  if (Sum == 0)
    P.erase(M);
  else
    P[M] = Sum;
  return true;
}

std::optional<Poly> addPoly(const Poly &A, const Poly &B, int64_t Scale = 1) {
  Poly Out = A;
  for (const auto &[M, C] : B) {
    int64_t Scaled;
    if (__builtin_mul_overflow(C, Scale, &Scaled) || !addInto(Out, M, Scaled))
      return std::nullopt;
  }
  return Out;
}

int degree(const Poly &P) {
  size_t D = 0;
  for (const auto &Term : P)
    D = std::max(D, Term.first.size());
  return static_cast<int>(D);
}

/// Products up to degree two (enough for a symbolic stride times a loop
/// variable); higher degrees are not representable.
std::optional<Poly> mulPoly(const Poly &A, const Poly &B) {
  Poly Out;
  for (const auto &[MA, CA] : A)
    for (const auto &[MB, CB] : B) {
      Monomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      if (M.size() > 2)
        return std::nullopt;
      std::sort(M.begin(), M.end());
      int64_t C;
      if (__builtin_mul_overflow(CA, CB, &C) || !addInto(Out, M, C))
        return std::nullopt;
    }
  return Out;
}

Poly constPoly(int64_t C) {
  Poly P;
  if (C != 0)
    P[{}] = C;
  return P;
}

Poly varPoly(int V) { return Poly{{Monomial{V}, 1}}; }

//===----------------------------------------------------------------------===//
// The system of one pair of accesses
//===----------------------------------------------------------------------===//

/// How the iterations of a loop (or the coordinates of a thread tag) of the
/// two instances relate.
enum class Relation { Free, Equal, Less, Greater, Next };

constexpr int SharedSide = 2;

/// How much of the two accesses' domains a PairSystem holds.
enum class Detail {
  Exact,  // every loop bound and guard
  Relaxed // only the loop bounds that are constants, no guards: fewer
          // constraints, so more points; cheap to build, and when even it
          // has no point, neither has the exact system
};

class PairSystem {
public:
  /// UseTags: loops bound to threadIdx/blockIdx are tied to per-side
  /// coordinate variables of their tag (ranges from TagExtent; a thread tag
  /// in neither the map nor any loop does not exist).
  PairSystem(const Access &A, const Access &B, bool UseTags = false,
             const std::map<std::string, int64_t> &TagExtent = {},
             Detail Domain = Detail::Exact)
      : UseTags(UseTags), Domain(Domain), TagExtent(TagExtent) {
    Acc[0] = &A;
    Acc[1] = &B;
    for (int S = 0; S < 2; ++S)
      for (const ForNode *L : Acc[S]->Loops)
        LoopVars[S].insert(L->LoopVar.get());
    if (UseTags)
      for (const auto &Entry : TagExtent)
        for (int S = 0; S < 2; ++S)
          coordinate(Entry.first, S);
    for (int S = 0; S < 2; ++S)
      addDomain(S);
    addIndexEquations();
    deriveFacts();
  }

  /// The variable of loop L's iteration on side S.
  int loopVariable(const ForNode *L, int S) { return variable(L->LoopVar.get(), S); }

  /// The coordinate variable of Tag on side S.
  int coordinate(const std::string &Tag, int S) {
    auto It = Coordinates.find({Tag, S});
    if (It != Coordinates.end())
      return It->second;
    int V = Sys.addVariable();
    Coordinates[{Tag, S}] = V;
    auto Ext = TagExtent.find(Tag);
    LinearExpr X = LinearExpr::variable(V);
    Sys.addInequality(X);
    if (Ext != TagExtent.end() && Ext->second >= 0)
      Sys.addInequality(LinearExpr::constant(Ext->second - 1) - X);
    return V;
  }

  /// Whether some point satisfies the system and, for each (VA, VB, R) in
  /// Relations, VA R VB.
  bool feasible(const std::vector<std::tuple<int, int, Relation>> &Relations) const {
    WithMore Copy(Sys);
    for (const auto &[VA, VB, R] : Relations) {
      LinearExpr Diff = LinearExpr::variable(VB) - LinearExpr::variable(VA);
      switch (R) {
      case Relation::Free:
        break;
      case Relation::Equal:
        Copy.addEquality(Diff);
        break;
      case Relation::Less: // VA + 1 <= VB
        Copy.addInequality(Diff - LinearExpr::constant(1));
        break;
      case Relation::Greater:
        Copy.addInequality(LinearExpr::constant(-1) - Diff);
        break;
      case Relation::Next: // VB = VA + 1
        Copy.addEquality(Diff - LinearExpr::constant(1));
        break;
      }
    }
    return !Copy.provablyEmpty() && minMaxCasesFeasible(Copy, 0, 0);
  }

  /// Sys with constraints added for one question, taken back when the
  /// question is answered: the same system, in the same order, as a copy
  /// of Sys with them added, without the copy (issue 24).
  class WithMore {
  public:
    explicit WithMore(IntegerSystem &S) : S(S), At(S.mark()) {}
    ~WithMore() { S.backTo(At); }
    WithMore(const WithMore &) = delete;
    WithMore &operator=(const WithMore &) = delete;
    void addEquality(const LinearExpr &E) { S.addEquality(E); }
    void addInequality(const LinearExpr &E) { S.addInequality(E); }
    bool provablyEmpty() const { return S.provablyEmpty(); }
    operator const IntegerSystem &() const { return S; }

  private:
    IntegerSystem &S;
    IntegerSystem::Mark At;
  };

private:
  /// How many min/max terms feasible() splits into their two cases (each
  /// doubles the work); the rest keep their relaxation (bounded by both
  /// operands), which only adds points.
  static constexpr unsigned MaxMinMaxCases = 8;

  /// Whether Sys (known not provably empty) has a point once each min/max
  /// from the I-th on equals one of its operands: min(a, b) is a where a <=
  /// b, else b. Exact for the min/max a clamped or banded loop bound makes
  /// (`j < min(n, i + 3)` on both sides of a dependence question: the two
  /// minimums are equal where the two i are).
  bool minMaxCasesFeasible(const IntegerSystem &S, size_t I, unsigned Split) const {
    while (I < MinMaxes.size() && MinMaxes[I].Exact)
      ++I;
    if (I == MinMaxes.size() || Split == MaxMinMaxCases)
      return true;
    const MinMax &F = MinMaxes[I];
    LinearExpr M = LinearExpr::variable(F.M);
    for (int Arm = 0; Arm < 2; ++Arm) {
      const LinearExpr &Same = Arm ? F.B : F.A, &Other = Arm ? F.A : F.B;
      IntegerSystem Case = S;
      Case.addEquality(M - Same);
      // min: the chosen operand is the smaller; max: the larger.
      Case.addInequality(F.IsMax ? Same - Other : Other - Same);
      if (!Case.provablyEmpty() && minMaxCasesFeasible(Case, I + 1, Split + 1))
        return true;
    }
    return false;
  }

  const Access *Acc[2];
  bool UseTags;
  Detail Domain;
  std::map<std::string, int64_t> TagExtent;
  /// Mutable for the questions of const members (feasible, implied), which
  /// add their constraints and take them back (WithMore).
  mutable IntegerSystem Sys;
  std::set<const VarNode *> LoopVars[2];
  std::map<std::pair<const VarNode *, int>, int> Vars;
  std::map<std::pair<std::string, int>, int> Coordinates;

  // Facts that only follow once the rest of the system is known, settled by
  // deriveFacts.

  /// A product x*y of two variables, stood for by the variable W: the
  /// system sees W as a variable of its own, with W >= 0 once x, y >= 0,
  /// and x, y >= 1 once W >= 1 too (a loop over max(N, 0)*max(M, 0)
  /// iterations that runs at all has N, M >= 1).
  struct Product {
    int X, Y, W;
    bool NonNegative = false, Positive = false;
  };
  std::vector<Product> Products;

  /// X / C and X % C: X == C*q + r with r's sign that of X (C's division
  /// truncates); C is a constant, or a variable standing for a symbolic
  /// divisor, when X == w + r with w the product C*q, |r| < C once C >= 1,
  /// q below c once X < c*C, and two quotients forced equal tie their
  /// dividends (X1 - X2 == r1 - r2).
  struct Division {
    Poly XP;      // the dividend; X is its linear form
    LinearExpr X;
    int64_t C;   // > 0: a constant divisor; 0: the divisor is variable E
    int E = -1;
    int Q, R;
    bool Bounded = false;
  };
  std::vector<Division> Divisions;

  /// min(A, B) (IsMax false) or max(A, B) as M, bounded by both operands;
  /// equal to one of them once the other is excluded.
  struct MinMax {
    bool IsMax;
    LinearExpr A, B;
    int M;
    bool Exact = false;
  };
  std::vector<MinMax> MinMaxes;

  /// Equations of degree two that could not be split yet.
  std::vector<Poly> Pending;

  int variable(const VarNode *V, int S) {
    int Key = LoopVars[S].count(V) ? S : SharedSide;
    auto It = Vars.find({V, Key});
    if (It != Vars.end())
      return It->second;
    int Index = Sys.addVariable();
    Vars[{V, Key}] = Index;
    return Index;
  }

  bool provablyEmptyWith(const LinearExpr &Ineq) const {
    WithMore Copy(Sys);
    Copy.addInequality(Ineq);
    return Copy.provablyEmpty();
  }

  /// Whether E >= 0 holds at every point of the system.
  bool implied(const LinearExpr &NonNegative) const {
    return provablyEmptyWith(LinearExpr::constant(-1) - NonNegative);
  }

  static bool sameExpr(const LinearExpr &A, const LinearExpr &B) {
    return A.Coefs == B.Coefs && A.Constant == B.Constant;
  }

  /// The variable standing for X*Y.
  int product(int X, int Y) {
    if (X > Y)
      std::swap(X, Y);
    for (const Product &P : Products)
      if (P.X == X && P.Y == Y)
        return P.W;
    int W = Sys.addVariable();
    Products.push_back({X, Y, W});
    return W;
  }

  /// P as a linear expression: each product of two variables replaced by
  /// the variable standing for it (which only forgets what the product
  /// determines, never adds a point).
  LinearExpr linear(const Poly &P) {
    LinearExpr E;
    for (const auto &[M, C] : P) {
      if (M.empty())
        E += LinearExpr::constant(C);
      else if (M.size() == 1)
        E += LinearExpr::variable(M[0], C);
      else
        E += LinearExpr::variable(product(M[0], M[1]), C);
    }
    return E;
  }

  /// A single variable equal to E (E itself when it is one; the same
  /// variable for the same E, so that two divisions by it compare).
  std::vector<std::pair<LinearExpr, int>> Named;
  int asVariable(const LinearExpr &E) {
    if (E.Constant == 0 && E.Coefs.size() == 1 && E.Coefs.begin()->second == 1)
      return E.Coefs.begin()->first;
    for (const auto &[X, V] : Named)
      if (sameExpr(X, E))
        return V;
    int V = Sys.addVariable();
    Sys.addEquality(E - LinearExpr::variable(V));
    Named.push_back({E, V});
    return V;
  }

  /// Quotient and remainder of X / Divisor (a constant C > 0) or X /
  /// variable E (C == 0).
  std::pair<int, int> divide(const Poly &XP, int64_t C, int E) {
    for (const Division &D : Divisions)
      if (D.C == C && D.E == E && D.XP == XP)
        return {D.Q, D.R};
    LinearExpr X = linear(XP);
    int Q = Sys.addVariable(), R = Sys.addVariable();
    LinearExpr LR = LinearExpr::variable(R);
    if (C > 0) {
      Sys.addEquality(X - LinearExpr::variable(Q, C) - LR);
      Sys.addRange(LR, -(C - 1), C - 1);
    } else {
      Sys.addEquality(X - LinearExpr::variable(product(E, Q)) - LR);
    }
    Divisions.push_back({XP, X, C, E, Q, R});
    return {Q, R};
  }

  std::optional<Poly> polyOf(const Expr &E, int S) {
    if (!E || !isInt(E->Type))
      return std::nullopt;
    switch (E->Kind) {
    case ExprKind::IntImm:
      return constPoly(as<IntImmNode>(E)->Value);
    case ExprKind::Var:
      return varPoly(variable(as<VarNode>(E), S));
    case ExprKind::Cast: {
      const auto *C = as<CastNode>(E);
      DType From = C->Value->Type;
      // Narrowing may wrap; an int64 loop counter converted to its unsigned
      // source type does not (see exactCast in Affine.cpp).
      bool Counter = as<VarNode>(C->Value) && From == DType::Int64 && isUnsigned(C->Type);
      if (!isInt(From) || (dtypeBytes(C->Type) < dtypeBytes(From) && !Counter))
        return std::nullopt;
      return polyOf(C->Value, S);
    }
    case ExprKind::Unary: {
      const auto *U = as<UnaryNode>(E);
      if (U->Op != UnOp::Neg || (isUnsigned(E->Type) && dtypeBytes(E->Type) < 8))
        return std::nullopt;
      std::optional<Poly> A = polyOf(U->A, S);
      return A ? addPoly(Poly(), *A, -1) : std::nullopt;
    }
    case ExprKind::Binary:
      return polyOfBinary(as<BinaryNode>(E), S);
    case ExprKind::FloatImm:
    case ExprKind::Select:
    case ExprKind::Load:
    case ExprKind::Call:
      return std::nullopt; // not polynomial in the loop variables: unknown
    }
    return std::nullopt;
  }

  std::optional<Poly> polyOfBinary(const BinaryNode *B, int S) {
    // Narrow unsigned arithmetic wraps modulo 2^32 (see linearize in
    // Affine.cpp); bitwise operators are not polynomial: unknown.
    if (isUnsigned(B->Type) && dtypeBytes(B->Type) < 8 && !isComparison(B->Op))
      return std::nullopt;
    std::optional<Poly> A = polyOf(B->A, S), Bp = polyOf(B->B, S);
    if (!A || !Bp)
      return std::nullopt;
    switch (B->Op) {
    case BinOp::Add:
      return addPoly(*A, *Bp);
    case BinOp::Sub:
      return addPoly(*A, *Bp, -1);
    case BinOp::Mul: {
      // A product of degree three or more: the variable standing for the
      // product of two factors makes it degree two again.
      std::optional<Poly> P = mulPoly(*A, *Bp);
      if (!P && degree(*A) == 2)
        P = mulPoly(varPoly(asVariable(linear(*A))), *Bp);
      if (!P && degree(*Bp) == 2)
        P = mulPoly(*A, varPoly(asVariable(linear(*Bp))));
      return P;
    }
    case BinOp::Div:
    case BinOp::Mod: {
      int64_t C;
      if (Bp->size() <= 1 && getConstInt(B->B, C) && C > 0) {
        if (C == 1)
          return B->Op == BinOp::Div ? A : constPoly(0);
        auto [Q, R] = divide(*A, C, -1);
        return varPoly(B->Op == BinOp::Div ? Q : R);
      }
      if (getConstInt(B->B, C))
        return std::nullopt; // a negative or zero constant divisor
      auto [Q, R] = divide(*A, 0, asVariable(linear(*Bp)));
      return varPoly(B->Op == BinOp::Div ? Q : R);
    }
    case BinOp::Min:
    case BinOp::Max: {
      bool IsMax = B->Op == BinOp::Max;
      LinearExpr LA = linear(*A), LB = linear(*Bp);
      for (const MinMax &F : MinMaxes)
        if (F.IsMax == IsMax && sameExpr(F.A, LA) && sameExpr(F.B, LB))
          return varPoly(F.M);
      int M = Sys.addVariable();
      LinearExpr X = LinearExpr::variable(M);
      // min(a, b) <= a and <= b; max(a, b) >= a and >= b. The other half of
      // each is a disjunction, settled by deriveFacts where it can be.
      int64_t Sign = IsMax ? -1 : 1;
      Sys.addInequality((LA - X) * Sign);
      Sys.addInequality((LB - X) * Sign);
      MinMaxes.push_back({IsMax, LA, LB, M});
      return varPoly(M);
    }
    default:
      return std::nullopt;
    }
  }

  /// L <= R (+ Slack) as an inequality.
  void addComparison(const Expr &Lhs, const Expr &Rhs, int64_t Slack, int S) {
    std::optional<Poly> L = polyOf(Lhs, S), R = polyOf(Rhs, S);
    if (!L || !R)
      return;
    std::optional<Poly> D = addPoly(*R, *L, -1); // R - L + Slack >= 0
    if (!D)
      return;
    Sys.addInequality(linear(*D) + LinearExpr::constant(Slack));
  }

  /// The constraints a guard implies (Negated: its negation). Conditions
  /// that are not conjunctions of integer comparisons imply nothing here.
  void addCondition(const Expr &Cond, bool Negated, int S) {
    if (const auto *U = as<UnaryNode>(Cond)) {
      if (U->Op == UnOp::Not)
        addCondition(U->A, !Negated, S);
      return;
    }
    int64_t Value;
    if (Cond->Type == DType::Bool && getConstInt(Cond, Value)) {
      if ((Value != 0) == Negated)
        Sys.addInequality(LinearExpr::constant(-1)); // unreachable
      return;
    }
    const auto *B = as<BinaryNode>(Cond);
    if (!B)
      return;
    if ((B->Op == BinOp::And && !Negated) || (B->Op == BinOp::Or && Negated)) {
      addCondition(B->A, Negated, S);
      addCondition(B->B, Negated, S);
      return;
    }
    if (!isComparison(B->Op) || !isInt(B->A->Type) || !isInt(B->B->Type))
      return;
    if (isUnsigned(B->A->Type) && (mayWrap(B->A) || mayWrap(B->B)))
      return; // `i - 1u < n` at i = 0 is false: no integer constraint
    BinOp Op = B->Op;
    if (Negated) {
      switch (Op) {
      case BinOp::LT: Op = BinOp::GE; break;
      case BinOp::LE: Op = BinOp::GT; break;
      case BinOp::GT: Op = BinOp::LE; break;
      case BinOp::GE: Op = BinOp::LT; break;
      case BinOp::EQ: Op = BinOp::NE; break;
      case BinOp::NE: Op = BinOp::EQ; break;
      default: return;
      }
    }
    switch (Op) {
    case BinOp::LT: addComparison(B->A, B->B, -1, S); break;
    case BinOp::LE: addComparison(B->A, B->B, 0, S); break;
    case BinOp::GT: addComparison(B->B, B->A, -1, S); break;
    case BinOp::GE: addComparison(B->B, B->A, 0, S); break;
    case BinOp::EQ:
      addComparison(B->A, B->B, 0, S);
      addComparison(B->B, B->A, 0, S);
      break;
    default: break; // != is a disjunction
    }
  }

  /// Loop bounds and guards of side S (thread-bound loops tied to their
  /// tag's coordinate); under Detail::Relaxed only the constant bounds.
  void addDomain(int S) {
    for (const ForNode *L : Acc[S]->Loops) {
      LinearExpr V = LinearExpr::variable(loopVariable(L, S));
      int64_t Constant;
      bool Bounded = Domain == Detail::Exact ||
                     (getConstInt(L->Min, Constant) && getConstInt(L->Extent, Constant));
      std::optional<Poly> Min, Ext;
      if (Bounded) {
        Min = polyOf(L->Min, S);
        Ext = polyOf(L->Extent, S);
      }
      if (Min) {
        Sys.addInequality(V - linear(*Min));
        if (Ext)
          Sys.addInequality(linear(*Min) + linear(*Ext) - LinearExpr::constant(1) - V);
      }
      if (UseTags && L->LoopKind == ForKind::ThreadBound &&
          (isThreadIdxTag(L->ThreadTag) || isBlockTag(L->ThreadTag)))
        Sys.addEquality(V - LinearExpr::variable(coordinate(L->ThreadTag, S)));
    }
    if (Domain == Detail::Exact)
      for (const Expr &G : Acc[S]->Guards)
        addCondition(G, false, S);
  }

  /// E == 0 for a polynomial E of degree two: for a variable P of its
  /// products, E == g*P*U + R with g the gcd of the coefficients of the
  /// products with P; when -g*P < R < g*P holds, U == 0 and R == 0 (a split
  /// into nparts of a run-time extent: bx*S + tx with tx < S). R may hold
  /// other products (a split of that split: jo*S + jiv*S2 + jir, with
  /// jiv*S2 + jir < S from the inner split's guard), so R == 0 is split in
  /// turn. Until then, and when that never holds, E == 0 stands with the
  /// products as variables of their own. True when split.
  bool splitEquation(const Poly &E) {
    std::set<int> Candidates;
    for (const auto &Term : E)
      if (Term.first.size() == 2 && Term.first[0] != Term.first[1])
        Candidates.insert(Term.first.begin(), Term.first.end());
    for (int P : Candidates) {
      int64_t G = 0;
      for (const auto &[M, C] : E)
        if (M.size() == 2 && (M[0] == P) != (M[1] == P))
          G = std::gcd(G, C < 0 ? -C : C);
      std::map<int, int64_t> UCoef; // U, the cofactor of g*P
      Poly Rest;
      for (const auto &[M, C] : E) {
        if (M.size() == 2 && (M[0] == P) != (M[1] == P))
          UCoef[M[0] == P ? M[1] : M[0]] += C / G;
        else
          Rest[M] = C;
      }
      LinearExpr U;
      for (const auto &[V, C] : UCoef)
        U += LinearExpr::variable(V, C);
      // The stride may be g*P + c (rows of M + 1: (M + 1)*(j - j') + l - l'
      // with l, l' < M): R = c*U + R', and -(g*P + c) < R' < g*P + c.
      std::vector<int64_t> Offsets = {0};
      if (int64_t C = offsetOf(UCoef, Rest))
        Offsets.push_back(C);
      for (int64_t Offset : Offsets) {
        Poly RestLeft = Rest;
        for (const auto &[V, C] : UCoef)
          if (Offset != 0 && (RestLeft[Monomial{V}] -= Offset * C) == 0)
            RestLeft.erase(Monomial{V});
        LinearExpr R = linear(RestLeft),
                   Stride = LinearExpr::variable(P, G) + LinearExpr::constant(Offset);
        if (U.Overflow || R.Overflow || Stride.Overflow)
          continue;
        if (provablyEmptyWith(R - Stride) &&
            provablyEmptyWith(LinearExpr::constant(0) - R - Stride)) {
          Sys.addEquality(U);
          addEquation(RestLeft);
          return true;
        }
      }
    }
    return false;
  }

  /// The c with Rest's linear term in each variable of U equal to c times
  /// its coefficient in U (0 when there is none or they disagree).
  static int64_t offsetOf(const std::map<int, int64_t> &UCoef, const Poly &Rest) {
    int64_t Offset = 0;
    bool First = true;
    for (const auto &[V, C] : UCoef) {
      if (C == 0)
        return 0;
      auto It = Rest.find(Monomial{V});
      int64_t R = It == Rest.end() ? 0 : It->second;
      if (R % C != 0)
        return 0;
      if (First)
        Offset = R / C;
      else if (R / C != Offset)
        return 0;
      First = false;
    }
    return Offset;
  }

  void addEquation(const Poly &E) {
    if (degree(E) <= 1) {
      Sys.addEquality(linear(E));
      return;
    }
    Sys.addEquality(linear(E));
    Pending.push_back(E);
  }

  void addIndexEquations() {
    const Access &A = *Acc[0], &B = *Acc[1];
    if (A.Indices.size() != B.Indices.size())
      return; // different ranks: nothing is known about the elements
    for (size_t D = 0; D < A.Indices.size(); ++D) {
      std::optional<Poly> PA = polyOf(A.Indices[D], 0), PB = polyOf(B.Indices[D], 1);
      if (!PA || !PB)
        continue;
      if (std::optional<Poly> Diff = addPoly(*PA, *PB, -1))
        addEquation(*Diff);
    }
  }

  /// The smallest c in [1, 2^20] with X < c*E provable (0 when none).
  int64_t quotientBound(const LinearExpr &X, const LinearExpr &E) const {
    auto Below = [&](int64_t C) { return implied(E * C - LinearExpr::constant(1) - X); };
    int64_t Hi = 1;
    while (Hi <= (int64_t(1) << 20) && !Below(Hi))
      Hi *= 2;
    if (Hi > (int64_t(1) << 20))
      return 0;
    int64_t Lo = Hi / 2; // Below(Lo) is false (or Lo == 0)
    while (Hi - Lo > 1) {
      int64_t Mid = Lo + (Hi - Lo) / 2;
      (Below(Mid) ? Hi : Lo) = Mid;
    }
    return Hi;
  }

  /// Whether the system forces A == B.
  bool forcedEqual(int A, int B) const {
    LinearExpr D = LinearExpr::variable(A) - LinearExpr::variable(B);
    return implied(D) && implied(LinearExpr::constant(0) - D);
  }

  bool deriveProducts() {
    bool Changed = false;
    for (Product &P : Products) {
      LinearExpr X = LinearExpr::variable(P.X), Y = LinearExpr::variable(P.Y);
      LinearExpr W = LinearExpr::variable(P.W);
      if (!P.NonNegative && implied(X) && implied(Y)) {
        Sys.addInequality(W);
        P.NonNegative = Changed = true;
      }
      if (P.NonNegative && !P.Positive && implied(W - LinearExpr::constant(1))) {
        // x*y >= 1 with x, y >= 0: both at least 1, so x*y >= each.
        Sys.addInequality(X - LinearExpr::constant(1));
        Sys.addInequality(Y - LinearExpr::constant(1));
        Sys.addInequality(W - X);
        Sys.addInequality(W - Y);
        P.Positive = Changed = true;
      }
    }
    return Changed;
  }

  bool deriveMinMax() {
    bool Changed = false;
    for (MinMax &F : MinMaxes) {
      LinearExpr M = LinearExpr::variable(F.M);
      // max: M > B forces M == A; min: M < B forces M == A (and the same
      // with A and B swapped).
      for (int Side = 0; Side < 2 && !F.Exact; ++Side) {
        const LinearExpr &Other = Side ? F.A : F.B, &Same = Side ? F.B : F.A;
        LinearExpr Gap = F.IsMax ? M - Other - LinearExpr::constant(1)
                                 : Other - M - LinearExpr::constant(1);
        if (implied(Gap)) {
          Sys.addEquality(M - Same);
          F.Exact = Changed = true;
        }
      }
    }
    return Changed;
  }

  bool deriveDivisions() {
    bool Changed = false;
    for (Division &D : Divisions) {
      if (D.Bounded)
        continue;
      LinearExpr E = D.C > 0 ? LinearExpr::constant(D.C) : LinearExpr::variable(D.E);
      LinearExpr Q = LinearExpr::variable(D.Q), R = LinearExpr::variable(D.R);
      if (D.C == 0 && !implied(E - LinearExpr::constant(1)))
        continue;
      if (implied(D.X)) {
        Sys.addInequality(R);
        Sys.addInequality(E - LinearExpr::constant(1) - R);
        Sys.addInequality(Q);
        if (D.C == 0)
          if (int64_t C = quotientBound(D.X, E))
            Sys.addInequality(LinearExpr::constant(C - 1) - Q);
        D.Bounded = Changed = true;
      } else if (implied(LinearExpr::constant(0) - D.X)) {
        Sys.addInequality(LinearExpr::constant(0) - R);
        Sys.addInequality(R + E - LinearExpr::constant(1));
        Sys.addInequality(LinearExpr::constant(0) - Q);
        D.Bounded = Changed = true;
      }
    }
    return Changed;
  }

  /// Two divisions by one divisor whose quotients are forced equal:
  /// X1 - X2 == r1 - r2 (for a constant divisor the linear system knows it
  /// already, but not for dividends with products in them, which the
  /// polynomial form of the equation may split).
  bool deriveTies(std::set<std::pair<size_t, size_t>> &Tied) {
    bool Changed = false;
    for (size_t I = 0; I < Divisions.size(); ++I)
      for (size_t J = I + 1; J < Divisions.size(); ++J) {
        const Division &A = Divisions[I], &B = Divisions[J];
        if (A.C != B.C || A.E != B.E || A.XP == B.XP || Tied.count({I, J}) ||
            !forcedEqual(A.Q, B.Q))
          continue;
        // As a polynomial: a dividend with a product in it (bx*S + tx)
        // may then split.
        std::optional<Poly> Diff = addPoly(A.XP, B.XP, -1);
        if (Diff)
          Diff = addPoly(*Diff, addPoly(varPoly(A.R), varPoly(B.R), -1).value_or(Poly()), -1);
        if (Diff)
          addEquation(*Diff);
        else
          Sys.addEquality(A.X - B.X - LinearExpr::variable(A.R) + LinearExpr::variable(B.R));
        Tied.insert({I, J});
        Changed = true;
      }
    return Changed;
  }

  /// Everything that follows from products, min/max, divisions and pending
  /// equations once the rest of the system is known, repeated until
  /// nothing new follows. A fuse of run-time extents bounds f by
  /// max(N, 0)*max(M, 0), which makes both maxes at least 1, so equal to N
  /// and M, so f / M below N; a fuse of a fuse ([(X/W)/H, (X/W) % H,
  /// X % W]) ties X/W, then X.
  void deriveFacts() {
    std::set<std::pair<size_t, size_t>> Tied;
    for (int Round = 0; Round < 16; ++Round) {
      bool Changed = deriveProducts();
      Changed |= deriveMinMax();
      Changed |= deriveDivisions();
      Changed |= deriveTies(Tied);
      // A split may leave a rest to split in turn (added to Pending).
      std::vector<Poly> Unsplit, Tried;
      Tried.swap(Pending);
      for (const Poly &E : Tried) {
        if (splitEquation(E))
          Changed = true;
        else
          Unsplit.push_back(E);
      }
      Pending.insert(Pending.end(), Unsplit.begin(), Unsplit.end());
      if (!Changed)
        break;
    }
  }
};

//===----------------------------------------------------------------------===//
// Helpers of the queries
//===----------------------------------------------------------------------===//

/// Buffers allocated in a statement, and the first call without a
/// declaration (whose effects are unknown).
class BodyFacts : public IRVisitor {
public:
  std::set<const BufferNode *> Allocated;
  std::string UnknownCall;

protected:
  void visitAllocate(const AllocateNode *N) override {
    Allocated.insert(N->Buf.get());
    IRVisitor::visitAllocate(N);
  }
  void visitCall(const CallNode *N) override {
    if (!lookupIntrinsic(N->Name) && UnknownCall.empty())
      UnknownCall = N->Name;
    IRVisitor::visitCall(N);
  }
};

void witness(DependenceWitness *Why, const Access &A, const Access &B) {
  if (!Why)
    return;
  Why->Buffer = A.Buf->Name;
  Why->First = describeAccess(A);
  Why->Second = describeAccess(B);
  Why->Detail.clear();
}

bool unknownCall(const BodyFacts &Facts, DependenceWitness *Why) {
  if (Facts.UnknownCall.empty())
    return false;
  if (Why)
    *Why = DependenceWitness{"", "", "", "call to '" + Facts.UnknownCall + "' with unknown effects"};
  return true;
}

class LetFinder : public IRVisitor {
public:
  bool Found = false;

protected:
  void visitLetStmt(const LetStmtNode *) override { Found = true; }
};

/// The accesses inside loop L, lets inlined. With a Context that contains L
/// (and no let), each access also carries the loops and guards around L
/// there, which both instances of a question share: the first Outer loops
/// of every access are the loops around L, then L itself.
struct Inside {
  std::vector<Access> Accesses;
  size_t Outer = 0;
};

Inside accessesInside(const ForNode *L, const Stmt &Context) {
  Inside Out;
  LetFinder Lets;
  if (Context)
    Lets.visit(Context);
  if (Context && !Lets.Found) {
    for (Access &A : collectAccesses(Context)) {
      auto It = std::find(A.Loops.begin(), A.Loops.end(), L);
      if (It == A.Loops.end())
        continue;
      Out.Outer = static_cast<size_t>(It - A.Loops.begin());
      Out.Accesses.push_back(std::move(A));
    }
    return Out;
  }
  Out.Accesses = collectAccesses(inlineLets(L->Body));
  for (Access &A : Out.Accesses)
    A.Loops.insert(A.Loops.begin(), L);
  return Out;
}

/// The loops around the question's scope run at one iteration for both
/// instances.
std::vector<std::tuple<int, int, Relation>> outerEqual(PairSystem &P, const Access &A,
                                                        size_t Outer) {
  std::vector<std::tuple<int, int, Relation>> Rel;
  for (size_t K = 0; K < Outer; ++K)
    Rel.push_back({P.loopVariable(A.Loops[K], 0), P.loopVariable(A.Loops[K], 1), Relation::Equal});
  return Rel;
}

/// Whether the pair can conflict at all: same buffer, one of them writing.
bool mayConflict(const Access &A, const Access &B) {
  return A.Buf.get() == B.Buf.get() && (A.IsWrite || B.IsWrite);
}

/// Both accesses belong to commutative updates of their buffer with the
/// same operation: the order of their instances does not matter.
bool bothCommutativeUpdates(const Access &A, const Access &B) {
  BinOp OpA, OpB;
  return isCommutativeUpdate(A.Statement, A.Buf.get(), OpA) &&
         isCommutativeUpdate(B.Statement, B.Buf.get(), OpB) && OpA == OpB;
}

/// Query(Domain) of a question about two accesses, true when they may meet
/// (in the way the question asks), asked of the relaxed systems first: a
/// relaxed system has every point of the exact one, so where it has none
/// the exact one has none either, and most pairs never meet. Only a pair
/// the relaxed systems cannot keep apart pays for the exact ones.
/// SCHED_CHECK_FAST_DEPENDENCE=1 asks the exact systems too and aborts on a
/// difference.
template <typename QueryFn> bool mayMeet(QueryFn Query) {
  if (Query(Detail::Relaxed))
    return Query(Detail::Exact);
  if (checkFastDependence() && Query(Detail::Exact))
    fastDependenceMismatch("the relaxed systems of two accesses have no point where they meet, "
                           "the exact ones may have");
  return false;
}

} // namespace

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

bool isReductionOp(BinOp Op) {
  switch (Op) {
  case BinOp::Add: case BinOp::Mul: case BinOp::Min: case BinOp::Max:
  case BinOp::BitAnd: case BinOp::BitOr: case BinOp::BitXor: case BinOp::And: case BinOp::Or:
    return true;
  default:
    return false;
  }
}

/// The terms of a chain of integer + and - (`(a - b) + c` gives a, -b, c),
/// each with whether it is subtracted; anything else is one term.
static void sumTerms(const Expr &E, bool Negated, std::vector<std::pair<Expr, bool>> &Out) {
  const auto *B = as<BinaryNode>(E);
  if (B && isInt(B->Type) && (B->Op == BinOp::Add || B->Op == BinOp::Sub)) {
    sumTerms(B->A, Negated, Out);
    sumTerms(B->B, B->Op == BinOp::Sub ? !Negated : Negated, Out);
    return;
  }
  const auto *U = as<UnaryNode>(E);
  if (U && isInt(U->Type) && U->Op == UnOp::Neg) {
    sumTerms(U->A, !Negated, Out);
    return;
  }
  Out.push_back({E, Negated});
}

bool isCommutativeUpdate(const StmtNode *S, const BufferNode *Buf, BinOp &Op) {
  if (!S || S->Kind != StmtKind::Store)
    return false;
  const auto *St = static_cast<const StoreNode *>(S);
  const BinaryNode *V = as<BinaryNode>(St->Value);
  // `X[I] = T(T'(X[I]) op e)`, as C writes `acc -= x` for a narrow or mixed
  // type (`short` promoted to int, `float` with a double e), with op one of
  // + - *: for integers the truncation to T is a ring homomorphism (exact in
  // any order); floating-point ones are reassociated like any reduction.
  bool Converted = false;
  if (const auto *C = as<CastNode>(St->Value)) {
    V = as<BinaryNode>(C->Value);
    Converted = true;
    if (V && V->Op != BinOp::Add && V->Op != BinOp::Sub && V->Op != BinOp::Mul)
      return false;
  }
  if (St->Buf.get() != Buf || !V)
    return false;
  auto IsSelf = [&](const Expr &Operand) {
    Expr E = Operand;
    if (const auto *C = as<CastNode>(E); C && Converted)
      E = C->Value;
    const auto *L = as<LoadNode>(E);
    return L && L->Buf.get() == Buf && structurallyEqual(L->Indices, St->Indices);
  };
  auto ReadsBuf = [&](const Expr &E) {
    for (const Access &A : collectAccesses(makeEvaluate(E)))
      if (A.Buf.get() == Buf)
        return true;
    return false;
  };
  Op = V->Op == BinOp::Sub ? BinOp::Add : V->Op;
  bool Commutative = isReductionOp(V->Op);
  if (IsSelf(V->A) && (Commutative || V->Op == BinOp::Sub))
    return !ReadsBuf(V->B);
  if (IsSelf(V->B) && Commutative)
    return !ReadsBuf(V->A);
  // An integer chain of + and - with the element one term of coefficient 1
  // (`(X[I] - e*2) - 1`, how Simplify leaves `X[I] + ((-1 - e) - e)`) adds
  // the other terms: exact in any grouping, as integer arithmetic wraps. Not
  // for floating point, where regrouping the chain changes its rounding.
  if ((V->Op != BinOp::Add && V->Op != BinOp::Sub) || !isInt(V->Type) || !isInt(St->Buf->Type))
    return false;
  std::vector<std::pair<Expr, bool>> Terms; // term, negated
  sumTerms(Converted ? as<CastNode>(St->Value)->Value : St->Value, false, Terms);
  int Self = 0;
  for (const auto &[Term, Negated] : Terms) {
    if (IsSelf(Term) && !Negated) {
      ++Self;
      continue;
    }
    if (ReadsBuf(Term))
      return false;
  }
  return Self == 1;
}


bool loopCarriesDependence(const ForNode *L, DependenceWitness *Why,
                           const std::set<const BufferNode *> *Only, const Stmt &Context) {
  BodyFacts Facts;
  Facts.visit(L->Body);
  if (unknownCall(Facts, Why))
    return true;
  Inside In = accessesInside(L, Context);
  const std::vector<Access> &Accesses = In.Accesses;
  for (size_t I = 0; I < Accesses.size(); ++I)
    for (size_t J = I; J < Accesses.size(); ++J) {
      const Access &A = Accesses[I], &B = Accesses[J];
      if (!mayConflict(A, B) || Facts.Allocated.count(A.Buf.get()) ||
          (Only && !Only->count(A.Buf.get())))
        continue;
      bool Meet = mayMeet([&](Detail Domain) {
        PairSystem P(A, B, /*UseTags=*/false, {}, Domain);
        std::vector<std::tuple<int, int, Relation>> Rel = outerEqual(P, A, In.Outer);
        Rel.push_back({P.loopVariable(L, 0), P.loopVariable(L, 1), Relation::Less});
        if (P.feasible(Rel))
          return true;
        std::get<2>(Rel.back()) = Relation::Greater;
        return I != J && P.feasible(Rel);
      });
      if (Meet) {
        witness(Why, A, B);
        if (Why && bothCommutativeUpdates(A, B))
          Why->Detail = "'" + A.Buf->Name + "' is reduced over '" + L->LoopVar->Name + "'";
        return true;
      }
    }
  return false;
}

bool isParallelLoop(const ForNode *L, std::string *Why, const Stmt &Context) {
  DependenceWitness W;
  if (!L || !loopCarriesDependence(L, &W, nullptr, Context))
    return L != nullptr;
  if (Why)
    *Why = W.describe();
  return false;
}

bool isParallelLoopOver(const ForNode *L, const std::set<const BufferNode *> &Only,
                        std::string *Why) {
  DependenceWitness W;
  if (!loopCarriesDependence(L, &W, &Only))
    return true;
  if (Why)
    *Why = W.describe();
  return false;
}

namespace {

/// The sign of a direction vector: the first relation that is not Equal
/// (Equal when there is none).
Relation leading(const std::vector<Relation> &Dirs) {
  for (Relation R : Dirs)
    if (R != Relation::Equal)
      return R;
  return Relation::Equal;
}

/// Enumerates the direction vectors over Vars (pairs of variables) that the
/// system admits, depth first, pruning infeasible prefixes; stops when Visit
/// returns false. Returns false when stopped.
template <typename VisitFn>
bool forEachDirection(const PairSystem &P, const std::vector<std::pair<int, int>> &Vars,
                      std::vector<std::tuple<int, int, Relation>> &Prefix, VisitFn &Visit) {
  if (Prefix.size() == Vars.size()) {
    std::vector<Relation> Dirs;
    for (const auto &Entry : Prefix)
      Dirs.push_back(std::get<2>(Entry));
    return Visit(Dirs);
  }
  auto [VA, VB] = Vars[Prefix.size()];
  for (Relation R : {Relation::Less, Relation::Equal, Relation::Greater}) {
    Prefix.push_back({VA, VB, R});
    bool Go = !P.feasible(Prefix) || forEachDirection(P, Vars, Prefix, Visit);
    Prefix.pop_back();
    if (!Go)
      return false;
  }
  return true;
}

} // namespace

bool bandPermutationIsLegal(const std::vector<const ForNode *> &Band,
                            const std::vector<size_t> &NewOrder, DependenceWitness *Why,
                            const Stmt &Context) {
  if (Band.empty())
    return true;
  BodyFacts Facts;
  Facts.visit(Band.front()->Body);
  if (unknownCall(Facts, Why))
    return false;
  Inside In = accessesInside(Band.front(), Context);
  const std::vector<Access> &Accesses = In.Accesses;
  for (size_t I = 0; I < Accesses.size(); ++I)
    for (size_t J = I; J < Accesses.size(); ++J) {
      const Access &A = Accesses[I], &B = Accesses[J];
      if (!mayConflict(A, B) || Facts.Allocated.count(A.Buf.get()) ||
          bothCommutativeUpdates(A, B))
        continue;
      for (const ForNode *L : Band) {
        bool InA = std::count(A.Loops.begin(), A.Loops.end(), L) != 0;
        bool InB = std::count(B.Loops.begin(), B.Loops.end(), L) != 0;
        if (!InA || !InB) {
          if (Why)
            *Why = DependenceWitness{"", "", "", "the loops are not perfectly nested"};
          return false;
        }
      }
      // Whether some direction vector the system admits changes sign once
      // permuted.
      bool Violated = mayMeet([&](Detail Domain) {
        PairSystem P(A, B, /*UseTags=*/false, {}, Domain);
        // The loops around the band stay at one iteration (Equal); the
        // band's directions are enumerated after them.
        std::vector<std::tuple<int, int, Relation>> Prefix = outerEqual(P, A, In.Outer);
        const size_t Outer = Prefix.size();
        std::vector<std::pair<int, int>> All;
        for (const auto &Entry : Prefix)
          All.push_back({std::get<0>(Entry), std::get<1>(Entry)});
        for (const ForNode *L : Band)
          All.push_back({P.loopVariable(L, 0), P.loopVariable(L, 1)});
        bool Reversed = false;
        auto Visit = [&](const std::vector<Relation> &Dirs) {
          std::vector<Relation> Permuted;
          for (size_t Pos = 0; Pos < NewOrder.size(); ++Pos)
            Permuted.push_back(Dirs[Outer + NewOrder[Pos]]);
          Reversed = leading(Dirs) != leading(Permuted);
          return !Reversed;
        };
        forEachDirection(P, All, Prefix, Visit);
        return Reversed;
      });
      if (Violated) {
        witness(Why, A, B);
        return false;
      }
    }
  return true;
}

namespace {

/// Every statement node in a subtree.
class StmtCollector : public IRVisitor {
public:
  std::set<const StmtNode *> Nodes;
  void collect(const Stmt &S) {
    if (!S)
      return;
    Nodes.insert(S.get());
    visit(S);
  }

protected:
  void visitFor(const ForNode *N) override { collect(N->Body); }
  void visitAllocate(const AllocateNode *N) override { collect(N->Body); }
  void visitSeq(const SeqNode *N) override {
    for (const Stmt &S : N->Stmts)
      collect(S);
  }
  void visitIfThenElse(const IfThenElseNode *N) override {
    collect(N->Then);
    collect(N->Else);
  }
  void visitLetStmt(const LetStmtNode *N) override { collect(N->Body); }
};

} // namespace

bool distributionIsLegal(const ForNode *A, const SeqNode *Seq,
                         const std::set<const BufferNode *> &Exempt, DependenceWitness *Why,
                         const Stmt &Context) {
  BodyFacts Facts;
  Facts.visit(A->Body);
  if (unknownCall(Facts, Why))
    return false;
  // Which statement of Seq each access belongs to.
  std::vector<std::set<const StmtNode *>> Members;
  for (const Stmt &S : Seq->Stmts) {
    StmtCollector C;
    C.collect(S);
    Members.push_back(std::move(C.Nodes));
  }
  Inside In = accessesInside(A, Context);
  std::vector<std::vector<const Access *>> PerStmt(Seq->Stmts.size());
  bool Classified = true;
  for (const Access &X : In.Accesses) {
    size_t K = 0;
    while (K < Members.size() && !Members[K].count(X.Statement))
      ++K;
    if (K < Members.size())
      PerStmt[K].push_back(&X);
    else
      Classified = false; // a guard between A and Seq, or lets inlined
  }
  if (!Classified) {
    // Fall back to each statement on its own, without the context.
    In = Inside();
    PerStmt.assign(Seq->Stmts.size(), {});
    std::vector<std::vector<Access>> Own;
    for (const Stmt &S : Seq->Stmts) {
      Own.push_back(collectAccesses(inlineLets(S)));
      for (Access &X : Own.back())
        X.Loops.insert(X.Loops.begin(), A);
    }
    for (size_t K = 0; K < Own.size(); ++K)
      for (Access &X : Own[K])
        In.Accesses.push_back(X);
    size_t Next = 0;
    for (size_t K = 0; K < Own.size(); ++K)
      for (size_t I = 0; I < Own[K].size(); ++I)
        PerStmt[K].push_back(&In.Accesses[Next++]);
  }
  for (size_t Later = 0; Later < PerStmt.size(); ++Later)
    for (size_t Earlier = 0; Earlier < Later; ++Earlier)
      for (const Access *X : PerStmt[Later])
        for (const Access *Y : PerStmt[Earlier]) {
          if (!mayConflict(*X, *Y) || Exempt.count(X->Buf.get()) ||
              Facts.Allocated.count(X->Buf.get()))
            continue;
          // X at an earlier iteration of A than Y: after distribution every
          // instance of Y's statement runs before X's.
          bool Backwards = mayMeet([&](Detail Domain) {
            PairSystem P(*X, *Y, /*UseTags=*/false, {}, Domain);
            std::vector<std::tuple<int, int, Relation>> Rel = outerEqual(P, *X, In.Outer);
            Rel.push_back({P.loopVariable(A, 0), P.loopVariable(A, 1), Relation::Less});
            return P.feasible(Rel);
          });
          if (Backwards) {
            witness(Why, *X, *Y);
            return false;
          }
        }
  return true;
}

namespace {

/// A question about two accesses written down exactly as PairSystem reads
/// it: every loop (its variable, bounds, kind and tag), guard and index of
/// both, with variables, buffers and loops numbered in order of first
/// appearance instead of by address. Two questions with one key build the
/// same system and get the same answer, whichever nest, pass or enclosing
/// level asks (the thread-sync planner asks a pair again at every loop
/// around it and in every round of guard sinking; PromoteToShared and
/// InjectThreadSync ask the same local hand-offs; a file of copies of one
/// nest asks everything once per copy).
class QuestionKey {
public:
  std::string Text;

  void put(int64_t V) { Text.append(reinterpret_cast<const char *>(&V), sizeof V); }
  void put(const std::string &S) {
    put(static_cast<int64_t>(S.size()));
    Text += S;
  }
  /// The number of the thing at P (a variable, buffer or loop), in order of
  /// first appearance; Fresh tells whether this is the first.
  int64_t id(const void *P, bool &Fresh) {
    auto [It, Inserted] = Ids.emplace(P, static_cast<int64_t>(Ids.size()));
    Fresh = Inserted;
    return It->second;
  }
  int64_t id(const void *P) {
    bool Fresh;
    return id(P, Fresh);
  }

  void expr(const Expr &E) {
    if (!E) {
      put(-1);
      return;
    }
    put(static_cast<int64_t>(E->Kind) << 8 | static_cast<int64_t>(E->Type));
    switch (E->Kind) {
    case ExprKind::IntImm:
      put(as<IntImmNode>(E)->Value);
      return;
    case ExprKind::FloatImm: {
      double V = as<FloatImmNode>(E)->Value;
      int64_t Bits;
      std::memcpy(&Bits, &V, sizeof Bits);
      put(Bits);
      return;
    }
    case ExprKind::Var:
      put(id(E.get()));
      return;
    case ExprKind::Binary: {
      const auto *B = as<BinaryNode>(E);
      put(static_cast<int64_t>(B->Op));
      expr(B->A);
      expr(B->B);
      return;
    }
    case ExprKind::Unary: {
      const auto *U = as<UnaryNode>(E);
      put(static_cast<int64_t>(U->Op));
      expr(U->A);
      return;
    }
    case ExprKind::Select: {
      const auto *S = as<SelectNode>(E);
      expr(S->Cond);
      expr(S->TrueValue);
      expr(S->FalseValue);
      return;
    }
    case ExprKind::Cast:
      expr(as<CastNode>(E)->Value);
      return;
    case ExprKind::Load: {
      const auto *L = as<LoadNode>(E);
      put(id(L->Buf.get()));
      exprs(L->Indices);
      return;
    }
    case ExprKind::Call: {
      const auto *C = as<CallNode>(E);
      put(C->Name);
      exprs(C->Args);
      return;
    }
    }
  }

  void exprs(const std::vector<Expr> &Es) {
    put(static_cast<int64_t>(Es.size()));
    for (const Expr &E : Es)
      expr(E);
  }

  void access(const Access &A) {
    put(id(A.Buf.get()));
    put(static_cast<int64_t>(A.IsWrite) << 1 | static_cast<int64_t>(A.ByWarp));
    put(static_cast<int64_t>(A.Loops.size()));
    for (const ForNode *L : A.Loops) {
      bool Fresh;
      put(id(L, Fresh));
      if (!Fresh)
        continue;
      put(id(L->LoopVar.get()));
      expr(L->Min);
      expr(L->Extent);
      put(static_cast<int64_t>(L->LoopKind));
      put(L->ThreadTag);
    }
    exprs(A.Guards);
    exprs(A.Indices);
  }

private:
  std::unordered_map<const void *, int64_t> Ids;
};

/// The answers to the questions of conflictAcross, remembered for the
/// process (one compile) by QuestionKey; Compute answers a new one. Under
/// SCHED_CHECK_FAST_DEPENDENCE a remembered answer is computed again and
/// must agree.
template <typename ComputeFn>
bool rememberedAnswer(const std::string &Key, ComputeFn Compute) {
  static std::mutex Lock;
  static std::unordered_map<std::string, bool> Answers;
  std::optional<bool> Known;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Answers.find(Key);
    if (It != Answers.end())
      Known = It->second;
  }
  if (Known) {
    if (checkFastDependence() && Compute() != *Known)
      fastDependenceMismatch("a remembered answer to a question about two accesses is " +
                             std::string(*Known ? "'may meet'" : "'never meet'") +
                             ", the analysis now says otherwise");
    return *Known;
  }
  bool Answer = Compute();
  std::lock_guard<std::mutex> Guard(Lock);
  if (Answers.size() > 100000)
    Answers.clear(); // bound the memory of a very long compile
  Answers.emplace(Key, Answer);
  return Answer;
}

} // namespace

namespace {

/// The tags of a question across agents: Extent's, and those of the loops
/// around A and B that Differs or Same names (extent unknown: -1).
std::map<std::string, int64_t> questionTags(const Access &A, const Access &B,
                                            const std::map<std::string, int64_t> &Extent,
                                            bool (*Differs)(const std::string &),
                                            bool (*Same)(const std::string &)) {
  std::map<std::string, int64_t> Tags = Extent;
  for (const Access *X : {&A, &B})
    for (const ForNode *L : X->Loops)
      if (L->LoopKind == ForKind::ThreadBound && (Differs(L->ThreadTag) || Same(L->ThreadTag)))
        Tags.emplace(L->ThreadTag, -1);
  return Tags;
}

/// Whether the coordinates of Tag can tell two agents apart.
bool separatesAgents(const std::pair<const std::string, int64_t> &Tag,
                     bool (*Differs)(const std::string &), const std::string &OneAgent) {
  return Differs(Tag.first) && Tag.second != 1 && Tag.first != OneAgent;
}

bool conflictAcrossUncached(const Access &A, const Access &B,
                            const std::map<std::string, int64_t> &Tags,
                            bool (*Differs)(const std::string &), bool (*Same)(const std::string &),
                            const std::string &OneAgent, const NextIteration &Carried,
                            Detail Domain);

/// Whether A and B can meet with the coordinates of some tag among Differ
/// different and those of every tag in Same equal.
bool conflictAcross(const Access &A, const Access &B, const std::map<std::string, int64_t> &Extent,
                    bool (*Differs)(const std::string &), bool (*Same)(const std::string &),
                    const std::string &OneAgent = "", const NextIteration &Carried = {}) {
  if (!mayConflict(A, B))
    return false;
  std::map<std::string, int64_t> Tags = questionTags(A, B, Extent, Differs, Same);
  // One agent only (a local buffer allocated inside the thread loops: every
  // thread extent 1): nothing to tell apart, no system to build.
  if (std::none_of(Tags.begin(), Tags.end(), [&](const auto &Tag) {
        return separatesAgents(Tag, Differs, OneAgent);
      })) {
    if (checkFastDependence() &&
        conflictAcrossUncached(A, B, Tags, Differs, Same, OneAgent, Carried, Detail::Exact))
      fastDependenceMismatch("two accesses with no tag to tell agents apart may meet");
    return false;
  }
  QuestionKey Key;
  Key.access(A);
  Key.access(B);
  Key.put(static_cast<int64_t>(Extent.size()));
  for (const auto &[Tag, N] : Extent) {
    Key.put(Tag);
    Key.put(N);
  }
  // Which tags differ and which stay the same (the two queries' functions).
  Key.put(static_cast<int64_t>(Differs == isThreadIdxTag));
  Key.put(OneAgent);
  bool Fresh = false;
  int64_t CarriedId = Carried.Loop ? Key.id(Carried.Loop, Fresh) : -1;
  Key.put(Fresh ? -1 : CarriedId); // a loop around neither access is none
  return rememberedAnswer(Key.Text, [&] {
    return mayMeet([&](Detail Domain) {
      return conflictAcrossUncached(A, B, Tags, Differs, Same, OneAgent, Carried, Domain);
    });
  });
}


bool conflictAcrossUncached(const Access &A, const Access &B,
                            const std::map<std::string, int64_t> &Tags,
                            bool (*Differs)(const std::string &), bool (*Same)(const std::string &),
                            const std::string &OneAgent, const NextIteration &Carried,
                            Detail Domain) {
  PairSystem P(A, B, /*UseTags=*/true, Tags, Domain);
  std::vector<std::tuple<int, int, Relation>> Base;
  auto Encloses = [&](const Access &X) {
    return std::find(X.Loops.begin(), X.Loops.end(), Carried.Loop) != X.Loops.end();
  };
  if (Carried.Loop && Encloses(A) && Encloses(B))
    Base.push_back({P.loopVariable(Carried.Loop, 0), P.loopVariable(Carried.Loop, 1),
                    Relation::Next});
  for (const auto &Entry : Tags)
    if (Same(Entry.first))
      Base.push_back({P.coordinate(Entry.first, 0), P.coordinate(Entry.first, 1), Relation::Equal});
  if (!P.feasible(Base))
    return false; // they never meet at all
  for (const auto &Entry : Tags) {
    if (!separatesAgents(Entry, Differs, OneAgent))
      continue;
    for (Relation R : {Relation::Less, Relation::Greater}) {
      std::vector<std::tuple<int, int, Relation>> Rel = Base;
      Rel.push_back({P.coordinate(Entry.first, 0), P.coordinate(Entry.first, 1), R});
      if (P.feasible(Rel))
        return true;
    }
  }
  return false;
}

bool neverTag(const std::string &) { return false; }

} // namespace

bool mayConflictAcrossThreads(const Access &A, const Access &B,
                              const std::map<std::string, int64_t> &BlockExtent,
                              const NextIteration &Carried) {
  if (A.Atomic && B.Atomic)
    return false; // atomic updates commute
  std::map<std::string, int64_t> Extent;
  for (const auto &Entry : BlockExtent)
    if (isThreadIdxTag(Entry.first))
      Extent.insert(Entry);
  // Two warpgroup collectives in a block of one warpgroup are one agent,
  // ordered by program order.
  if (A.ByWarpgroup && B.ByWarpgroup) {
    int64_t Threads = 1;
    for (const auto &Entry : Extent)
      Threads = Entry.second < 0 || Threads < 0 ? -1 : Threads * Entry.second;
    if (Threads >= 0 && Threads <= 128)
      return false;
  }
  // Two warp collectives of one warp (its threadIdx.x is the lane: warp
  // collectives never depend on it) are one agent, ordered by program order.
  return conflictAcross(A, B, Extent, isThreadIdxTag, isBlockTag,
                        A.ByWarp && B.ByWarp ? "threadIdx.x" : "", Carried);
}

bool mayConflictAcrossBlocks(const Access &A, const Access &B,
                             const std::map<std::string, int64_t> &GridExtent) {
  if (A.Atomic && B.Atomic)
    return false; // atomic updates commute
  std::map<std::string, int64_t> Extent;
  for (const auto &Entry : GridExtent)
    if (isBlockTag(Entry.first))
      Extent.insert(Entry);
  return conflictAcross(A, B, Extent, isBlockTag, neverTag);
}

} // namespace ir
} // namespace sched
