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
#include "IRMutator.h"
#include "IRVisitor.h"
#include "Simplify.h"

#include <algorithm>

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
  explicit IntervalEval(const VarRanges &R) : Ranges(R) {}

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
    default:
      return unbounded(); // loads and calls of ranged values
    }
  }

private:
  const VarRanges &Ranges;

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
    bool NonNeg = constOf(A.Min, Lo) && Lo >= 0;
    if (NonNeg && constOf(A.Max, Hi) && Hi < K)
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
    const auto *B = as<BinaryNode>(C);
    if (!B || !isComparison(B->Op) || B->Op == BinOp::EQ || B->Op == BinOp::NE ||
        dependsOnMemory(C))
      continue;
    // Normalize to Lhs < Rhs or Lhs <= Rhs.
    Expr Lhs = B->A, Rhs = B->B;
    bool Strict = B->Op == BinOp::LT || B->Op == BinOp::GT;
    if (B->Op == BinOp::GT || B->Op == BinOp::GE)
      std::swap(Lhs, Rhs);
    int64_t Offset;
    const int64_t Slack = Strict ? 1 : 0;
    if (getConstInt(canonicalize(makeBinary(BinOp::Sub, Lhs, Index)), Offset)) {
      // Index + Offset < Rhs: Index <= Rhs - Offset - Slack.
      Expr Limit = boundsOf(Rhs - makeInt(Offset + Slack, Rhs->Type), Ranges).Max;
      if (Limit)
        I.Max = I.Max ? simplify(makeBinary(BinOp::Min, I.Max, Limit)) : Limit;
    } else if (getConstInt(canonicalize(makeBinary(BinOp::Sub, Rhs, Index)), Offset)) {
      // Lhs < Index + Offset: Index >= Lhs - Offset + Slack.
      Expr Limit = boundsOf(Lhs - makeInt(Offset - Slack, Lhs->Type), Ranges).Min;
      if (Limit)
        I.Min = I.Min ? simplify(makeBinary(BinOp::Max, I.Min, Limit)) : Limit;
    }
  }
  return I;
}

} // namespace

Interval boundsOf(const Expr &E, const VarRanges &Ranges) {
  IntervalEval Eval(Ranges);
  Interval I = Eval.eval(canonicalize(E));
  return {simplifiedOrNull(I.Min), simplifiedOrNull(I.Max)};
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
    Region R;
    for (const Expr &Index : A.Indices)
      R.push_back(Guards == GuardUse::Tighten
                      ? tightenByGuards(boundsOf(Index, Ranges), Index, A.Guards, Ranges)
                      : boundsOf(Index, Ranges));
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

} // namespace ir
} // namespace sched
