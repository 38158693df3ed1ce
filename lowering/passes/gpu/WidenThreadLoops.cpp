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
// A serial loop whose bounds depend on an enclosing threadIdx loop (the
// inner loop of a triangular nest, `for (jo, 0, (io*8 + ii + 8)/8)` under
// `ii` bound to threadIdx.x) and that holds a shared stage runs the hull of
// its ranges over the block's threads, its body guarded by its own bounds:
// every thread of the block then runs the same iterations, so the block can
// fill the stage together (DistributeOverThreads sinks the guard below the
// copy; without the hull, each thread would run a different number of
// fills and barriers).
//
// Runs right after ComputeLaunchGeometry, whose context it reads.
//
//===----------------------------------------------------------------------===//
#include "ir/Bounds.h"
#include "ir/IRMutator.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"
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
    if (N->LoopKind != ir::ForKind::ThreadBound)
      if (ir::Stmt Hull = overThreadHull(N))
        return mutate(Hull);
    bool Opens = N->LoopKind == ir::ForKind::ThreadBound && OpenTags.insert(N->ThreadTag).second;
    bool ThreadIdx = Opens && isThreadIdxLoop(N);
    if (ThreadIdx)
      ThreadRanges[N->LoopVar.get()] = {
          N->Min, ir::simplify(N->Min + N->Extent - ir::makeInt(1, N->Extent->Type))};
    ir::Stmt Body = mutate(N->Body);
    if (ThreadIdx)
      ThreadRanges.erase(N->LoopVar.get());
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
  ir::VarRanges ThreadRanges;     // of the enclosing threadIdx loops' variables

  /// N over the hull of its ranges over the enclosing threadIdx loops, its
  /// body guarded by its own bounds, where its bounds depend on those loops
  /// and it holds a shared stage; null otherwise (or where the hull has no
  /// bound free of the threads: DistributeOverThreads then reports the
  /// stage it cannot give out).
  ir::Stmt overThreadHull(const ir::ForNode *N) const {
    auto OnThreads = [&](const ir::Expr &E) {
      for (const ir::VarNode *V : ir::varsOf(E))
        if (ThreadRanges.count(V))
          return true;
      return false;
    };
    if (!(OnThreads(N->Min) || OnThreads(N->Extent)) || !allocatesShared(N->Body))
      return nullptr;
    ir::Expr One = ir::makeInt(1, N->Extent->Type);
    ir::Expr Last = ir::simplify(N->Min + N->Extent - One);
    ir::Expr Lo = ir::boundsOf(N->Min, ThreadRanges).Min;
    ir::Expr Hi = ir::boundsOf(Last, ThreadRanges).Max;
    if (!Lo || !Hi || OnThreads(Lo) || OnThreads(Hi))
      return nullptr;
    ir::Expr V = N->LoopVar;
    ir::Expr Own = ir::makeBinary(ir::BinOp::And, ir::makeBinary(ir::BinOp::LE, N->Min, V),
                                  ir::makeBinary(ir::BinOp::LE, V, Last));
    Lo = ir::simplify(Lo);
    Hi = ir::simplify(Hi);
    ir::VarRanges Ranges = ThreadRanges;
    Ranges[N->LoopVar.get()] = {Lo, Hi};
    return ir::withBounds(N, Lo, ir::simplify(Hi - Lo + One),
                          ir::makeIf(ir::simplify(Own, &Ranges), N->Body));
  }
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
