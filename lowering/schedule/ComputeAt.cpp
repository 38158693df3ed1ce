//===- ComputeAt.cpp - compute_at(Name, loop) ---===//
//
// Records where a cache stage is computed: its allocation and its copy move
// into loop `loop`, the copy of a read stage to the start of the body, the
// write-back of a write stage to its end:
//   for (ko, ...) { allocate As: float32[As.ext0, As.ext1] shared {
//     <As's copy loops, as scheduled so far>; <ko's body> } }
// The region stays symbolic: bound inference (passes/shared/BoundInference.cpp)
// computes it when lowering starts, from the loops and bindings around the
// allocation as they are then. So the stage's own loops may be split, fused,
// reordered or bound before or after compute_at, and the loops around it may
// be bound later. compute_at only checks what cannot change: the loop
// encloses every use of the stage and uses it.
//
//===----------------------------------------------------------------------===//

#include "ir/Bounds.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"
#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

namespace {

/// Whether S reads Buf.
bool reads(const Stmt &S, const Buffer &Buf) {
  Region Unused;
  return regionTouched(S, Buf, /*Reads=*/true, {}, Unused);
}

} // namespace

/// Body with read stage Stage (copy Copy) allocated where its copy runs
/// after the copies of the read stages computed at the same loop before it:
/// stages are copied in the order of their compute_at directives (but
/// before a stage whose copy reads this one).
static Stmt afterEarlierCopies(const ScheduleState &S, const Stmt &Body, const Buffer &Stage,
                               const Stmt &Copy) {
  const auto *Alloc = as<AllocateNode>(Body);
  const SeqNode *Seq = Alloc ? as<SeqNode>(Alloc->Body) : nullptr;
  bool EarlierStage = false;
  if (Seq && Seq->Stmts.size() == 2)
    for (const auto &[Name, Info] : S.Stages)
      EarlierStage |= !Info.IsWrite && Info.ComputedAt && Name == Alloc->Buf->Name;
  if (!EarlierStage || reads(Seq->Stmts[0], Stage))
    return makeAllocate(Stage, makeSeq({Copy, Body}));
  return makeAllocate(Alloc->Buf,
                      makeSeq({Seq->Stmts[0], afterEarlierCopies(S, Seq->Stmts[1], Stage, Copy)}));
}

bool applyComputeAt(ScheduleState &S, const Directive &D) {
  const DirectiveArg &StageArg = D.Args[0], &LoopArg = D.Args[1];
  auto It = S.Stages.find(StageArg.Text);
  if (It == S.Stages.end())
    return S.error(StageArg.Loc, "no cache stage named '" + StageArg.Text +
                                     "' (make one with cache_read or cache_write)");
  StageInfo &Info = It->second;
  if (Info.ComputedAt)
    return S.error(StageArg.Loc, "stage '" + StageArg.Text + "' is already computed at a loop");
  Buffer Stage = findBufferByName(S, Info.Name);
  const AllocateNode *Alloc = Stage ? findAllocate(S.Nest.Body, Stage.get()) : nullptr;
  const SeqNode *Seq = Alloc ? as<SeqNode>(Alloc->Body) : nullptr;
  // The copy is the statement of the allocation's sequence that fills the
  // stage (a read stage) or stores it to the tensor (a write-back), however
  // its loops have been scheduled; the rest are its consumers.
  std::vector<Stmt> Rest;
  Stmt Copy;
  unsigned Copies = 0;
  for (const Stmt &E : Seq ? Seq->Stmts : std::vector<Stmt>{}) {
    if (writesBuffer(E, Info.IsWrite ? Info.Cached.get() : Stage.get())) {
      Copy = E;
      ++Copies;
    } else {
      Rest.push_back(E);
    }
  }
  if (Copies != 1)
    return S.error(StageArg.Loc, "stage '" + StageArg.Text + "' no longer has its root form");

  Stmt Body = replaceStmt(S.Nest.Body, Alloc, makeSeq(Rest));
  S.Nest.Body = Body;
  const ForNode *Loop = findLoop(S, LoopArg);
  if (!Loop)
    return false;
  Stmt Outside = replaceStmt(Body, Loop, makeEvaluate(makeInt(0)));
  if (writesBuffer(Outside, Stage.get()) || reads(Outside, Stage))
    return S.error(LoopArg.Loc, "cannot compute '" + StageArg.Text + "' at '" + LoopArg.Text +
                                    "': it does not enclose every use of the stage");
  if (Info.IsWrite ? !writesBuffer(Loop->Body, Stage.get()) : !reads(Loop->Body, Stage))
    return S.error(LoopArg.Loc, "'" + LoopArg.Text + "' does not use stage '" + StageArg.Text + "'");

  Stmt NewBody = Info.IsWrite ? makeAllocate(Stage, makeSeq({Loop->Body, Copy}))
                              : afterEarlierCopies(S, Loop->Body, Stage, Copy);
  S.Nest.Body = replaceStmt(Body, Loop, withBody(Loop, NewBody));
  Info.ComputedAt = true;
  Info.Loc = D.Loc;
  Info.Parity = simplify((Expr(Loop->LoopVar) - Loop->Min) % makeInt(2));
  // A double_buffer given before compute_at takes effect now that the loop
  // whose iterations alternate the copies is known.
  if (Info.DoubleBuffer)
    return rebuildStage(S, Info, StageArg.Loc) && checkDoubleBufferLoop(S, Info);
  return true;
}

} // namespace schedule
} // namespace sched
