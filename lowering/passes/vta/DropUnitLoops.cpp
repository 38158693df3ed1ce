//===- DropUnitLoops.cpp - Loops of one iteration become their body ------===//
//
// What: `for (v, m, 1) S` becomes S with v := m.
// Why: a VTA instruction has two uop loops and two DMA dimensions; a unit
// loop left in place would take one (TVM's tutorials have batch loops of
// extent 1 everywhere). Where: in the VTA pipeline after the passes that
// match regions by the loops the schedule marked (TensorizeVtaGemm,
// InjectVtaAlu, InjectVtaDma: a mark may name a unit loop, DESIGN contract
// 2), before FoldUopLoops.
//
//===----------------------------------------------------------------------===//
#include "ir/IRMutator.h"
#include "ir/Simplify.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

using namespace ir;

namespace {

class UnitLoopDropper : public IRMutator {
protected:
  Stmt mutateFor(const Stmt &S, const ForNode *N) override {
    int64_t Extent;
    if (!getConstInt(N->Extent, Extent) || Extent != 1 || N->LoopKind == ForKind::ThreadBound)
      return IRMutator::mutateFor(S, N);
    return mutate(simplify(substitute(N->Body, {{N->LoopVar.get(), N->Min}})));
  }
};

} // namespace

ir::LoopNest dropUnitLoops(const ir::LoopNest &Nest) {
  LoopNest Out = Nest;
  Out.Body = UnitLoopDropper().mutate(Nest.Body);
  return Out;
}

const Pass DropUnitLoopsPass = {
    "DropUnitLoops", /*Requires=*/FormAny, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      S.Nest = dropUnitLoops(S.Nest);
      return true;
    }};

} // namespace passes
} // namespace sched
