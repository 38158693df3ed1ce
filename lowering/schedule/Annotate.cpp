//===- Annotate.cpp - unroll(x), vectorize(x) ---===//
//
// Both only change a loop's kind; codegen does the work. They apply to
// serial loops only (a bound loop is not a loop in the kernel any more), and
// vectorize needs a constant extent (the vector width) and independent
// iterations.
//
//===----------------------------------------------------------------------===//

#include "ir/Access.h"
#include "ir/Dependence.h"
#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

namespace {

const ForNode *findSerialLoop(ScheduleState &S, const Directive &D) {
  const DirectiveArg &Arg = D.Args[0];
  const ForNode *L = findLoop(S, Arg);
  if (L && L->LoopKind != ForKind::Serial) {
    S.error(Arg.Loc, "cannot " + D.Name + " '" + Arg.Text + "': it is already " +
                         describeLoopKind(L));
    return nullptr;
  }
  return L;
}

void setKind(ScheduleState &S, const ForNode *L, ForKind Kind) {
  S.Nest.Body = replaceStmt(S.Nest.Body, L,
                            makeFor(L->LoopVar, L->Min, L->Extent, L->Body, Kind, "",
                                    L->IsReduction));
}

} // namespace

bool applyUnroll(ScheduleState &S, const Directive &D) {
  const ForNode *L = findSerialLoop(S, D);
  if (!L)
    return false;
  setKind(S, L, ForKind::Unrolled);
  return true;
}

bool applyVectorize(ScheduleState &S, const Directive &D) {
  const ForNode *L = findSerialLoop(S, D);
  if (!L)
    return false;
  const DirectiveArg &Arg = D.Args[0];
  int64_t Extent = 0;
  if (!getConstInt(L->Extent, Extent))
    return S.error(Arg.Loc, "cannot vectorize '" + Arg.Text +
                                "': its extent is not a constant (split it first)");
  if (L->IsReduction)
    return S.error(Arg.Loc, "cannot vectorize reduction loop '" + Arg.Text + "'");
  std::string Why;
  if (!isParallelLoop(L, &Why))
    return S.error(Arg.Loc, "cannot vectorize '" + Arg.Text +
                                "': its iterations are not independent" +
                                (Why.empty() ? "" : " (" + Why + ")"));
  setKind(S, L, ForKind::Vectorized);
  return true;
}

} // namespace schedule
} // namespace sched
