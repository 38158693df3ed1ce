//===- Fuse.cpp - fuse(a, b, f) ---===//
//
// Replaces a perfectly nested pair a { b { X } } by one loop f over
// extent(a)*extent(b), with a := min(a) + f / extent(b) and
// b := min(b) + f % extent(b). Fusing is how two thread dimensions become one
// (e.g. a cache stage's ax0 and ax1 bound to threadIdx.x together). Guards
// between the two loops move into the fused body; extents that may be
// negative at run time count as zero trips. Fusing never changes the order
// of the iterations, so it is always legal; the fused loop carries a
// reduction when either loop did.
//
//===----------------------------------------------------------------------===//

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
  if (usesVar(Inner->Min, OuterVar) || usesVar(Inner->Extent, OuterVar))
    return S.error(InnerArg.Loc, "cannot fuse '" + OuterArg.Text + "' and '" + InnerArg.Text +
                                     "': the bounds of '" + InnerArg.Text + "' depend on '" +
                                     OuterArg.Text + "'");

  // Fusing keeps the order of the iterations (f runs through (a, b) in
  // lexicographic order), so it is always legal.
  DType T = Outer->LoopVar->Type;
  Var Fused = makeVar(FusedArg.Text, T);
  Expr InnerExtent = Inner->Extent;
  std::map<const VarNode *, Expr> Map{
      {OuterVar, simplify(Outer->Min + Expr(Fused) / InnerExtent)},
      {Inner->LoopVar.get(), simplify(Inner->Min + Expr(Fused) % InnerExtent)}};
  Stmt Body = Inner->Body;
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
