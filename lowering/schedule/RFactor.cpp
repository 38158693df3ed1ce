//===- RFactor.cpp - rfactor(k, ki, R) ------------------------------------===//
//
// TVM's rfactor: the reduction that loop k carries into one element y[I] is
// factored by loop ki (k itself, or a loop inside k): a new array R, one
// partial result per value of ki, takes the updates, and a loop over R
// reduces the partials into y[I] afterwards.
//
//   for (k) reduce { ... for (ki) { y[I] = y[I] op e } }
// becomes
//   allocate R: T[extent(ki)] local {
//     for (R.init, 0, extent(ki)) { R[R.init] = identity(op) }
//     for (k) reduce { ... for (ki) { R[ki] = R[ki] op e } }   (ki now carries no reduction)
//     for (R.r, 0, extent(ki)) reduce { y[I] = y[I] op R[R.r] } }
//
// Both halves are then scheduled like any other loops: ki, now parallel,
// may be bound to threads (each thread its own partial), and R.r, a
// reduction, bound to threads too is a cross-thread reduction
// (passes/gpu/LowerThreadReductions.cpp). Reassociating the updates is legal
// exactly when binding k to threads as a cross-thread reduction would be
// (ir/Reduction.h: commutative updates of one element that no loop from k
// inward moves, read nowhere else), one element at a time. R is local, a
// temporary of the nest: lowering makes it shared where threads exchange
// values through it.
//
//===----------------------------------------------------------------------===//

#include "ir/Printer.h"
#include "ir/Reduction.h"
#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

bool applyRFactor(ScheduleState &S, const Directive &D) {
  const DirectiveArg &KArg = D.Args[0], &KiArg = D.Args[1], &NameArg = D.Args[2];
  const ForNode *K = findLoop(S, KArg);
  const ForNode *Ki = K ? findLoop(S, KiArg) : nullptr;
  if (!K || !Ki || !checkFreshName(S, NameArg))
    return false;
  const std::string &KName = KArg.Text, &KiName = KiArg.Text, &Name = NameArg.Text;
  const std::string Refused = "cannot rfactor '" + KName + "' by '" + KiName + "': ";
  if (K->LoopKind != ForKind::Serial)
    return S.error(KArg.Loc, Refused + "'" + KName + "' is already " + describeLoopKind(K));
  if (!K->IsReduction)
    return S.error(KArg.Loc, Refused + "'" + KName + "' carries no reduction");
  if (Ki != K && !findLoopByVar(K->Body, Ki->LoopVar.get()))
    return S.error(KiArg.Loc, Refused + "'" + KiName + "' is not '" + KName + "' or inside it");
  if (Ki->LoopKind != ForKind::Serial)
    return S.error(KiArg.Loc, Refused + "'" + KiName + "' is already " + describeLoopKind(Ki));
  int64_t Extent = 0, Min = -1;
  if (!getConstInt(Ki->Extent, Extent) || !getConstInt(Ki->Min, Min) || Min != 0 || Extent < 1)
    return S.error(KiArg.Loc, Refused + "the extent of '" + KiName + "' (" + print(Ki->Extent) +
                                  ") is not a positive constant (one partial result per "
                                  "iteration: split it first)");
  std::vector<ReductionUpdate> Updates;
  std::string Why;
  if (!reductionUpdatesOf(K, Updates, &Why))
    return S.error(KArg.Loc, Refused + Why);
  if (Updates.size() != 1)
    return S.error(KArg.Loc, Refused + "it reduces into " + std::to_string(Updates.size()) +
                                 " elements ('" + Updates[0].Buf->Name + "', '" +
                                 Updates[1].Buf->Name + "'); rfactor factors one");
  const ReductionUpdate &U = Updates[0];
  Expr Identity = reductionIdentity(U.Combine, U.Buf->Type);
  if (!Identity)
    return S.error(KArg.Loc, Refused + "no identity for " + binOpSymbol(U.Combine) + " on " +
                                 dtypeName(U.Buf->Type));

  Buffer R = makeBuffer(Name, U.Buf->Type, {makeInt(Extent)}, Scope::Local);
  Var Init = makeVar(Name + ".init"), Across = makeVar(Name + ".r");
  Stmt Partials = refreshReductionFlags(redirectUpdates(borrow(K), U, R, {Ki->LoopVar}));
  const StoreNode *First = U.Stores.front();
  Stmt Total = makeFor(Across, makeInt(0), makeInt(Extent),
                       makeStoreLike(First, U.Buf, U.Indices,
                                     combineIn(U.Combine, U.Buf->Type,
                                               makeLoad(U.Buf, U.Indices),
                                               makeLoad(R, {Across}))),
                       ForKind::Serial, "", /*IsReduction=*/true);
  Stmt Factored = makeAllocate(
      R, makeSeq({makeFor(Init, makeInt(0), makeInt(Extent), makeStore(R, {Init}, Identity)),
                  Partials, Total}));
  S.Nest.Body = replaceStmt(S.Nest.Body, K, Factored);
  return true;
}

} // namespace schedule
} // namespace sched
