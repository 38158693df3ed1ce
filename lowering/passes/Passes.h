//===- Passes.h - The lowering passes, one per file ------------*- C++ -*-===//
//
// Every built-in pass, grouped as its folder is by where it applies (shared/,
// gpu/, vta/), in pipeline order within each group. Each has its registered
// Pass (Pass.h: name, required and established form, one entry taking the
// LoweringState), defined at the end of its file, and the function that does
// the work, declared here for the tests that call it directly.
// Transformations take a nest and return the rewritten nest; checks and
// analyses report problems as Diags (Level::Error stops the pipeline) and
// fill in what the launcher needs (geometry, regions). Each pass's file says
// what it does and why it sits where it does in its target's pipeline
// (targets/GPU.cpp, targets/VTA.cpp).
//
// The launch is described once, by ComputeLaunchGeometry, in a KernelContext
// that every later pass reads (never recomputing extents from the loops).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PASSES_PASSES_H
#define SCHED_PASSES_PASSES_H

#include "passes/Pass.h"
#include <string>
#include <vector>

namespace sched {
namespace passes {

//===----------------------------------------------------------------------===//
// shared/: passes every target runs.
//===----------------------------------------------------------------------===//

extern const Pass NormalizeLoopsPass, BoundInferencePass, SimplifyPass;

/// Every For starts at 0: `for (v, m, e)` becomes `for (v', 0, e)` with
/// v := v' + m in its body.
ir::LoopNest normalizeLoops(const ir::LoopNest &Nest);

/// Replaces the region placeholders of every cache stage (Nest.Stages) by the
/// region inferred where its allocation stands, guards its copies, and makes
/// write-backs store exactly what the computation writes; an error names the
/// stage whose region has no constant size or cannot be written back.
ir::LoopNest inferBounds(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// ir::simplify over the whole kernel body.
ir::LoopNest simplifyNest(const ir::LoopNest &Nest);

//===----------------------------------------------------------------------===//
// gpu/: target(gpu), a CUDA kernel.
//===----------------------------------------------------------------------===//

extern const Pass LowerThreadReductionsPass, AutoTensorCorePass, TensorizeWmmaPass, VerifyThreadBindingsPass,
    InjectVirtualThreadPass, ComputeLaunchGeometryPass, WidenThreadLoopsPass, PromoteToSharedPass,
    DistributeOverThreadsPass, InjectThreadSyncPass, PrefetchDoubleBuffersPass, PipelineStagesPass,
    LayoutSharedStagesPass, StorageFlattenPass,
    ComputeBufferRegionsPass, PartitionLoopsPass, VectorizeLoopsPass, UnrollSmallLoopsPass,
    VerifyKernelPass;

/// Software-pipelines each step of a loop a stage is double-buffered over:
/// the first tile filled before the loop, each step loading the next tile
/// into registers before its computation and storing them into the other
/// copy after it (one barrier per step).
ir::LoopNest prefetchDoubleBuffers(const ir::LoopNest &Nest);

/// Fills the shared stages of a k-tile loop S-1 steps ahead through a ring
/// of S copies with cp.async, one barrier per step (sm_80+; loops marked
/// pipeline(x, stages=S), and tensor-core stages under tensorcore(auto)).
ir::LoopNest pipelineStages(const ir::LoopNest &Nest, int ArchNumber, std::vector<Diag> &Diags);

/// Lays each shared stage out for its readers: the dimension a thread's
/// innermost serial loop walks in every read becomes the innermost one
/// (As[row][k] becomes As[k][row]), padded to the 16-byte pitch whose
/// stores conflict least on the banks.
ir::LoopNest layoutSharedStages(const ir::LoopNest &Nest, const KernelContext &Ctx);

/// Gives full tiles code without the guards only edge tiles need: per block
/// (`if (the block is full) <unguarded> else <guarded>`) and per serial loop
/// of run-time extent (the iterations where its guards hold, then the rest).
ir::LoopNest partitionLoops(const ir::LoopNest &Nest);

/// Marks `unroll` every serial loop of constant extent whose subtree is
/// loops of constant extent, small enough unrolled, without barriers or
/// allocations: a thread's register tile.
ir::LoopNest unrollSmallLoops(const ir::LoopNest &Nest);

/// Keeps each vectorized loop that can run as CUDA vector accesses
/// (ir::planVectorLoop) and unrolls the others, with a warning in Diags at
/// their vectorize directive; drops the nest's vectorize marks.
ir::LoopNest vectorizeLoops(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// tensorcore(auto): turns the per-thread multiply-add of a nest scheduled as
/// an ordinary CUDA kernel into warp-wide wmma operations where it
/// qualifies; a remark at the directive says what it became or why not.
/// ArchNumber: the target's compute capability (80 for sm_80; 0 unknown):
/// on 80 and newer the mma.sync family where it fits.
ir::LoopNest autoTensorCore(const ir::LoopNest &Nest, std::vector<Diag> &Diags, TargetArch Arch);

/// Replaces the regions marked tensorize(x, wmma.*) by wmma intrinsic calls,
/// the accumulator's initialisation by fills, and reshapes every fragment
/// buffer to [tiles..., rows, cols]; an error at the directive names the
/// loop or access that does not match.
ir::LoopNest tensorizeWmma(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// Checks thread bindings: known tags, no tag twice on a nesting path (but
/// for a threadIdx loop that names its enclosing loop's threads again), no
/// block loop inside a thread loop. Returns false (with errors) when one is
/// wrong.
bool verifyThreadBindings(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// Removes every vthread/cthread loop: statements that do not depend on its
/// variable are kept once, dependent ones become one copy per virtual thread
/// pushed innermost, and allocations they touch get a leading dimension of
/// the virtual-thread count.
ir::LoopNest injectVirtualThread(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// The kernel context: grid and block extents from the thread-bound loops
/// (the max over the loops of a tag; 1 where unused; virtual-thread loops
/// are none). An extent that is not an expression over scalar parameters is
/// an error.
bool computeLaunchGeometry(const ir::LoopNest &Nest, KernelContext &Out,
                           std::vector<Diag> &Diags);

/// Whether warp shuffles among aligned groups of Width lanes along
/// threadIdx.x stay within one row of x, in whole warps: an x extent that
/// is a multiple of 32, or a power of two of at least Width in a block of a
/// whole number of warps (the rule computeLaunchGeometry checks and
/// LowerThreadReductions chooses shuffles by).
bool shuffleGroupsStayInRows(const LaunchGeometry &Geometry, int64_t Width);

/// Every loop bound to a tag (but one that names an enclosing loop's threads
/// again) runs over the tag's launch extent, behind `if (v < extent)` where
/// its own extent is smaller.
ir::LoopNest widenThreadLoops(const ir::LoopNest &Nest, const KernelContext &Ctx);

/// Makes shared (one array per block) every local allocation some thread
/// reads an element of that another thread of the block wrote, as the C++
/// declaring it outside the thread loops means; declared inside threadIdx
/// loops, it gets one slice per thread of those. An error names an array
/// that cannot be: declared outside a block loop, or not of constant size.
ir::LoopNest promoteToShared(const ir::LoopNest &Nest, const KernelContext &Ctx,
                             std::vector<Diag> &Diags);

/// Makes every statement run on the threads the nest says it runs on:
/// code that writes global or shared memory outside some thread dimension of
/// the block (which CUDA would run on every thread of that dimension) is
/// distributed over the block's threads (a parallel nest: cooperative fetch)
/// or guarded to thread 0; a loop bound to an enclosing loop's tag names the
/// same threads; a thread-divergent guard is sunk below a cache stage the
/// block's threads fill together, and below the fills of the local buffers
/// the stage reads.
ir::LoopNest distributeOverThreads(const ir::LoopNest &Nest, const KernelContext &Ctx,
                                   std::vector<Diag> &Diags);

/// Inserts sched.syncthreads wherever two threads of a block may touch the
/// same element of a buffer they share (shared or global memory; one
/// writing) with no barrier between them, in a sequence or across loop
/// iterations. A dependence that would need a barrier under thread-divergent
/// control flow, between threads on a local buffer, or between blocks is an
/// error naming the buffer.
ir::LoopNest injectThreadSync(const ir::LoopNest &Nest, const KernelContext &Ctx,
                              std::vector<Diag> &Diags);

/// Multi-dimensional buffers (parameters and allocations) become
/// one-dimensional, indexed row-major.
ir::LoopNest storageFlatten(const ir::LoopNest &Nest);

/// For each buffer parameter: the elements [0, Extent) the kernel may touch,
/// and whether it reads and/or writes them.
std::vector<BufferRegion> computeBufferRegions(const ir::LoopNest &Nest);

/// Well-formedness of the kernel in the given form: variables and buffers
/// defined where used, accesses with one index per dimension, and whatever
/// Form says holds (thread-bound loops agreeing with the launch, barriers at
/// uniform points, flat buffers, allocations of constant size). Errors start
/// with "malformed kernel".
bool verifyKernel(const ir::LoopNest &Nest, const KernelContext &Ctx, unsigned Form,
                  std::vector<Diag> &Diags);

//===----------------------------------------------------------------------===//
// vta/: target(vta), a program of VTA runtime calls; ir/Vta.h describes its
// forms.
//===----------------------------------------------------------------------===//

extern const Pass GuardedUpdatesAsSelectsPass, PadVtaStagesPass, TensorizeVtaGemmPass, InjectVtaAluPass, InjectVtaDmaPass, DropUnitLoopsPass,
    FoldUopLoopsPass, InjectCoprocSyncPass, InjectVtaContextsPass, VtaStorageFlattenPass,
    CombineUopSignaturesPass, VerifyVtaProgramPass;

/// `if (c) A = A + X*Y` (integers) becomes `A = A + select(c, X*Y, 0)`, so
/// that bound inference sizes the stages X and Y read by the whole window.
ir::LoopNest guardedUpdatesAsSelects(const ir::LoopNest &Nest);

/// A guarded copy-in of a VTA stage under dma_copy holds zeros where its
/// guard fails (`S[i] = select(g, G[j], 0)`, a padded LOAD); consumers'
/// guards that those zeros make redundant are dropped.
ir::LoopNest padVtaStages(const ir::LoopNest &Nest);

/// tensorize(x, vta.gemm): the multiply-add under x (by meaning: an acc
/// element of 16 lanes += inp element . wgt tile, whatever the order of the
/// loops, with the batch loop of extent 1 present, split off or absent)
/// becomes vta.uop_gemm calls, its accumulator's initialisation
/// vta.uop_gemm_reset; a mismatch is an error naming the loop or access.
ir::LoopNest tensorizeVtaGemm(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// pragma(x, alu): the elementwise int32 work in vta.acc under x becomes
/// vta.uop_alu calls, one loop nest per operation.
ir::LoopNest injectVtaAlu(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// pragma(x, dma_copy): the copy nest under x (a stage's copy-in or
/// write-back) becomes vta.load_2d / vta.store_2d calls.
ir::LoopNest injectVtaDma(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// `for (v, m, 1) S` becomes S with v := m (a VTA instruction has room for
/// two loops; unit loops stay until the passes that match marked regions ran).
ir::LoopNest dropUnitLoops(const ir::LoopNest &Nest);

/// Every maximal loop nest of uops of one kind becomes one vta.push_gemm /
/// vta.push_alu (its two outermost loops folded into uop loops).
ir::LoopNest foldUopLoops(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// Dependency tokens (vta.dep_push/dep_pop) between the load, compute and
/// store queues, loop-carried ones included, and the final vta.synchronize.
ir::LoopNest injectCoprocSync(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// cthread loops: each context gets its own copy of the stage buffers and
/// of every call, tokens included.
ir::LoopNest injectVtaContexts(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// Stage buffers become SRAM element ranges; every call takes its final
/// (runtime API) form.
ir::LoopNest vtaStorageFlatten(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// A uop kernel whose uops use several host loop variables gets one
/// signature combining them (`let sched_sig = i*4 + jo`), where their
/// ranges' product fits the runtime's 99 cached variants.
ir::LoopNest combineUopSignatures(const ir::LoopNest &Nest);

/// The VTA program is in final form and within the hardware's limits
/// (SRAM depths, instruction field widths, immediates, two uop loops,
/// consecutive uops writing different acc elements); an error names the
/// call and the limit.
bool verifyVtaProgram(const ir::LoopNest &Nest, std::vector<Diag> &Diags);

/// Well-formedness of a VTA program in the given form (VtaForm bits; each
/// includes those before it): variables and buffers defined where used, one
/// index per dimension, and whatever Form says holds (VtaFormVerified is
/// verifyVtaProgram's whole check). Errors start with "malformed VTA
/// program", but for verifyVtaProgram's own.
bool verifyVtaForm(const ir::LoopNest &Nest, unsigned Form, std::vector<Diag> &Diags);

/// The launcher's regions of a VTA program: every global buffer a
/// LoadBuffer2D reads or a StoreBuffer2D writes, whole.
std::vector<BufferRegion> computeVtaBufferRegions(const ir::LoopNest &Nest);

} // namespace passes
} // namespace sched

#endif
