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
// min/max become a variable bounded by both operands. A degree-two equation
// P*U + R == 0 whose rest R provably lies strictly between -P and P (a split
// into nparts of a run-time extent: bx*S + tx with tx < S) splits into
// U == 0 and R == 0. What cannot be expressed is dropped, which only adds
// points: the answers err towards "the accesses may meet".
//
//===----------------------------------------------------------------------===//

#include "Dependence.h"
#include "IRMutator.h"
#include "IRVisitor.h"
#include "IntegerSystem.h"
#include "Intrinsics.h"
#include "Printer.h"
#include "Simplify.h"

#include <algorithm>
#include <optional>

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

/// The linear expression of a polynomial of degree at most one.
LinearExpr toLinear(const Poly &P) {
  LinearExpr E;
  for (const auto &[M, C] : P) {
    if (M.empty())
      E.Constant = C;
    else
      E.Coefs[M[0]] = C;
  }
  return E;
}

//===----------------------------------------------------------------------===//
// The system of one pair of accesses
//===----------------------------------------------------------------------===//

/// How the iterations of a loop (or the coordinates of a thread tag) of the
/// two instances relate.
enum class Relation { Free, Equal, Less, Greater };

constexpr int SharedSide = 2;

class PairSystem {
public:
  /// UseTags: loops bound to threadIdx/blockIdx are tied to per-side
  /// coordinate variables of their tag (ranges from TagExtent; a thread tag
  /// in neither the map nor any loop does not exist).
  PairSystem(const Access &A, const Access &B, bool UseTags = false,
             const std::map<std::string, int64_t> &TagExtent = {})
      : UseTags(UseTags), TagExtent(TagExtent) {
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

  bool hasCoordinate(const std::string &Tag, int S) const {
    return Coordinates.count({Tag, S}) != 0;
  }

  /// Whether some point satisfies the system and, for each (VA, VB, R) in
  /// Relations, VA R VB.
  bool feasible(const std::vector<std::tuple<int, int, Relation>> &Relations) const {
    IntegerSystem Copy = Sys;
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
      }
    }
    return !Copy.provablyEmpty();
  }

