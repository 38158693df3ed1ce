//===- DoubleBuffer.cpp - double_buffer(Name) ---===//
//
// A stage computed at loop ko gets two copies, [2, ...], and iteration ko
// uses copy (ko - min) % 2, in the stage and in its consumers alike. The
// stage of iteration ko+1 then writes the copy iteration ko does not read, so
// the write-after-read barrier between ko's consumers and ko+1's stage is
// no longer needed (the barrier after ko+1's stage orders ko's reads before
// ko+2's writes); whether it is dropped is up to thread-sync insertion.
//
// The directive may come before or after the stage's compute_at (which names
// the loop): before, it takes effect at compute_at. The copies alternate
// between consecutive iterations of a loop run one after the other, so every
// loop the copy index depends on must stay serial: bound to threads (all
// iterations at once) the parity would split the threads between the two
// copies, each half racing on its own; bound to virtual threads, their copies
// would fill both halves in an order nothing keeps. (Bound to blocks it is
// harmless, if pointless: each block has its own stage and runs one
// iteration.) Where the loop is not serial the directive is dropped with a
// warning (one copy is always correct); that is checked here and again once
// the whole schedule is known (a later bind, finishStages).
//
//===----------------------------------------------------------------------===//

#include "ir/Access.h"
#include "ir/IRVisitor.h"
#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

bool checkDoubleBufferLoop(ScheduleState &S, StageInfo &Info) {
  if (!Info.DoubleBufferApplied)
    return true;
  Buffer Stage = findBufferByName(S, Info.Name);
  // The copy index as the nest has it now (a split of the attach loop
  // rewrote it in terms of the new loops).
  for (const Access &A : collectAccesses(S.Nest.Body)) {
    if (A.Buf != Stage || A.Indices.empty())
      continue;
    for (const VarNode *V : varsOf(A.Indices[0])) {
      const ForNode *L = findLoopByVar(S.Nest.Body, V);
      bool Sequential = L && (L->LoopKind == ForKind::Serial || L->LoopKind == ForKind::Unrolled ||
                              (L->LoopKind == ForKind::ThreadBound && isBlockTag(L->ThreadTag)));
      if (L && !Sequential) {
        // One copy is what the stage needs there: the directive only
        // promised fewer barriers, so it is dropped with a warning.
        S.Diags.push_back({Diag::Level::Warning, Info.DoubleBufferLoc,
                           "double_buffer(" + Info.Name + ") has no effect: its copies would "
                           "alternate with '" + L->LoopVar->Name + "', which is " +
                           describeLoopKind(L) +
                           " (the loop a double-buffered stage is computed at must be serial); "
                           "the stage keeps one copy", "sched-ignored"});
        Info.DoubleBuffer = false;
        return rebuildStage(S, Info, Info.DoubleBufferLoc);
      }
    }
    break;
  }
  return true;
}

bool applyDoubleBuffer(ScheduleState &S, const Directive &D) {
  const DirectiveArg &StageArg = D.Args[0];
  auto It = S.Stages.find(StageArg.Text);
  if (It == S.Stages.end())
    return S.error(StageArg.Loc, "no cache stage named '" + StageArg.Text + "'");
  StageInfo &Info = It->second;
  if (Info.DoubleBuffer)
    return S.error(StageArg.Loc, "stage '" + StageArg.Text + "' is already double-buffered");
  Info.DoubleBuffer = true;
  Info.DoubleBufferLoc = StageArg.Loc;
  if (!Info.ComputedAt)
    return true; // compute_at applies it
  return rebuildStage(S, Info, StageArg.Loc) && checkDoubleBufferLoop(S, Info);
}

} // namespace schedule
} // namespace sched
