//===- Passes.h - The lowering passes, one per file ------------*- C++ -*-===//
//
// Every pass Pipeline.cpp runs, in the order it runs them. Transformations
// take a nest and return the rewritten nest; checks and analyses report
// problems as Diags (Level::Error stops the pipeline) and fill in what the
// launcher needs (geometry, regions). Each pass's file says what it does and
// why it sits where it does in the pipeline.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PASSES_PASSES_H
#define SCHED_PASSES_PASSES_H

#include "Pipeline.h"
#include "ir/IR.h"
#include "schedule/Schedule.h"
#include <vector>

namespace sched {
namespace passes {

/// Every For starts at 0: `for (v, m, e)` becomes `for (v', 0, e)` with
/// v := v' + m in its body.
ir::LoopNest normalizeLoops(const ir::LoopNest &Nest);

/// Replaces the region placeholders of every cache stage (Nest.Stages) by the
/// region inferred where its allocation stands, guards its copies, and makes
/// write-backs store exactly what the computation writes; an error names the
/// stage whose region has no constant size or cannot be written back.
ir::LoopNest inferBounds(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// Checks thread bindings (known tags, no tag twice on a nesting path, no
/// block loop inside a thread loop) and widens every loop bound to a tag to the tag's launch extent (the max
/// over all loops bound to it) behind a guard `if (v < extent)`.
ir::LoopNest verifyThreadBindings(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// Removes every vthread/cthread loop: statements that do not depend on its
/// variable are kept once, dependent ones become one copy per virtual thread
/// pushed innermost, and allocations they touch get a leading dimension of
/// the virtual-thread count.
ir::LoopNest injectVirtualThread(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// Cooperative fetch: shared-memory writes inside threadIdx loops that do
/// not depend on the thread are given to the block's threads (a parallel
/// serial nest is fused and distributed over all of them; a loop bound to an
/// enclosing loop's tag reuses its threads; other stores go to thread 0).
ir::LoopNest distributeOverThreads(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// Grid and block extents from the thread-bound loops (1 where unused). An
/// extent that is not an expression over scalar parameters is an error.
bool computeLaunchGeometry(const ir::LoopNest &Nest, LaunchGeometry &Out,
                           std::vector<Diag> &Diags);

/// ir::simplify over the whole kernel body.
ir::LoopNest simplifyNest(const ir::LoopNest &Nest);

/// Inserts sched.syncthreads wherever two threads of a block may touch the
/// same shared element (one writing) with no barrier between them, in a
/// sequence or across loop iterations; a dependence that would need a barrier
/// under thread-divergent control flow is an error.
ir::LoopNest injectThreadSync(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// Multi-dimensional buffers (parameters and allocations) become
/// one-dimensional, indexed row-major.
ir::LoopNest storageFlatten(const ir::LoopNest &Nest);

/// For each buffer parameter: the elements [0, Extent) the kernel may touch,
/// and whether it reads and/or writes them.
std::vector<BufferRegion> computeBufferRegions(const ir::LoopNest &Nest);

/// Well-formedness of the lowered kernel: variables and buffers defined
/// where used, allocations of constant size, thread-bound loops agreeing
/// with the launch geometry.
bool verifyKernel(const ir::LoopNest &Nest, const LaunchGeometry &Geometry,
                  std::vector<Diag> &Diags);

} // namespace passes
} // namespace sched

#endif