private:
  const Access *Acc[2];
  bool UseTags;
  std::map<std::string, int64_t> TagExtent;
  IntegerSystem Sys;
  std::set<const VarNode *> LoopVars[2];
  std::map<std::pair<const VarNode *, int>, int> Vars;
  std::map<std::pair<std::string, int>, int> Coordinates;
  std::map<std::pair<Poly, int64_t>, std::pair<int, int>> DivAux; // (X, C) -> (q, r)
  std::map<std::tuple<int, Poly, Poly>, int> MinMaxAux;

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
    IntegerSystem Copy = Sys;
    Copy.addInequality(Ineq);
    return Copy.provablyEmpty();
  }

  /// Quotient and remainder variables of X / C (C > 0, X linear).
  std::pair<int, int> divide(const Poly &X, int64_t C) {
    auto It = DivAux.find({X, C});
    if (It != DivAux.end())
      return It->second;
    int Q = Sys.addVariable(), R = Sys.addVariable();
    LinearExpr LX = toLinear(X);
    // X == C*q + r.
    Sys.addEquality(LX - LinearExpr::variable(Q, C) - LinearExpr::variable(R));
    // C's division truncates: r has X's sign.
    int64_t Lo = -(C - 1), Hi = C - 1;
    if (provablyEmptyWith(LinearExpr::constant(-1) - LX)) // X <= -1 impossible
      Lo = 0;
    else if (provablyEmptyWith(LX - LinearExpr::constant(1))) // X >= 1 impossible
      Hi = 0;
    Sys.addRange(LinearExpr::variable(R), Lo, Hi);
    DivAux[{X, C}] = {Q, R};
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
      if (!isInt(From) || dtypeBytes(C->Type) < dtypeBytes(From))
        return std::nullopt; // narrowing may wrap
      return polyOf(C->Value, S);
    }
    case ExprKind::Unary: {
      const auto *U = as<UnaryNode>(E);
      if (U->Op != UnOp::Neg)
        return std::nullopt;
      std::optional<Poly> A = polyOf(U->A, S);
      return A ? addPoly(Poly(), *A, -1) : std::nullopt;
    }
    case ExprKind::Binary:
      return polyOfBinary(as<BinaryNode>(E), S);
    default:
      return std::nullopt; // loads, calls, selects, floats
    }
  }

  std::optional<Poly> polyOfBinary(const BinaryNode *B, int S) {
    std::optional<Poly> A = polyOf(B->A, S);
    int64_t C;
    if ((B->Op == BinOp::Div || B->Op == BinOp::Mod) && A && degree(*A) <= 1 &&
        getConstInt(B->B, C) && C > 0) {
      if (C == 1)
        return B->Op == BinOp::Div ? A : constPoly(0);
      auto [Q, R] = divide(*A, C);
      return varPoly(B->Op == BinOp::Div ? Q : R);
    }
    std::optional<Poly> Bp = polyOf(B->B, S);
    if (!A || !Bp)
      return std::nullopt;
    switch (B->Op) {
    case BinOp::Add:
      return addPoly(*A, *Bp);
    case BinOp::Sub:
      return addPoly(*A, *Bp, -1);
    case BinOp::Mul:
      return mulPoly(*A, *Bp);
    case BinOp::Min:
    case BinOp::Max: {
      if (degree(*A) > 1 || degree(*Bp) > 1)
        return std::nullopt;
      int Op = B->Op == BinOp::Min ? 0 : 1;
      auto Key = std::make_tuple(Op, *A, *Bp);
      auto It = MinMaxAux.find(Key);
      if (It != MinMaxAux.end())
        return varPoly(It->second);
      int M = Sys.addVariable();
      LinearExpr X = LinearExpr::variable(M);
      // min(a, b) <= a and <= b; max(a, b) >= a and >= b (the other half of
      // each is a disjunction, and dropping it only adds points).
      int64_t Sign = Op == 0 ? 1 : -1;
      Sys.addInequality((toLinear(*A) - X) * Sign);
      Sys.addInequality((toLinear(*Bp) - X) * Sign);
      MinMaxAux[Key] = M;
      return varPoly(M);
    }
    default:
      return std::nullopt;
    }
  }

  /// L <= R (+ Slack) as an inequality, if both sides are linear.
  void addComparison(const Expr &Lhs, const Expr &Rhs, int64_t Slack, int S) {
    std::optional<Poly> L = polyOf(Lhs, S), R = polyOf(Rhs, S);
    if (!L || !R)
      return;
    std::optional<Poly> D = addPoly(*R, *L, -1); // R - L + Slack >= 0
    if (!D || degree(*D) > 1)
      return;
    Sys.addInequality(toLinear(*D) + LinearExpr::constant(Slack));
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
  /// tag's coordinate).
  void addDomain(int S) {
    for (const ForNode *L : Acc[S]->Loops) {
      LinearExpr V = LinearExpr::variable(loopVariable(L, S));
      std::optional<Poly> Min = polyOf(L->Min, S), Ext = polyOf(L->Extent, S);
      if (Min && degree(*Min) <= 1) {
        Sys.addInequality(V - toLinear(*Min));
        if (Ext && degree(*Ext) <= 1)
          Sys.addInequality(toLinear(*Min) + toLinear(*Ext) - LinearExpr::constant(1) - V);
      }
      if (UseTags && L->LoopKind == ForKind::ThreadBound &&
          (isThreadIdxTag(L->ThreadTag) || isBlockTag(L->ThreadTag)))
        Sys.addEquality(V - LinearExpr::variable(coordinate(L->ThreadTag, S)));
    }
    for (const Expr &G : Acc[S]->Guards)
      addCondition(G, false, S);
  }

  /// X from indices [.., X / E, .., X % E, ..] with a symbolic E: the pair
  /// determines X (X == E*(X/E) + X%E), which a linear system cannot see.
  /// Recovered indices join the list, so a fuse of a fuse ([(X/W)/H,
  /// (X/W) % H, X % W]) yields X/W and then X. Keys are the positions of
  /// the pair in the growing list, the same for two accesses of one shape.
  static std::map<std::pair<size_t, size_t>, Expr> recoveredIndices(const Access &A) {
    std::map<std::pair<size_t, size_t>, Expr> Out;
    auto Match = [](const Expr &E, BinOp Op, Expr &X, Expr &Divisor) {
      const auto *B = as<BinaryNode>(E);
      if (!B || B->Op != Op)
        return false;
      X = B->A;
      Divisor = B->B;
      return true;
    };
    std::vector<Expr> Indices = A.Indices;
    for (bool Changed = true; Changed;) {
      Changed = false;
      size_t Size = Indices.size();
      for (size_t D1 = 0; D1 < Size; ++D1)
        for (size_t D2 = 0; D2 < Size; ++D2) {
          Expr X, Y, E1, E2;
          int64_t C;
          if (Out.count({D1, D2}) || !Match(Indices[D1], BinOp::Div, X, E1) ||
              !Match(Indices[D2], BinOp::Mod, Y, E2) || getConstInt(E1, C) ||
              !structurallyEqual(E1, E2) || !structurallyEqual(X, Y))
            continue;
          Out[{D1, D2}] = X;
          bool Known = std::any_of(Indices.begin(), Indices.end(),
                                   [&](const Expr &I) { return structurallyEqual(I, X); });
          if (!Known) {
            Indices.push_back(X);
            Changed = true;
          }
        }
    }
    return Out;
  }

  /// Tries P*U + R == 0 -> U == 0, R == 0 for some variable P in every
  /// degree-two term, when -P < R < P holds.
  void addNonlinearEquation(const Poly &E) {
    std::set<int> Candidates;
    bool First = true;
    for (const auto &[M, C] : E) {
      if (M.size() < 2)
        continue;
      std::set<int> Here(M.begin(), M.end());
      if (Here.size() < 2)
        return; // a square
      if (First)
        Candidates = Here;
      else
        for (auto It = Candidates.begin(); It != Candidates.end();)
          It = Here.count(*It) ? std::next(It) : Candidates.erase(It);
      First = false;
    }
    for (int P : Candidates) {
      LinearExpr U, R;
      for (const auto &[M, C] : E) {
        if (M.size() < 2)
          R += M.empty() ? LinearExpr::constant(C) : LinearExpr::variable(M[0], C);
        else
          U += LinearExpr::variable(M[0] == P ? M[1] : M[0], C);
      }
      LinearExpr PV = LinearExpr::variable(P);
      if (U.Overflow || R.Overflow)
        continue;
      if (provablyEmptyWith(R - PV) && provablyEmptyWith(LinearExpr::constant(0) - R - PV)) {
        Sys.addEquality(U);
        Sys.addEquality(R);
        return;
      }
    }
  }

  void addIndexEquations() {
    const Access &A = *Acc[0], &B = *Acc[1];
    if (A.Indices.size() != B.Indices.size())
      return; // different ranks: nothing is known about the elements
    std::vector<Poly> Nonlinear;
    auto Equate = [&](const Expr &IA, const Expr &IB) {
      std::optional<Poly> PA = polyOf(IA, 0), PB = polyOf(IB, 1);
      if (!PA || !PB)
        return;
      std::optional<Poly> D = addPoly(*PA, *PB, -1);
      if (!D)
        return;
      if (degree(*D) <= 1)
        Sys.addEquality(toLinear(*D));
      else
        Nonlinear.push_back(*D);
    };
    for (size_t D = 0; D < A.Indices.size(); ++D)
      Equate(A.Indices[D], B.Indices[D]);
    std::map<std::pair<size_t, size_t>, Expr> RA = recoveredIndices(A), RB = recoveredIndices(B);
    for (const auto &[Dims, X] : RA) {
      auto It = RB.find(Dims);
      if (It != RB.end())
        Equate(X, It->second);
    }
    for (const Poly &E : Nonlinear)
      addNonlinearEquation(E);
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

std::string describeAccess(const Access &A) {
  return print(makeLoad(A.Buf, A.Indices)) + (A.IsWrite ? " (written)" : " (read)");
}

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

/// The accesses of S as seen from Outer: each one's loops start with Outer.
std::vector<Access> accessesUnder(const ForNode *Outer, const Stmt &S) {
  std::vector<Access> Accesses = collectAccesses(S);
  for (Access &A : Accesses)
    A.Loops.insert(A.Loops.begin(), Outer);
  return Accesses;
}

/// Whether the pair can conflict at all: same buffer, one of them writing.
bool mayConflict(const Access &A, const Access &B) {
  return A.Buf.get() == B.Buf.get() && (A.IsWrite || B.IsWrite);
}

/// `X[I] = X[I] op e` with op commutative and associative (+, *, min, max;
/// also `X[I] = X[I] - e`) and e not reading X: instances of such updates
/// may run in any order.
bool isCommutativeUpdate(const StmtNode *S, const BufferNode *Buf, BinOp &Op) {
  if (!S || S->Kind != StmtKind::Store)
    return false;
  const auto *St = static_cast<const StoreNode *>(S);
  const auto *V = as<BinaryNode>(St->Value);
  if (St->Buf.get() != Buf || !V)
    return false;
  auto IsSelf = [&](const Expr &E) {
    const auto *L = as<LoadNode>(E);
    if (!L || L->Buf.get() != Buf || L->Indices.size() != St->Indices.size())
      return false;
    for (size_t D = 0; D < L->Indices.size(); ++D)
      if (!structurallyEqual(L->Indices[D], St->Indices[D]))
        return false;
    return true;
  };
  auto ReadsBuf = [&](const Expr &E) {
    for (const Access &A : collectAccesses(makeEvaluate(E)))
      if (A.Buf.get() == Buf)
        return true;
    return false;
  };
  Op = V->Op == BinOp::Sub ? BinOp::Add : V->Op;
  bool Commutative = V->Op == BinOp::Add || V->Op == BinOp::Mul || V->Op == BinOp::Min ||
                     V->Op == BinOp::Max;
  if (IsSelf(V->A) && (Commutative || V->Op == BinOp::Sub))
    return !ReadsBuf(V->B);
  if (IsSelf(V->B) && Commutative)
    return !ReadsBuf(V->A);
  return false;
}

/// Both accesses belong to commutative updates of their buffer with the
/// same operation: the order of their instances does not matter.
bool bothCommutativeUpdates(const Access &A, const Access &B) {
  BinOp OpA, OpB;
  return isCommutativeUpdate(A.Statement, A.Buf.get(), OpA) &&
         isCommutativeUpdate(B.Statement, B.Buf.get(), OpB) && OpA == OpB;
}

} // namespace

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

bool loopCarriesDependence(const ForNode *L, DependenceWitness *Why,
                           const std::set<const BufferNode *> *Only) {
  Stmt Body = inlineLets(L->Body);
  BodyFacts Facts;
  Facts.visit(Body);
  if (unknownCall(Facts, Why))
    return true;
  std::vector<Access> Accesses = accessesUnder(L, Body);
  for (size_t I = 0; I < Accesses.size(); ++I)
    for (size_t J = I; J < Accesses.size(); ++J) {
      const Access &A = Accesses[I], &B = Accesses[J];
      if (!mayConflict(A, B) || Facts.Allocated.count(A.Buf.get()) ||
          (Only && !Only->count(A.Buf.get())))
        continue;
      PairSystem P(A, B);
      int VA = P.loopVariable(L, 0), VB = P.loopVariable(L, 1);
      if (P.feasible({{VA, VB, Relation::Less}}) ||
          (I != J && P.feasible({{VA, VB, Relation::Greater}}))) {
        witness(Why, A, B);
        if (Why && bothCommutativeUpdates(A, B))
          Why->Detail = "'" + A.Buf->Name + "' is reduced over '" + L->LoopVar->Name + "'";
        return true;
      }
    }
  return false;
}

bool isParallelLoop(const ForNode *L, std::string *Why) {
  DependenceWitness W;
  if (!L || !loopCarriesDependence(L, &W))
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
                            const std::vector<size_t> &NewOrder, DependenceWitness *Why) {
  if (Band.empty())
    return true;
  Stmt Body = inlineLets(Band.front()->Body);
  BodyFacts Facts;
  Facts.visit(Body);
  if (unknownCall(Facts, Why))
    return false;
  std::vector<Access> Accesses = accessesUnder(Band.front(), Body);
  for (size_t I = 0; I < Accesses.size(); ++I)
    for (size_t J = I; J < Accesses.size(); ++J) {
      const Access &A = Accesses[I], &B = Accesses[J];
      if (!mayConflict(A, B) || Facts.Allocated.count(A.Buf.get()) ||
          bothCommutativeUpdates(A, B))
        continue;
      PairSystem P(A, B);
      std::vector<std::pair<int, int>> Vars;
      for (const ForNode *L : Band) {
        bool InA = std::count(A.Loops.begin(), A.Loops.end(), L) != 0;
        bool InB = std::count(B.Loops.begin(), B.Loops.end(), L) != 0;
        if (!InA || !InB) {
          if (Why)
            *Why = DependenceWitness{"", "", "", "the loops are not perfectly nested"};
          return false;
        }
        Vars.push_back({P.loopVariable(L, 0), P.loopVariable(L, 1)});
      }
      bool Violated = false;
      auto Visit = [&](const std::vector<Relation> &Dirs) {
        std::vector<Relation> Permuted;
        for (size_t Pos = 0; Pos < NewOrder.size(); ++Pos)
          Permuted.push_back(Dirs[NewOrder[Pos]]);
        Violated = leading(Dirs) != leading(Permuted);
        return !Violated;
      };
      std::vector<std::tuple<int, int, Relation>> Prefix;
      forEachDirection(P, Vars, Prefix, Visit);
      if (Violated) {
        witness(Why, A, B);
        return false;
      }
    }
  return true;
}

bool distributionIsLegal(const ForNode *A, const SeqNode *Seq,
                         const std::set<const BufferNode *> &Exempt, DependenceWitness *Why) {
  std::vector<std::vector<Access>> PerStmt;
  for (const Stmt &S : Seq->Stmts) {
    BodyFacts Facts;
    Facts.visit(S);
    if (unknownCall(Facts, Why))
      return false;
    PerStmt.push_back(accessesUnder(A, inlineLets(S)));
  }
  for (size_t Later = 0; Later < PerStmt.size(); ++Later)
    for (size_t Earlier = 0; Earlier < Later; ++Earlier)
      for (const Access &X : PerStmt[Later])
        for (const Access &Y : PerStmt[Earlier]) {
          if (!mayConflict(X, Y) || Exempt.count(X.Buf.get()))
            continue;
          // X at an earlier iteration of A than Y: after distribution every
          // instance of Y's statement runs before X's.
          PairSystem P(X, Y);
          if (P.feasible({{P.loopVariable(A, 0), P.loopVariable(A, 1), Relation::Less}})) {
            witness(Why, X, Y);
            return false;
          }
        }
  return true;
}

namespace {

/// Whether A and B can meet with the coordinates of some tag among Differ
/// different and those of every tag in Same equal.
bool conflictAcross(const Access &A, const Access &B, const std::map<std::string, int64_t> &Extent,
                    bool (*Differs)(const std::string &), bool (*Same)(const std::string &)) {
  if (!mayConflict(A, B))
    return false;
  std::map<std::string, int64_t> Tags = Extent;
  for (const Access *X : {&A, &B})
    for (const ForNode *L : X->Loops)
      if (L->LoopKind == ForKind::ThreadBound && (Differs(L->ThreadTag) || Same(L->ThreadTag)))
        Tags.emplace(L->ThreadTag, -1);
  PairSystem P(A, B, /*UseTags=*/true, Tags);
  std::vector<std::tuple<int, int, Relation>> Base;
  for (const auto &Entry : Tags)
    if (Same(Entry.first))
      Base.push_back({P.coordinate(Entry.first, 0), P.coordinate(Entry.first, 1), Relation::Equal});
  if (!P.feasible(Base))
    return false; // they never meet at all
  for (const auto &Entry : Tags) {
    if (!Differs(Entry.first) || Entry.second == 1)
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
                              const std::map<std::string, int64_t> &BlockExtent) {
  std::map<std::string, int64_t> Extent;
  for (const auto &Entry : BlockExtent)
    if (isThreadIdxTag(Entry.first))
      Extent.insert(Entry);
  return conflictAcross(A, B, Extent, isThreadIdxTag, isBlockTag);
}

bool mayConflictAcrossBlocks(const Access &A, const Access &B,
                             const std::map<std::string, int64_t> &GridExtent) {
  std::map<std::string, int64_t> Extent;
  for (const auto &Entry : GridExtent)
    if (isBlockTag(Entry.first))
      Extent.insert(Entry);
  return conflictAcross(A, B, Extent, isBlockTag, neverTag);
}

} // namespace ir
} // namespace sched
