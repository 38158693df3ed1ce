//===- Annotate.cpp - unroll(x), vectorize(x), pragma(x, kind), pipeline(x, stages=S) ---===//
//
// pragma(x, dma_copy|alu) (target(vta)) marks loop x: the work under it
// becomes VTA DMA transfers or ALU instructions. Only recorded (a LoopPragma
// on the nest): the VTA passes match the region once bound inference has
// made it concrete, and report a mismatch at this directive.
//
// unroll and vectorize only change a loop's kind; codegen does the work. They apply to
// serial loops only (a bound loop is not a loop in the kernel any more), and
// vectorize needs a constant extent (the vector width) and independent
// iterations: what the source tells. Whether the accesses are contiguous and
// aligned is known only once buffers are flattened and stages placed, so
// vectorize also records a LoopPragma "vectorize" at its loop argument: the
// GPU pass that decides (passes/gpu/VectorizeLoops.cpp) warns there when it
// cannot vectorize.
//
// pipeline(x, stages=S) (target(gpu)) records a LoopPragma "pipelineS" at
// loop x, a serial loop: the shared stages its steps fill become rings of S
// copies filled S-1 steps ahead by cp.async (passes/gpu/PipelineStages.cpp,
// which warns at the directive where the loop's step does not qualify).
//
//===----------------------------------------------------------------------===//

#include "ir/Access.h"
#include "ir/Dependence.h"
#include "ir/Rewrite.h"
#include "schedule/ScheduleImpl.h"
#include "targets/Target.h"

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
  S.Nest.Body = replaceStmt(S.Nest.Body, L, withKind(L, Kind, ""));
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
  // A cache stage's loop has a symbolic extent until lowering, but one that
  // bound inference makes a constant.
  if (!getConstInt(L->Extent, Extent) && !isStageSize(S, L->Extent))
    return S.error(Arg.Loc, "cannot vectorize '" + Arg.Text +
                                "': its extent is not a constant (split it first)");
  if (L->IsReduction)
    return S.error(Arg.Loc, "cannot vectorize reduction loop '" + Arg.Text + "'");
  // Independence is the computation's: a write-back inside L, its region
  // still symbolic, would look like one element written by every iteration.
  std::string Why;
  Stmt View = withoutStages(S);
  const ForNode *Seen = findLoopByVar(View, L->LoopVar.get());
  if (!isParallelLoop(Seen ? Seen : L, &Why, Seen ? View : S.Nest.Body))
    return S.error(Arg.Loc, "cannot vectorize '" + Arg.Text +
                                "': its iterations are not independent" +
                                (Why.empty() ? "" : " (" + Why + ")"));
  Var Loop = L->LoopVar; // setKind replaces (and frees) the loop L points to
  setKind(S, L, ForKind::Vectorized);
  S.Nest.Pragmas.push_back({Loop, VectorizePragma, Arg.Loc});
  return true;
}

bool applyPragma(ScheduleState &S, const Directive &D) {
  const DirectiveArg &LoopArg = D.Args[0], &KindArg = D.Args[1];
  // Each target declares the loop pragmas of its own (targets/).
  const TargetDescription *Owner = targetWithLoopPragma(KindArg.Text);
  if (!Owner)
    return S.error(KindArg.Loc, "unknown pragma '" + KindArg.Text + "'; expected " +
                                    orList(allLoopPragmas()) +
                                    didYouMean(KindArg.Text, allLoopPragmas()));
  if (Owner != findTarget(S.Nest.Target))
    return S.error(D.Loc, "pragma(" + LoopArg.Text + ", " + KindArg.Text + ") needs target(" +
                              Owner->Name + ")");
  const ForNode *L = findLoop(S, LoopArg);
  if (!L)
    return false;
  for (const LoopPragma &P : S.Nest.Pragmas)
    if (P.Loop == L->LoopVar)
      return S.error(LoopArg.Loc, "loop '" + LoopArg.Text + "' already has pragma(" + P.Kind + ")");
  S.Nest.Pragmas.push_back({L->LoopVar, KindArg.Text, D.Loc});
  return true;
}

bool applyPipeline(ScheduleState &S, const Directive &D) {
  const DirectiveArg &LoopArg = D.Args[0], &StagesArg = D.Args[1];
  if (S.Nest.Target != "gpu")
    return S.error(D.Loc, "pipeline(" + LoopArg.Text + ", " + StagesArg.Text +
                              ") needs target(gpu)");
  const ForNode *L = findSerialLoop(S, D);
  if (!L)
    return false;
  for (const LoopPragma &P : S.Nest.Pragmas)
    if (P.Loop == L->LoopVar && pipelineStages(P))
      return S.error(LoopArg.Loc, "loop '" + LoopArg.Text + "' is already pipelined");
  S.Nest.Pragmas.push_back(
      {L->LoopVar, pipelinePragma(std::stoll(StagesArg.Text.substr(std::string("stages=").size()))),
       D.Loc});
  return true;
}

} // namespace schedule
} // namespace sched
