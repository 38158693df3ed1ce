//===- Bounds.cpp - Interval bounds of expressions ------------------------===//
//
// Interval arithmetic over a canonicalized expression. Canonicalization
// first merges repeated occurrences of a variable (so (i*8 + j) - i*8 is j),
// which makes plain interval arithmetic exact for affine expressions;
// min/max/select/div/mod by constants get their own rules; anything else
// (loads, calls, products of unknown sign) is unbounded unless it does not
// depend on a ranged variable at all.
//
//===----------------------------------------------------------------------===//

#include "Bounds.h"
#include "Access.h"
#include "Affine.h"
#include "IRMutator.h"
#include "IRVisitor.h"
#include "Printer.h"
#include "Simplify.h"

#include <algorithm>
#include <set>

namespace sched {
namespace ir {

namespace {

Interval unbounded() { return {nullptr, nullptr}; }

bool constOf(const Expr &E, int64_t &V) { return E && isInt(E->Type) && getConstInt(E, V); }

Expr binOrNull(BinOp Op, const Expr &A, const Expr &B) {
  return A && B ? makeBinary(Op, A, B) : nullptr;
}

/// Does E mention a variable that has a range?
bool usesRanged(const Expr &E, const VarRanges &R) {
  for (const VarNode *V : varsOf(E))
    if (R.count(V))
      return true;
  return false;
}

class IntervalEval {
public:
  IntervalEval(const VarRanges &R, const NonNegativeFacts &F) : Ranges(R), Facts(F) {}

  Interval eval(const Expr &E, int Depth = 0) {
    if (!E || Depth > 64)
      return unbounded();
    if (!usesRanged(E, Ranges))
      return Interval::point(E);
    switch (E->Kind) {
    case ExprKind::Var:
      return evalVar(as<VarNode>(E), Depth);
    case ExprKind::Binary:
      return evalBinary(as<BinaryNode>(E), Depth);
    case ExprKind::Unary: {
      const auto *U = as<UnaryNode>(E);
      if (U->Op == UnOp::Not)
        return {makeBool(false), makeBool(true)};
      Interval A = eval(U->A, Depth + 1);
      return {A.Max ? makeUnary(UnOp::Neg, A.Max) : nullptr,
              A.Min ? makeUnary(UnOp::Neg, A.Min) : nullptr};
    }
    case ExprKind::Select: {
      const auto *S = as<SelectNode>(E);
      return hull(eval(S->TrueValue, Depth + 1), eval(S->FalseValue, Depth + 1));
    }
    case ExprKind::Cast:
      return evalCast(as<CastNode>(E), Depth);
    case ExprKind::IntImm:
    case ExprKind::FloatImm:
      return Interval::point(E); // (a literal uses no ranged variable: handled above)
    case ExprKind::Load:
    case ExprKind::Call:
      return unbounded(); // loads and calls of ranged values
    }
    return unbounded();
  }

private:
  const VarRanges &Ranges;
  const NonNegativeFacts &Facts;

  /// +1 when the unranged F is provably >= 0, -1 when <= 0, 0 when unknown:
  /// a constant, a sum or product of parts of known sign, or a constant
  /// away from a fact (K is K - 1 + 1 >= 1).
  int signOf(const Expr &F, int Depth = 0) const {
    int64_t K;
    if (constOf(F, K))
      return K > 0 ? 1 : K < 0 ? -1 : 0;
    for (const Expr &Fact : Facts) {
      if (constOf(canonicalize(makeBinary(BinOp::Sub, F, Fact)), K) && K >= 0)
        return 1;
      if (constOf(canonicalize(makeBinary(BinOp::Add, F, Fact)), K) && K <= 0)
        return -1;
    }
    if (Depth > 8)
      return 0;
    if (const auto *U = as<UnaryNode>(F))
      return U->Op == UnOp::Neg ? -signOf(U->A, Depth + 1) : 0;
    const auto *B = as<BinaryNode>(F);
    if (!B || !isInt(F->Type))
      return 0;
    int SA = signOf(B->A, Depth + 1), SB = signOf(B->B, Depth + 1);
    if (B->Op == BinOp::Mul)
      return SA * SB;
    if (B->Op == BinOp::Add && SA == SB)
      return SA;
    if (B->Op == BinOp::Sub && SA == -SB)
      return SA;
    return 0;
  }

  static Interval hull(const Interval &A, const Interval &B) {
    return {binOrNull(BinOp::Min, A.Min, B.Min), binOrNull(BinOp::Max, A.Max, B.Max)};
  }

