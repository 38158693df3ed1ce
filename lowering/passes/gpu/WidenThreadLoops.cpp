//===- WidenThreadLoops.cpp - Every thread loop over its launch extent ---===//
//
// Loops bound to the same tag in different parts of the kernel (a
// shared-memory fill over 64 threads and a compute over 32) share one launch
// extent, the max of theirs (KernelContext). In CUDA every thread of the
// block runs both, so each such loop is made to run over the launch extent
// and its body is guarded by `if (v < extent)` where its own extent is
// smaller: after this pass a thread-bound loop's variable ranges over exactly
// the launched threads, which thread distribution, thread sync and codegen
// rely on (codegen then reads the variable as threadIdx/blockIdx).
// A threadIdx loop inside a loop of its own tag names the enclosing loop's
// threads again and is left for DistributeOverThreads.
//
// Runs right after ComputeLaunchGeometry, whose context it reads.
//
//===----------------------------------------------------------------------===//
#include "ir/IRMutator.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"


namespace sched {
namespace passes {

namespace {

class ThreadLoopWidener : public ir::IRMutator {
public:
  explicit ThreadLoopWidener(const KernelContext &Ctx) : Ctx(Ctx) {}

protected:
  ir::Stmt mutateFor(const ir::Stmt &S, const ir::ForNode *N) override {
    bool Opens = N->LoopKind == ir::ForKind::ThreadBound && OpenTags.insert(N->ThreadTag).second;
    ir::Stmt Body = mutate(N->Body);
    if (Opens)
      OpenTags.erase(N->ThreadTag);
    ir::Expr Launch = Opens ? Ctx.extent(N->ThreadTag) : nullptr;
    if (!Launch || provablyEqual(Launch, N->Extent)) {
      if (Body == N->Body)
        return S;
      return ir::withBody(N, Body);
    }
    ir::Stmt Guarded = ir::makeIf(ir::Expr(N->LoopVar) < N->Extent, Body);
    return ir::withBounds(N, N->Min, Launch, Guarded);
  }

private:
  const KernelContext &Ctx;
  std::set<std::string> OpenTags; // tags of the enclosing thread-bound loops
};

} // namespace

ir::LoopNest widenThreadLoops(const ir::LoopNest &Nest, const KernelContext &Ctx) {
  ir::LoopNest Out = Nest;
  Out.Body = ThreadLoopWidener(Ctx).mutate(Nest.Body);
  return Out;
}

const Pass WidenThreadLoopsPass = {
    "WidenThreadLoops", /*Requires=*/FormGeometryKnown, /*Establishes=*/FormLaunchLoopsWidened,
    [](LoweringState &S) {
      const KernelContext *Ctx = S.launchContext();
      if (!Ctx)
        return false;
      S.Nest = widenThreadLoops(S.Nest, *Ctx);
      return true;
    }};

} // namespace passes
} // namespace sched
