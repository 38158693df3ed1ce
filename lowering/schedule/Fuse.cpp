//===- Fuse.cpp - fuse(a, b, f) ---===//
//
// Replaces a perfectly nested pair a { b { X } } by one loop f over
// extent(a)*extent(b), with a := min(a) + f / extent(b) and
// b := min(b) + f % extent(b). Fusing is how two thread dimensions become one
// (e.g. a cache stage's ax0 and ax1 bound to threadIdx.x together). Guards
// between the two loops move into the fused body; extents that may be
// negative at run time count as zero trips. An inner loop whose bounds use
// the outer variable (a triangle `j <= i`, a band) runs over the hull of its
// ranges, each pair under its own bounds. Fusing never changes the order
// of the iterations, so it is always legal; the fused loop carries a
// reduction when either loop did.
//
//===----------------------------------------------------------------------===//

#include "ir/Bounds.h"
#include "ir/IRVisitor.h"
#include "ir/IRMutator.h"
#include "ir/Simplify.h"
#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

namespace {

/// Whether E >= 0 for every value of its variables: a non-negative
/// literal, a max with one, or sums and products of such.
bool nonNegative(const Expr &E) {
  int64_t V;
  if (getConstInt(E, V))
    return V >= 0;
  const auto *B = as<BinaryNode>(E);
  if (!B)
    return false;
  switch (B->Op) {
  case BinOp::Max:
    return nonNegative(B->A) || nonNegative(B->B);
  case BinOp::Add:
  case BinOp::Mul:
  case BinOp::Min:
    return nonNegative(B->A) && nonNegative(B->B);
  default:
    return false;
  }
}

/// The extent of a loop as a trip count: a loop `for (v, m, e)` with e < 0
/// runs zero times, so a product of two extents must not let two negative
/// run-time extents make a positive count.
Expr tripCount(const Expr &Extent) {
  int64_t E;
  if (getConstInt(Extent, E))
    return makeInt(E < 0 ? 0 : E, Extent->Type);
  if (nonNegative(Extent))
    return Extent;
  return makeBinary(BinOp::Max, Extent, makeInt(0, Extent->Type));
}

} // namespace

bool applyFuse(ScheduleState &S, const Directive &D) {
  const DirectiveArg &OuterArg = D.Args[0], &InnerArg = D.Args[1], &FusedArg = D.Args[2];
  const ForNode *Outer = findLoop(S, OuterArg);
  if (!Outer)
    return false;
  const ForNode *Inner = findLoop(S, InnerArg);
  if (!Inner || !checkFreshName(S, FusedArg))
    return false;
  // Guards between the two (a non-dividing split of the outer loop leaves
  // one) do not read the inner variable: they move into the inner loop's
  // body, where they guard the same iterations.
  std::vector<Expr> Guards;
  Stmt Between = Outer->Body;
  while (const auto *If = as<IfThenElseNode>(Between)) {
    if (If->Else)
      break;
    Guards.push_back(If->Cond);
    Between = If->Then;
  }
  if (Between.get() != Inner)
    return S.error(InnerArg.Loc, "cannot fuse '" + OuterArg.Text + "' and '" + InnerArg.Text +
                                     "': '" + InnerArg.Text +
                                     "' must be the only statement directly inside '" +
                                     OuterArg.Text + "'");
  for (const auto &[L, Arg] : {std::make_pair(Outer, &OuterArg), std::make_pair(Inner, &InnerArg)})
    if (L->LoopKind != ForKind::Serial)
      return S.error(Arg->Loc, "cannot fuse '" + Arg->Text + "': it is already " +
                                   describeLoopKind(L));
  const VarNode *OuterVar = Outer->LoopVar.get();
  Expr InnerMin = Inner->Min, InnerExtent = Inner->Extent;
  Stmt Body = Inner->Body;
  if (usesVar(Inner->Min, OuterVar) || usesVar(Inner->Extent, OuterVar)) {
    // A triangular or banded inner loop: b runs over the hull of its ranges
    // over a's, each (a, b) under b's own bounds, so the fused loop visits
    // the same pairs in the same order (and as many more as the hull adds).
    Expr One = makeInt(1, Outer->Extent->Type);
    VarRanges OverOuter{{OuterVar, {Outer->Min, simplify(Outer->Min + Outer->Extent - One)}}};
    Expr InnerLast = simplify(Inner->Min + Inner->Extent - makeInt(1, Inner->Extent->Type));
    Expr Lo = boundsOf(Inner->Min, OverOuter).Min, Hi = boundsOf(InnerLast, OverOuter).Max;
    if (!Lo || !Hi || usesVar(Lo, OuterVar) || usesVar(Hi, OuterVar))
      return S.error(InnerArg.Loc, "cannot fuse '" + OuterArg.Text + "' and '" + InnerArg.Text +
                                       "': the bounds of '" + InnerArg.Text + "' depend on '" +
                                       OuterArg.Text + "', and no range of it over the range of '" +
                                       OuterArg.Text + "' is known");
    // The side of the hull a bound is (it does not use a) needs no test.
    Expr B = Inner->LoopVar, Cond;
    if (usesVar(Inner->Min, OuterVar))
      Cond = makeBinary(BinOp::GE, B, Inner->Min);
    if (usesVar(InnerLast, OuterVar)) {
      Expr Below = makeBinary(BinOp::LE, B, InnerLast);
      Cond = Cond ? makeBinary(BinOp::And, Cond, Below) : Below;
    }
    Body = makeIf(simplify(Cond), Body);
    InnerMin = simplify(Lo);
    InnerExtent = simplify(Hi - Lo + makeInt(1, Hi->Type));
  }

  // Fusing keeps the order of the iterations (f runs through (a, b) in
  // lexicographic order), so it is always legal.
  DType T = Outer->LoopVar->Type;
  Var Fused = makeVar(FusedArg.Text, T);
  std::map<const VarNode *, Expr> Map{
      {OuterVar, simplify(Outer->Min + Expr(Fused) / InnerExtent)},
      {Inner->LoopVar.get(), simplify(InnerMin + Expr(Fused) % InnerExtent)}};
  for (auto It = Guards.rbegin(); It != Guards.rend(); ++It)
    Body = makeIf(*It, Body);
  Stmt Loop = makeFor(Fused, makeInt(0, T),
                      simplify(tripCount(Outer->Extent) * tripCount(InnerExtent)),
                      substitute(Body, Map), ForKind::Serial, "",
                      Outer->IsReduction || Inner->IsReduction);
  S.Nest.Body = replaceStmt(S.Nest.Body, Outer, Loop);
  return true;
}

} // namespace schedule
} // namespace sched