  /// A range's endpoints may mention other ranged variables (an inner loop's
  /// extent depending on an outer one): relax them too.
  Interval evalVar(const VarNode *V, int Depth) {
    const Interval &R = Ranges.at(V);
    Interval Out;
    if (R.Min)
      Out.Min = usesRanged(R.Min, Ranges) ? eval(R.Min, Depth + 1).Min : R.Min;
    if (R.Max)
      Out.Max = usesRanged(R.Max, Ranges) ? eval(R.Max, Depth + 1).Max : R.Max;
    return Out;
  }

  Interval evalCast(const CastNode *C, int Depth) {
    DType From = C->Value->Type, To = C->Type;
    bool Widening = (isInt(From) && isInt(To) && dtypeBytes(To) >= dtypeBytes(From) &&
                     From != DType::UInt8) ||
                    (isInt(From) && isFloat(To)) || (isFloat(From) && isFloat(To));
    if (!Widening)
      return unbounded();
    Interval A = eval(C->Value, Depth + 1);
    return {A.Min ? makeCast(To, A.Min) : nullptr, A.Max ? makeCast(To, A.Max) : nullptr};
  }

  static Interval scale(const Interval &A, const Expr &Factor, int64_t C) {
    Interval Out = {binOrNull(BinOp::Mul, A.Min, Factor), binOrNull(BinOp::Mul, A.Max, Factor)};
    if (C < 0)
      std::swap(Out.Min, Out.Max);
    return Out;
  }

  Interval evalMul(const BinaryNode *B, const Interval &A, const Interval &C) {
    int64_t K, A0, A1, C0, C1;
    if (constOf(B->B, K))
      return scale(A, B->B, K);
    if (constOf(B->A, K))
      return scale(C, B->A, K);
    // A size times a ranged value (`(i - 1)*K`): monotone in the ranged
    // value once the size's sign is known.
    if (!usesRanged(B->B, Ranges))
      if (int Sign = signOf(B->B))
        return scale(A, B->B, Sign);
    if (!usesRanged(B->A, Ranges))
      if (int Sign = signOf(B->A))
        return scale(C, B->A, Sign);
    if (constOf(A.Min, A0) && constOf(A.Max, A1) && constOf(C.Min, C0) && constOf(C.Max, C1)) {
      int64_t P[4];
      if (__builtin_mul_overflow(A0, C0, &P[0]) || __builtin_mul_overflow(A0, C1, &P[1]) ||
          __builtin_mul_overflow(A1, C0, &P[2]) || __builtin_mul_overflow(A1, C1, &P[3]))
        return unbounded();
      return {makeInt(*std::min_element(P, P + 4), B->Type),
              makeInt(*std::max_element(P, P + 4), B->Type)};
    }
    return unbounded();
  }

  Interval evalDiv(const BinaryNode *B, const Interval &A) {
    int64_t K;
    if (!constOf(B->B, K) || K == 0)
      return unbounded();
    // Truncating division by a constant is monotone in the numerator.
    Interval Out = {binOrNull(BinOp::Div, A.Min, B->B), binOrNull(BinOp::Div, A.Max, B->B)};
    if (K < 0)
      std::swap(Out.Min, Out.Max);
    return Out;
  }

  Interval evalMod(const BinaryNode *B, const Interval &A) {
    int64_t K, Lo, Hi;
    if (!constOf(B->B, K) || K == 0 || K == INT64_MIN)
      return unbounded();
    K = K < 0 ? -K : K;
    DType T = B->Type;
    // The operand's bounds may be unfolded arithmetic of constants ((0/4)
    // for (s/4) % 4): fold them before asking whether they are constants.
    bool NonNeg = A.Min && constOf(simplify(A.Min), Lo) && Lo >= 0;
    if (NonNeg && A.Max && constOf(simplify(A.Max), Hi) && Hi < K)
      return {A.Min, A.Max};
    if (NonNeg)
      return {makeInt(0, T), makeInt(K - 1, T)};
    return {makeInt(-(K - 1), T), makeInt(K - 1, T)};
  }

