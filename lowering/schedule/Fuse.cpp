//===- Fuse.cpp - fuse(a, b, f) ---===//
//
// Replaces a perfectly nested pair a { b { X } } by one loop f over
// extent(a)*extent(b), with a := min(a) + f / extent(b) and
// b := min(b) + f % extent(b). Fusing is how two thread dimensions become one
// (e.g. a cache stage's ax0 and ax1 bound to threadIdx.x together).
//
//===----------------------------------------------------------------------===//

#include "ir/IRVisitor.h"
#include "ir/IRMutator.h"
#include "ir/Simplify.h"
#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

bool applyFuse(ScheduleState &S, const Directive &D) {
  const DirectiveArg &OuterArg = D.Args[0], &InnerArg = D.Args[1], &FusedArg = D.Args[2];
  const ForNode *Outer = findLoop(S, OuterArg);
  if (!Outer)
    return false;
  const ForNode *Inner = findLoop(S, InnerArg);
  if (!Inner || !checkFreshName(S, FusedArg))
    return false;
  if (Outer->Body.get() != Inner)
    return S.error(InnerArg.Loc, "cannot fuse '" + OuterArg.Text + "' and '" + InnerArg.Text +
                                     "': '" + InnerArg.Text +
                                     "' must be the only statement directly inside '" +
                                     OuterArg.Text + "'");
  for (const auto &[L, Arg] : {std::make_pair(Outer, &OuterArg), std::make_pair(Inner, &InnerArg)})
    if (L->LoopKind != ForKind::Serial)
      return S.error(Arg->Loc, "cannot fuse '" + Arg->Text + "': it is already " +
                                   describeLoopKind(L));
  if (Outer->IsReduction != Inner->IsReduction) {
    const DirectiveArg &Red = Outer->IsReduction ? OuterArg : InnerArg;
    const DirectiveArg &Spatial = Outer->IsReduction ? InnerArg : OuterArg;
    return S.error(Red.Loc, "cannot fuse reduction loop '" + Red.Text + "' with loop '" +
                                Spatial.Text + "', which carries no reduction");
  }
  const VarNode *OuterVar = Outer->LoopVar.get();
  if (usesVar(Inner->Min, OuterVar) || usesVar(Inner->Extent, OuterVar))
    return S.error(InnerArg.Loc, "cannot fuse '" + OuterArg.Text + "' and '" + InnerArg.Text +
                                     "': the bounds of '" + InnerArg.Text + "' depend on '" +
                                     OuterArg.Text + "'");

  DType T = Outer->LoopVar->Type;
  Var Fused = makeVar(FusedArg.Text, T);
  Expr InnerExtent = Inner->Extent;
  std::map<const VarNode *, Expr> Map{
      {OuterVar, simplify(Outer->Min + Expr(Fused) / InnerExtent)},
      {Inner->LoopVar.get(), simplify(Inner->Min + Expr(Fused) % InnerExtent)}};
  Stmt Loop = makeFor(Fused, makeInt(0, T), simplify(Outer->Extent * InnerExtent),
                      substitute(Inner->Body, Map), ForKind::Serial, "", Outer->IsReduction);
  S.Nest.Body = replaceStmt(S.Nest.Body, Outer, Loop);
  return true;
}

} // namespace schedule
} // namespace sched
