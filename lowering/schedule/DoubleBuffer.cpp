//===- DoubleBuffer.cpp - double_buffer(Name) ---===//
//
// A stage computed at loop ko gets two copies, [2, ...], and iteration ko
// uses copy (ko - min) % 2, in the stage and in its consumers alike. The
// stage of iteration ko+1 then writes the copy iteration ko does not read, so
// the write-after-read barrier between ko's consumers and ko+1's stage is
// no longer needed (the barrier after ko+1's stage orders ko's reads before
// ko+2's writes); whether it is dropped is up to thread-sync insertion.
//
//===----------------------------------------------------------------------===//

#include "ir/IRMutator.h"
#include "ir/Simplify.h"
#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

bool applyDoubleBuffer(ScheduleState &S, const Directive &D) {
  const DirectiveArg &StageArg = D.Args[0];
  auto It = S.Stages.find(StageArg.Text);
  if (It == S.Stages.end())
    return S.error(StageArg.Loc, "no cache stage named '" + StageArg.Text + "'");
  StageInfo &Info = It->second;
  if (!Info.ComputedAt)
    return S.error(StageArg.Loc, "double_buffer of stage '" + StageArg.Text +
                                     "' needs its compute_at first (the loop whose iterations "
                                     "alternate the two copies)");
  if (Info.DoubleBuffered)
    return S.error(StageArg.Loc, "stage '" + StageArg.Text + "' is already double-buffered");
  const ForNode *Loop = findLoop(S, DirectiveArg{Info.AttachLoop, StageArg.Loc});
  if (!Loop)
    return false;
  const AllocateNode *Alloc = findAllocate(S.Nest.Body, Info.Stage.get());
  if (!Alloc)
    return S.error(StageArg.Loc, "stage '" + StageArg.Text + "' is no longer allocated");
  std::vector<Expr> Shape{makeInt(2)};
  Shape.insert(Shape.end(), Info.Stage->Shape.begin(), Info.Stage->Shape.end());
  Buffer New = makeBuffer(Info.Stage->Name, Info.Stage->Type, Shape, Info.Stage->MemScope);
  Expr Parity = simplify((Expr(Loop->LoopVar) - Loop->Min) % makeInt(2));
  S.Nest.Body = remapBuffer(S.Nest.Body, Info.Stage.get(), New,
                            [&](const std::vector<Expr> &Indices) {
                              std::vector<Expr> Out{Parity};
                              Out.insert(Out.end(), Indices.begin(), Indices.end());
                              return Out;
                            });
  Info.Stage = New;
  Info.DoubleBuffered = true;
  return true;
}

} // namespace schedule
} // namespace sched