  Interval evalBinary(const BinaryNode *B, int Depth) {
    if (isComparison(B->Op) || B->Op == BinOp::And || B->Op == BinOp::Or)
      return {makeBool(false), makeBool(true)};
    Interval A = eval(B->A, Depth + 1), C = eval(B->B, Depth + 1);
    switch (B->Op) {
    case BinOp::Add:
      return {binOrNull(BinOp::Add, A.Min, C.Min), binOrNull(BinOp::Add, A.Max, C.Max)};
    case BinOp::Sub:
      return {binOrNull(BinOp::Sub, A.Min, C.Max), binOrNull(BinOp::Sub, A.Max, C.Min)};
    case BinOp::Mul:
      return evalMul(B, A, C);
    case BinOp::Div:
      return evalDiv(B, A);
    case BinOp::Mod:
      return evalMod(B, A);
    case BinOp::Min:
      return {binOrNull(BinOp::Min, A.Min, C.Min),
              A.Max && C.Max ? makeBinary(BinOp::Min, A.Max, C.Max) : (A.Max ? A.Max : C.Max)};
    case BinOp::Max:
      return {A.Min && C.Min ? makeBinary(BinOp::Max, A.Min, C.Min) : (A.Min ? A.Min : C.Min),
              binOrNull(BinOp::Max, A.Max, C.Max)};
    default:
      return unbounded();
    }
  }
};

Expr simplifiedOrNull(const Expr &E) { return E ? canonicalize(E) : nullptr; }

/// Splits a guard into the conjuncts that all hold under it.
void conjuncts(const Expr &Cond, std::vector<Expr> &Out) {
  const auto *B = as<BinaryNode>(Cond);
  if (B && B->Op == BinOp::And) {
    conjuncts(B->A, Out);
    conjuncts(B->B, Out);
    return;
  }
  Out.push_back(Cond);
}

/// A guard `Lhs op Rhs` that bounds Index: Lhs - Index or Rhs - Index is a
/// constant. Out gets the comparison normalized to Lhs < Rhs or Lhs <= Rhs. A
/// guard that reads memory bounds nothing (see tightenByGuards).
struct IndexBound {
  Expr Lhs, Rhs;
  bool Strict = false;
  bool IndexOnLeft = false; // Index + Offset < Rhs (an upper bound)
  int64_t Offset = 0;
};

bool matchIndexBound(const Expr &Cond, const Expr &Index, IndexBound &Out) {
  const auto *B = as<BinaryNode>(Cond);
  if (!B || !isComparison(B->Op) || B->Op == BinOp::EQ || B->Op == BinOp::NE ||
      dependsOnMemory(Cond))
    return false;
  Out.Lhs = B->A;
  Out.Rhs = B->B;
  Out.Strict = B->Op == BinOp::LT || B->Op == BinOp::GT;
  if (B->Op == BinOp::GT || B->Op == BinOp::GE)
    std::swap(Out.Lhs, Out.Rhs);
  if (getConstInt(canonicalize(makeBinary(BinOp::Sub, Out.Lhs, Index)), Out.Offset)) {
    Out.IndexOnLeft = true;
    return true;
  }
  if (getConstInt(canonicalize(makeBinary(BinOp::Sub, Out.Rhs, Index)), Out.Offset)) {
    Out.IndexOnLeft = false;
    return true;
  }
  return false;
}

/// min(Bound, Limit) (Op Min) or max(Bound, Limit) (Op Max), Limit alone for
/// a missing Bound, and Bound unchanged where Limit is already one of its
/// terms (the ranges narrowed by a guard gave it: narrowedByGuards).
Expr tighter(BinOp Op, const Expr &Bound, const Expr &Limit) {
  if (!Bound)
    return Limit;
  for (const BinaryNode *B = as<BinaryNode>(Bound); B && B->Op == Op;
       B = as<BinaryNode>(B->A))
    if (structurallyEqual(B->B, Limit) || structurallyEqual(B->A, Limit))
      return Bound;
  if (structurallyEqual(Bound, Limit))
    return Bound;
  return simplify(makeBinary(Op, Bound, Limit));
}

/// Tightens the interval of Index by the guards of its access: a guard
/// `Index + c < X` (or <=, >, >=, either way round) bounds Index by X - c - 1
/// over Ranges. Non-dividing splits guard their accesses this way; without it
/// the region of a flat array whose delinearized shape rounds up (In[b*64+t]
/// under `b*64 + t < n`) would reach past the user's array, and the launcher
/// would copy past its end. A guard that reads memory (`if (A[0] > 0)`)
/// bounds nothing: its value is not fixed by loop variables and parameters,
/// and a region is evaluated where and when that memory is not the memory
/// the guard will read.
Interval tightenByGuards(Interval I, const Expr &Index, const std::vector<Expr> &Guards,
                         const VarRanges &Ranges) {
  std::vector<Expr> Conds;
  for (const Expr &G : Guards)
    conjuncts(G, Conds);
  for (const Expr &C : Conds) {
    IndexBound M;
    if (!matchIndexBound(C, Index, M))
      continue;
    const int64_t Slack = M.Strict ? 1 : 0;
    if (M.IndexOnLeft) {
      // Index + Offset < Rhs: Index <= Rhs - Offset - Slack.
      Expr Limit = boundsOf(M.Rhs - makeInt(M.Offset + Slack, M.Rhs->Type), Ranges).Max;
      if (Limit)
        I.Max = tighter(BinOp::Min, I.Max, Limit);
    } else {
      // Lhs < Index + Offset: Index >= Lhs - Offset + Slack.
      Expr Limit = boundsOf(M.Lhs - makeInt(M.Offset - Slack, M.Lhs->Type), Ranges).Min;
      if (Limit)
        I.Min = tighter(BinOp::Max, I.Min, Limit);
    }
  }
  // `f / 14` and `f % 14` under a guard on f (a stage the user fused and
  // split himself, `(o*12 + t) < 196`): tighten f, then divide.
  // Truncating division by a positive constant is monotone in f.
  const auto *B = as<BinaryNode>(Index);
  int64_t K;
  if (B && (B->Op == BinOp::Div || B->Op == BinOp::Mod) && getConstInt(B->B, K) && K > 0) {
    Interval Num = tightenByGuards(boundsOf(B->A, Ranges), B->A, Guards, Ranges);
    int64_t Lo, Hi;
    if (B->Op == BinOp::Div) {
      if (Num.Max) {
        Expr Limit = simplify(makeBinary(BinOp::Div, Num.Max, B->B));
        I.Max = I.Max ? simplify(makeBinary(BinOp::Min, I.Max, Limit)) : Limit;
      }
      if (Num.Min) {
        Expr Limit = simplify(makeBinary(BinOp::Div, Num.Min, B->B));
        I.Min = I.Min ? simplify(makeBinary(BinOp::Max, I.Min, Limit)) : Limit;
      }
    } else if (Num.Min && Num.Max && getConstInt(Num.Min, Lo) && getConstInt(Num.Max, Hi) &&
               Lo >= 0 && Hi < K) {
      I = {Num.Min, Num.Max};
    }
  }
  return I;
}

/// Lower bound of the number of values a ranged variable takes; false when
/// not a known constant.
bool constantCountLowerBound(const Interval &R, const VarRanges &Ranges, int64_t &Out) {
  if (!R.isBounded())
    return false;
  Interval Count = boundsOf(simplify(R.Max - R.Min + makeInt(1, R.Max->Type)), Ranges);
  return Count.Min && getConstInt(Count.Min, Out);
}

bool usesAnyOf(const Expr &E, const VarRanges &R) {
  for (const VarNode *V : varsOf(E))
    if (R.count(V))
      return true;
  return false;
}

} // namespace

namespace {

/// The ranged variable of E whose range uses other ranged variables (the
/// inner loop of a triangular or banded nest) and that no other range uses,
/// or nullptr.
const VarNode *innermostDependent(const Expr &E, const VarRanges &Ranges) {
  // In order of appearance, so that the result does not depend on where
  // the variables happen to live in memory.
  struct InOrder : IRVisitor {
    std::vector<const VarNode *> Vars;
    void visitVar(const VarNode *V) override {
      if (std::find(Vars.begin(), Vars.end(), V) == Vars.end())
        Vars.push_back(V);
    }
  } Order;
  Order.visit(E);
  for (const VarNode *V : Order.Vars) {
    auto It = Ranges.find(V);
    if (It == Ranges.end() || !(usesRanged(It->second.Min, Ranges) ||
                                usesRanged(It->second.Max, Ranges)))
      continue;
    bool UsedByOther = std::any_of(Ranges.begin(), Ranges.end(), [&](const auto &Entry) {
      return Entry.first != V && ((Entry.second.Min && usesVar(Entry.second.Min, V)) ||
                                  (Entry.second.Max && usesVar(Entry.second.Max, V)));
    });
    if (!UsedByOther)
      return V;
  }
  return nullptr;
}

/// One end of E's range (the largest value when IsMax). Where E is affine,
/// with a constant coefficient, in a variable whose range depends on other
/// ranged ones, that variable is replaced by the end of its range first, so
/// that what the two share stays correlated: j + max(0, i - 2) for j up to
/// min(n, i + 3) - max(0, i - 2) - 1 is at most min(n, i + 3) - 1, where
/// relaxing j and i on their own would add the two maxes' ranges.
Expr endOf(const Expr &E, const VarRanges &Ranges, const NonNegativeFacts &Facts, bool IsMax,
           int Depth) {
  if (Depth < 8)
    if (const VarNode *V = innermostDependent(E, Ranges)) {
      AffineForm F;
      int64_t C = 0;
      if (toAffine(E, [&](const VarNode *X) { return X == V; }, F) && F.Coefs.count(V) &&
          getConstInt(F.Coefs.at(V), C) && C != 0) {
        const Interval &R = Ranges.at(V);
        const Expr &End = (C > 0) == IsMax ? R.Max : R.Min;
        if (!End)
          return nullptr;
        Expr At = canonicalize(substitute(E, {{V, End->Type == V->Type ? End : makeCast(V->Type, End)}}));
        return endOf(At, Ranges, Facts, IsMax, Depth + 1);
      }
    }
  IntervalEval Eval(Ranges, Facts);
  Interval I = Eval.eval(E);
  return IsMax ? I.Max : I.Min;
}

} // namespace

Interval boundsOf(const Expr &E, const VarRanges &Ranges, const NonNegativeFacts &Facts) {
  Expr C = canonicalize(E);
  if (innermostDependent(C, Ranges))
    return {simplifiedOrNull(endOf(C, Ranges, Facts, false, 0)),
            simplifiedOrNull(endOf(C, Ranges, Facts, true, 0))};
  IntervalEval Eval(Ranges, Facts);
  Interval I = Eval.eval(C);
  return {simplifiedOrNull(I.Min), simplifiedOrNull(I.Max)};
}

Expr Ordering::slack() const {
  return simplify(Hi - Lo - makeInt(Strict ? 1 : 0, Hi->Type));
}

Interval loopRange(const ForNode *L) {
  return {L->Min, simplify(L->Min + L->Extent - makeInt(1, L->Min->Type))};
}

std::vector<Ordering> orderingsOf(const std::vector<Expr> &Guards) {
  std::vector<Expr> Conds;
  for (const Expr &G : Guards)
    conjuncts(G, Conds);
  std::vector<Ordering> Out;
  for (const Expr &C : Conds) {
    const auto *B = as<BinaryNode>(C);
    if (!B || !isComparison(B->Op) || B->Op == BinOp::EQ || B->Op == BinOp::NE ||
        !isInt(B->A->Type) || dependsOnMemory(C))
      continue;
    bool Swap = B->Op == BinOp::GT || B->Op == BinOp::GE;
    Out.push_back({Swap ? B->B : B->A, Swap ? B->A : B->B,
                   B->Op == BinOp::LT || B->Op == BinOp::GT});
  }
  return Out;
}

namespace {

/// Ranges narrowed by the guards that bound one ranged variable by what
/// does not vary over the ranges (`lo < 4` around the body of a thread loop
/// widened to 64 lanes, `i >= m`): where the access happens the variable
/// satisfies them. A guard that reads memory narrows nothing (see
/// tightenByGuards).
VarRanges narrowedByGuards(const std::vector<Expr> &Guards, const VarRanges &Ranges) {
  VarRanges Out = Ranges;
  for (const Ordering &O : orderingsOf(Guards)) {
    const Expr &Lo = O.Lo, &Hi = O.Hi;
    const int64_t Slack = O.Strict ? 1 : 0;
    for (bool VarIsLo : {true, false}) {
      const auto *V = as<VarNode>(VarIsLo ? Lo : Hi);
      const Expr &Other = VarIsLo ? Hi : Lo;
      auto It = V ? Out.find(V) : Out.end();
      if (It == Out.end() || usesRanged(Other, Ranges))
        continue;
      Interval &R = It->second;
      if (VarIsLo) { // V < Other: V <= Other - Slack
        Expr Limit = simplify(makeBinary(BinOp::Sub, Other, makeInt(Slack, Other->Type)));
        R.Max = tighter(BinOp::Min, R.Max, Limit);
      } else { // Other < V: V >= Other + Slack
        Expr Limit = simplify(makeBinary(BinOp::Add, Other, makeInt(Slack, Other->Type)));
        R.Min = tighter(BinOp::Max, R.Min, Limit);
      }
    }
  }
  return Out;
}

} // namespace

Region boxOf(const std::vector<Expr> &Indices, const std::vector<Expr> &Guards,
             const VarRanges &Ranges, GuardUse Use, const NonNegativeFacts &Facts) {
  Region R;
  if (Use == GuardUse::Ignore) {
    for (const Expr &Index : Indices)
      R.push_back(boundsOf(Index, Ranges, Facts));
    return R;
  }
  const VarRanges Narrowed = narrowedByGuards(Guards, Ranges);
  for (const Expr &Index : Indices)
    R.push_back(tightenByGuards(boundsOf(Index, Narrowed, Facts), Index, Guards, Narrowed));
  return R;
}

NonNegativeFacts accessFacts(const std::vector<Expr> &Guards, const VarRanges &Ranges) {
  // Each fact holds for some values in the ranges, so its largest value
  // over them is >= 0: an expression of the unranged variables alone.
  NonNegativeFacts Out;
  auto Add = [&](const Expr &NonNeg) {
    if (Expr Max = boundsOf(NonNeg, Ranges).Max)
      if (!usesRanged(Max, Ranges))
        Out.push_back(Max);
  };
  for (const auto &[V, R] : Ranges)
    if (R.isBounded())
      Add(makeBinary(BinOp::Sub, R.Max, R.Min));
  for (const Ordering &O : orderingsOf(Guards)) {
    Expr Gap = makeBinary(BinOp::Sub, O.Hi, O.Lo); // Lo < Hi: Hi - Lo - 1 >= 0
    Add(O.Strict ? makeBinary(BinOp::Sub, Gap, makeInt(1, Gap->Type)) : Gap);
  }
  return Out;
}

bool regionTouched(const Stmt &S, const Buffer &Buf, bool Reads, const VarRanges &Outer,
                   Region &Out, GuardUse Guards) {
  bool Found = false;
  Region Result;
  for (const Access &A : collectAccesses(inlineLets(S))) {
    if (A.Buf != Buf || A.IsWrite == Reads)
      continue;
    VarRanges Ranges = Outer;
    for (const ForNode *L : A.Loops)
      Ranges[L->LoopVar.get()] = {
          L->Min, canonicalize(makeBinary(BinOp::Sub, makeBinary(BinOp::Add, L->Min, L->Extent),
                                          makeInt(1, L->Min->Type)))};
    // Where the access happens its loops run and its guards hold.
    Region R = boxOf(A.Indices, A.Guards, Ranges, Guards, accessFacts(A.Guards, Ranges));
    if (!Found) {
      Result = R;
      Found = true;
      continue;
    }
    if (R.size() != Result.size())
      return false; // inconsistent ranks: the IR is malformed
    for (size_t D = 0; D < R.size(); ++D) {
      Result[D].Min = simplifiedOrNull(binOrNull(BinOp::Min, Result[D].Min, R[D].Min));
      Result[D].Max = simplifiedOrNull(binOrNull(BinOp::Max, Result[D].Max, R[D].Max));
    }
  }
  if (Found)
    Out = std::move(Result);
  return Found;
}

bool existenceCondition(const std::vector<Expr> &Conds, const VarRanges &Free,
                        std::vector<Expr> &Out) {
  // The loops run: Min <= Max, written Min < Max + 1 (`0 < K`). In the
  // order of their text: Free is ordered by node address, and the printed
  // kernel must not depend on it.
  std::vector<std::pair<std::string, Expr>> Runs;
  for (const auto &[V, R] : Free) {
    if (!R.isBounded() || usesAnyOf(R.Min, Free) || usesAnyOf(R.Max, Free))
      return false;
    Expr C = makeBinary(BinOp::LT, R.Min, simplify(R.Max + makeInt(1, R.Max->Type)));
    Runs.push_back({print(C), C});
  }
  std::sort(Runs.begin(), Runs.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  for (const auto &Run : Runs)
    Out.push_back(Run.second);
  std::set<const VarNode *> Seen;
  for (const Expr &C : Conds) {
    if (!usesAnyOf(C, Free)) {
      Out.push_back(C);
      continue;
    }
    const auto *B = as<BinaryNode>(C);
    if (!B || !isComparison(B->Op) || B->Op == BinOp::EQ || B->Op == BinOp::NE)
      return false;
    bool FreeLeft = usesAnyOf(B->A, Free);
    const Expr &Side = FreeLeft ? B->A : B->B;
    if (usesAnyOf(FreeLeft ? B->B : B->A, Free))
      return false;
    // The side is an affine sum of free variables no other condition uses:
    // its extreme over their (independent) ranges is exact.
    AffineForm F;
    if (!toAffine(Side, [&](const VarNode *V) { return Free.count(V) != 0; }, F))
      return false;
    for (const auto &[V, Coef] : F.Coefs) {
      int64_t K;
      if (!getConstInt(simplify(Coef), K) || !Seen.insert(V).second)
        return false;
    }
    // Side < Other needs the side's least value, Side > Other its greatest.
    bool WantMin = (B->Op == BinOp::LT || B->Op == BinOp::LE) == FreeLeft;
    Interval I = boundsOf(Side, Free);
    Expr Extreme = WantMin ? I.Min : I.Max;
    if (!Extreme)
      return false;
    Out.push_back(FreeLeft ? makeBinary(B->Op, Extreme, B->B) : makeBinary(B->Op, B->A, Extreme));
  }
  return true;
}

bool coversBox(const std::vector<Expr> &Indices, const std::vector<Expr> &Guards,
               const VarRanges &Ranges, const VarRanges &Context,
               std::vector<Expr> &FixedGuards) {
  VarRanges All = Context;
  for (const auto &[V, R] : Ranges)
    All[V] = R;
  std::set<const VarNode *> Used;
  for (const Expr &Index : Indices) {
    AffineForm F;
    if (!toAffine(Index, [&](const VarNode *V) { return Ranges.count(V) != 0; }, F))
      return false;
    // A dense mixed-radix sum: by increasing |coefficient|, each coefficient
    // is at most one more than what the smaller terms reach (the first is
    // 1). Each variable ranges independently of the others and takes at least
    // one value, so the values the indices take form a product of
    // per-dimension intervals.
    std::vector<std::pair<int64_t, int64_t>> Terms; // |coefficient|, count
    for (const auto &[V, Coef] : F.Coefs) {
      int64_t C, Count;
      const Interval &R = Ranges.at(V);
      if (!getConstInt(simplify(Coef), C) || !Used.insert(V).second || usesAnyOf(R.Min, Ranges) ||
          usesAnyOf(R.Max, Ranges) || !constantCountLowerBound(R, All, Count) || Count < 1)
        return false;
      // A variable of one value (a unit loop: `i*64 + ji`, i in [0, 0])
      // only offsets the index: it leaves no gap, whatever its coefficient.
      int64_t Width;
      if (getConstInt(simplify(R.Max - R.Min), Width) && Width == 0)
        continue;
      Terms.push_back({C < 0 ? -C : C, Count});
    }
    std::sort(Terms.begin(), Terms.end());
    int64_t Reach = 0;
    for (const auto &[Coef, Count] : Terms) {
      int64_t Span;
      if (Coef > Reach + 1 || __builtin_mul_overflow(Coef, Count - 1, &Span) ||
          __builtin_add_overflow(Reach, Span, &Reach))
        return false;
    }
  }
  // The variables no index uses (a reduction loop) only decide whether the
  // access happens at all: an existence condition on the fixed variables.
  VarRanges Free;
  for (const auto &[V, R] : Ranges)
    if (!Used.count(V))
      Free[V] = R;
  std::vector<Expr> Conds, OnFree;
  for (const Expr &G : Guards)
    conjuncts(G, Conds);
  for (const Expr &C : Conds) {
    // Whether such a guard holds depends on memory the computation may
    // write: it decides nothing a copy elsewhere could rely on.
    if (dependsOnMemory(C))
      return false;
    bool OnIndexVars = false;
    for (const VarNode *V : varsOf(C))
      OnIndexVars |= Used.count(V) != 0;
    if (!OnIndexVars) {
      OnFree.push_back(C);
      continue;
    }
    // A bound on one whole index by something fixed narrows that dimension
    // to a sub-interval, still dense.
    bool Narrows = false;
    for (const Expr &Index : Indices) {
      IndexBound M;
      if (matchIndexBound(C, Index, M) && !usesAnyOf(M.IndexOnLeft ? M.Rhs : M.Lhs, Ranges)) {
        Narrows = true;
        break;
      }
    }
    if (!Narrows)
      return false;
  }
  std::vector<Expr> Exists;
  if (!existenceCondition(OnFree, Free, Exists))
    return false;
  for (const Expr &C : Exists) {
    int64_t V;
    // A free loop whose bounds use an index variable (the triangular
    // `k < min(6, j + 1)`) runs or not depending on the index: the box is
    // covered only if it runs for every value of the index's variables. The
    // fixed guards are tested where the index variables are not defined.
    if (usesAnyOf(C, Ranges)) {
      Expr S = simplify(C, &All);
      if (!(getConstInt(S, V) && V))
        return false;
      continue;
    }
    Expr S = simplify(C, &Context);
    if (!(getConstInt(S, V) && V))
      FixedGuards.push_back(S);
  }
  return true;
}

namespace {

constexpr size_t MaxArms = 16;

/// minMaxArms with a budget: the arms' count multiplies through sums.
std::vector<Expr> armsOf(const Expr &E, BinOp Op) {
  const auto *B = as<BinaryNode>(E);
  if (!B || !isInt(E->Type))
    return {E};
  BinOp Other = Op == BinOp::Min ? BinOp::Max : BinOp::Min;
  std::vector<Expr> Out;
  auto Combine = [&](const std::vector<Expr> &X, const std::vector<Expr> &Y, BinOp Join) {
    if (X.size() * Y.size() > MaxArms)
      return std::vector<Expr>{E};
    std::vector<Expr> R;
    for (const Expr &A : X)
      for (const Expr &C : Y)
        R.push_back(simplify(makeBinary(Join, A, C)));
    return R;
  };
  int64_t K;
  if (B->Op == Op) {
    Out = armsOf(B->A, Op);
    std::vector<Expr> More = armsOf(B->B, Op);
    Out.insert(Out.end(), More.begin(), More.end());
    return Out.size() > MaxArms ? std::vector<Expr>{E} : Out;
  }
  if (B->Op == BinOp::Add)
    return Combine(armsOf(B->A, Op), armsOf(B->B, Op), BinOp::Add);
  if (B->Op == BinOp::Sub) // min(a) - max(b)
    return Combine(armsOf(B->A, Op), armsOf(B->B, Other), BinOp::Sub);
  if (B->Op == BinOp::Mul && getConstInt(B->B, K) && K > 0)
    return Combine(armsOf(B->A, Op), {B->B}, BinOp::Mul);
  return {E};
}

bool lessEq(const Expr &A, const Expr &B, const VarRanges &Ranges, int Depth) {
  if (Depth > 8)
    return false;
  std::vector<Expr> Arms = armsOf(B, BinOp::Min);
  if (Arms.size() > 1) // A <= min(b...) iff A <= each
    return std::all_of(Arms.begin(), Arms.end(),
                       [&](const Expr &Arm) { return lessEq(A, Arm, Ranges, Depth + 1); });
  Arms = armsOf(A, BinOp::Max);
  if (Arms.size() > 1) // max(a...) <= B iff each <= B
    return std::all_of(Arms.begin(), Arms.end(),
                       [&](const Expr &Arm) { return lessEq(Arm, B, Ranges, Depth + 1); });
  Arms = armsOf(A, BinOp::Min);
  if (Arms.size() > 1) // min(a...) <= B if one is
    return std::any_of(Arms.begin(), Arms.end(),
                       [&](const Expr &Arm) { return lessEq(Arm, B, Ranges, Depth + 1); });
  Arms = armsOf(B, BinOp::Max);
  if (Arms.size() > 1) // A <= max(b...) if A <= one
    return std::any_of(Arms.begin(), Arms.end(),
                       [&](const Expr &Arm) { return lessEq(A, Arm, Ranges, Depth + 1); });
  if (structurallyEqual(simplify(A), simplify(B)))
    return true;
  Expr Diff = boundsOf(simplify(makeBinary(BinOp::Sub, B, A)), Ranges).Min;
  int64_t D;
  return Diff && getConstInt(Diff, D) && D >= 0;
}

} // namespace

std::vector<Expr> minMaxArms(const Expr &E, BinOp Arms) { return armsOf(simplify(E), Arms); }

bool writesBuffer(const Stmt &S, const BufferNode *Buf) {
  for (const Access &A : collectAccesses(S))
    if (A.IsWrite && A.Buf.get() == Buf)
      return true;
  return false;
}

std::vector<Expr> conjunctsOf(const Expr &Cond) {
  std::vector<Expr> Out;
  conjuncts(Cond, Out);
  return Out;
}

bool constantUpperBound(const Expr &E, const VarRanges &Ranges, int64_t &Out) {
  bool Found = false;
  for (const Expr &Arm : minMaxArms(E, BinOp::Min)) {
    Expr Max = boundsOf(Arm, Ranges).Max;
    int64_t V;
    if (Max && getConstInt(simplify(Max), V) && (!Found || V < Out)) {
      Out = V;
      Found = true;
    }
  }
  return Found;
}

bool provablyLessEq(const Expr &A, const Expr &B, const VarRanges &Ranges) {
  return lessEq(A, B, Ranges, 0);
}

bool loadsFrom(const Expr &E, const std::set<const BufferNode *> &Bufs) {
  struct Finder : IRVisitor {
    const std::set<const BufferNode *> &Bufs;
    bool Found = false;
    explicit Finder(const std::set<const BufferNode *> &B) : Bufs(B) {}
    void visitLoad(const LoadNode *N) override {
      Found |= Bufs.count(N->Buf.get()) != 0;
      IRVisitor::visitLoad(N);
    }
  } F(Bufs);
  F.visit(E);
  return F.Found;
}

} // namespace ir
} // namespace sched
