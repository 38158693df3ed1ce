//===- LoweringPassesTest.cpp - Unit tests of the lowering passes --------===//
//
// One behaviour per test, each pass on a small nest. Inputs are textual IR;
// results are checked structurally or by evaluating expressions at concrete
// parameter values.
//
//===----------------------------------------------------------------------===//
#include "LoweringTestUtil.h"
#include "Pipeline.h"
#include "ir/Kernel.h"
#include "ir/LaunchLimits.h"
#include "ir/Printer.h"
#include "passes/Passes.h"

#include <gtest/gtest.h>

using namespace sched;
using namespace sched::lowertest;

namespace {

bool hasError(const std::vector<Diag> &Diags, const std::string &Fragment) {
  for (const Diag &D : Diags)
    if (D.Severity == Diag::Level::Error && D.Message.find(Fragment) != std::string::npos)
      return true;
  return false;
}

TEST(NormalizeLoopsTest, ShiftsALoopWithNonZeroMinToStartAtZero) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[N] global, N: int32) target=gpu {\n"
                                "  for (i, 2, (N - 2)) {\n"
                                "    A[i] = 1.0f\n"
                                "  }\n"
                                "}\n");
  ir::LoopNest Out = passes::normalizeLoops(Nest);
  std::vector<const ir::ForNode *> Loops = loopsOf(Out.Body);
  ASSERT_EQ(Loops.size(), 1u);
  int64_t Min = -1;
  ASSERT_TRUE(ir::getConstInt(Loops[0]->Min, Min));
  EXPECT_EQ(Min, 0);
  // The store now writes A[i' + 2]: at i' = 0 it is element 2.
  std::vector<const ir::StoreNode *> Stores = storesOf(Out.Body);
  ASSERT_EQ(Stores.size(), 1u);
  std::map<const ir::VarNode *, ir::Expr> AtZero{{Loops[0]->LoopVar.get(), ir::makeInt(0)}};
  int64_t Index = -1;
  ASSERT_TRUE(ir::getConstInt(ir::simplify(ir::substitute(Stores[0]->Indices[0], AtZero)),
                              Index));
  EXPECT_EQ(Index, 2);
}

TEST(VerifyThreadBindingsTest, RejectsATagBoundTwiceOnOnePath) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[64] global) target=gpu {\n"
                                "  for (a, 0, 8) bind(threadIdx.x) {\n"
                                "    for (b, 0, 8) bind(threadIdx.x) {\n"
                                "      A[((a*8) + b)] = 0.0f\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  std::vector<Diag> Diags;
  passes::verifyThreadBindings(Nest, Diags);
  EXPECT_TRUE(hasError(Diags, "bound to it already"));
}

TEST(VerifyThreadBindingsTest, RejectsABlockLoopInsideAThreadLoop) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[64] global) target=gpu {\n"
                                "  for (t, 0, 8) bind(threadIdx.x) {\n"
                                "    for (b, 0, 8) bind(blockIdx.x) {\n"
                                "      A[((b*8) + t)] = 0.0f\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  std::vector<Diag> Diags;
  passes::verifyThreadBindings(Nest, Diags);
  EXPECT_TRUE(hasError(Diags, "block loops must enclose thread loops"));
}

TEST(WidenThreadLoopsTest, WidensASmallerLoopOfTheSameTagBehindAGuard) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[64] global, B: float32*[32] global) "
                                "target=gpu {\n"
                                "  for (a, 0, 64) bind(threadIdx.x) {\n"
                                "    A[a] = 0.0f\n"
                                "  }\n"
                                "  for (b, 0, 32) bind(threadIdx.x) {\n"
                                "    B[b] = 1.0f\n"
                                "  }\n"
                                "}\n");
  std::vector<Diag> Diags;
  passes::KernelContext Ctx;
  ASSERT_TRUE(passes::computeLaunchGeometry(Nest, Ctx, Diags));
  ir::LoopNest Out = passes::widenThreadLoops(Nest, Ctx);
  EXPECT_TRUE(Diags.empty());
  std::vector<const ir::ForNode *> Loops = loopsOf(Out.Body);
  ASSERT_EQ(Loops.size(), 2u);
  int64_t Extent = -1;
  ASSERT_TRUE(ir::getConstInt(Loops[1]->Extent, Extent));
  EXPECT_EQ(Extent, 64);
  const auto *Guard = ir::as<ir::IfThenElseNode>(Loops[1]->Body);
  ASSERT_NE(Guard, nullptr);
  EXPECT_EQ(ir::print(Guard->Cond), "(b < 32)");
  // The loop that already has the launch extent gets no guard.
  EXPECT_EQ(ir::as<ir::IfThenElseNode>(Loops[0]->Body), nullptr);
}

TEST(VerifyThreadBindingsTest, LeavesAVThreadLoopForInjectVirtualThread) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[4] global) target=gpu {\n"
                                "  for (v, 0, 4) bind(vthread) {\n"
                                "    A[v] = 0.0f\n"
                                "  }\n"
                                "}\n");
  std::vector<Diag> Diags;
  EXPECT_TRUE(passes::verifyThreadBindings(Nest, Diags));
  std::vector<const ir::ForNode *> Loops = loopsOf(Nest.Body);
  ASSERT_EQ(Loops.size(), 1u);
  EXPECT_EQ(Loops[0]->LoopKind, ir::ForKind::ThreadBound);
  EXPECT_EQ(Loops[0]->ThreadTag, "vthread");
  EXPECT_TRUE(Diags.empty());
}

TEST(ComputeLaunchGeometryTest, TakesGridAndBlockFromBoundLoops) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[N] global, N: int32) target=gpu {\n"
                                "  for (bx, 0, ((N + 15)/16)) bind(blockIdx.x) {\n"
                                "    for (tx, 0, 16) bind(threadIdx.x) {\n"
                                "      if ((((bx*16) + tx) < N)) {\n"
                                "        A[((bx*16) + tx)] = 0.0f\n"
                                "      }\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  passes::KernelContext Ctx;
  std::vector<Diag> Diags;
  ASSERT_TRUE(passes::computeLaunchGeometry(Nest, Ctx, Diags));
  const LaunchGeometry &G = Ctx.Geometry;
  EXPECT_EQ(evalAt(G.Grid[0], Nest, {{"N", 100}}), 7);
  EXPECT_EQ(evalAt(G.Block[0], Nest, {}), 16);
  for (int D = 1; D < 3; ++D) {
    EXPECT_EQ(evalAt(G.Grid[D], Nest, {}), 1);
    EXPECT_EQ(evalAt(G.Block[D], Nest, {}), 1);
  }
  EXPECT_EQ(Ctx.constExtent("threadIdx.x"), 16);
  EXPECT_EQ(Ctx.constExtent("blockIdx.x"), -1);
  EXPECT_EQ(Ctx.threadTags(), std::vector<std::string>{"threadIdx.x"});
}

TEST(ComputeLaunchGeometryTest, LaunchesTheHullOfAThreadExtentThatDependsOnALoop) {
  // The inner loop of a triangle bound to threads: the block is the largest
  // extent it takes over the enclosing loop's range (i + 1 for i < 8: 8).
  ir::LoopNest Nest = parseNest("func f(A: float32*[64] global) target=gpu {\n"
                                "  for (i, 0, 8) {\n"
                                "    for (tx, 0, (i + 1)) bind(threadIdx.x) {\n"
                                "      A[tx] = 0.0f\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  passes::KernelContext Ctx;
  std::vector<Diag> Diags;
  EXPECT_TRUE(passes::computeLaunchGeometry(Nest, Ctx, Diags));
  EXPECT_EQ(Ctx.constExtent("threadIdx.x"), 8);
}

TEST(ComputeLaunchGeometryTest, RejectsAThreadExtentWithNoBoundOverTheParameters) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[64] global, n: int32) target=gpu {\n"
                                "  for (i, 0, n) {\n"
                                "    for (tx, 0, (64/(i + 1))) bind(threadIdx.x) {\n"
                                "      A[tx] = 0.0f\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  passes::KernelContext Ctx;
  std::vector<Diag> Diags;
  EXPECT_FALSE(passes::computeLaunchGeometry(Nest, Ctx, Diags));
  EXPECT_TRUE(hasError(Diags, "depends on 'i', and no bound of it over the kernel's parameters"));
}

TEST(StorageFlattenTest, FlattensParameterAccessesRowMajor) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[M, K] global, M: int32, K: int32) "
                                "target=gpu {\n"
                                "  A[2, 3] = 0.0f\n"
                                "}\n");
  ir::LoopNest Out = passes::storageFlatten(Nest);
  ir::Buffer A = bufferParam(Out, "A");
  ASSERT_TRUE(A);
  ASSERT_EQ(A->Shape.size(), 1u);
  EXPECT_EQ(evalAt(A->Shape[0], Out, {{"M", 5}, {"K", 7}}), 35);
  std::vector<const ir::StoreNode *> Stores = storesOf(Out.Body);
  ASSERT_EQ(Stores.size(), 1u);
  EXPECT_EQ(Stores[0]->Buf, A);
  ASSERT_EQ(Stores[0]->Indices.size(), 1u);
  EXPECT_EQ(evalAt(Stores[0]->Indices[0], Out, {{"M", 5}, {"K", 7}}), 2 * 7 + 3);
}

TEST(StorageFlattenTest, FlattensAnAllocationToTheProductOfItsShape) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[256] global) target=gpu {\n"
                                "  allocate S: float32[16, 16] shared {\n"
                                "    S[1, 2] = A[0]\n"
                                "  }\n"
                                "}\n");
  ir::LoopNest Out = passes::storageFlatten(Nest);
  const auto *Alloc = ir::as<ir::AllocateNode>(Out.Body);
  ASSERT_NE(Alloc, nullptr);
  ASSERT_EQ(Alloc->Buf->Shape.size(), 1u);
  EXPECT_EQ(evalAt(Alloc->Buf->Shape[0], Out, {}), 256);
  EXPECT_EQ(Alloc->Buf->MemScope, ir::Scope::Shared);
  std::vector<const ir::StoreNode *> Stores = storesOf(Out.Body);
  ASSERT_EQ(Stores.size(), 1u);
  EXPECT_EQ(Stores[0]->Buf, Alloc->Buf);
  EXPECT_EQ(evalAt(Stores[0]->Indices[0], Out, {}), 18);
}

TEST(ComputeBufferRegionsTest, MarksReadAndWrittenBuffers) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[N] global, B: float32*[N] global, "
                                "C: float32*[N] global, N: int32) target=gpu {\n"
                                "  for (i, 0, N) {\n"
                                "    B[i] = (A[i] + B[i])\n"
                                "    C[i] = 0.0f\n"
                                "  }\n"
                                "}\n");
  std::vector<BufferRegion> Regions = passes::computeBufferRegions(Nest);
  ASSERT_EQ(Regions.size(), 3u);
  EXPECT_EQ(Regions[0].Param, "A");
  EXPECT_TRUE(Regions[0].Read);
  EXPECT_FALSE(Regions[0].Written);
  EXPECT_TRUE(Regions[1].Read);
  EXPECT_TRUE(Regions[1].Written);
  EXPECT_FALSE(Regions[2].Read);
  EXPECT_TRUE(Regions[2].Written);
}

TEST(ComputeBufferRegionsTest, ExtentIsOnePastTheLargestIndexTouched) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[N] global, N: int32) target=gpu {\n"
                                "  for (i, 0, (N/2)) {\n"
                                "    A[i] = 0.0f\n"
                                "  }\n"
                                "}\n");
  std::vector<BufferRegion> Regions = passes::computeBufferRegions(Nest);
  ASSERT_EQ(Regions.size(), 1u);
  EXPECT_EQ(evalAt(Regions[0].Extent, Nest, {{"N", 10}}), 5);
}

TEST(ComputeBufferRegionsTest, ExtentNeverExceedsTheBuffer) {
  // A non-dividing split: io*8 + ii reaches 103 for N = 100; the guard keeps
  // the access in bounds, and so must the region.
  ir::LoopNest Nest = parseNest("func f(A: float32*[N] global, N: int32) target=gpu {\n"
                                "  for (io, 0, ((N + 7)/8)) bind(blockIdx.x) {\n"
                                "    for (ii, 0, 8) bind(threadIdx.x) {\n"
                                "      if ((((io*8) + ii) < N)) {\n"
                                "        A[((io*8) + ii)] = 0.0f\n"
                                "      }\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  std::vector<BufferRegion> Regions = passes::computeBufferRegions(Nest);
  ASSERT_EQ(Regions.size(), 1u);
  EXPECT_EQ(evalAt(Regions[0].Extent, Nest, {{"N", 100}}), 100);
}

// x[i + off] with off < 0 reads below the pointer: the region starts at
// min(off, 0) and counts its elements from there; a region of indices that
// are never negative has no origin (it starts at the pointer).
TEST(ComputeBufferRegionsTest, RegionStartsBelowThePointerForNegativeOffsets) {
  ir::LoopNest Nest = parseNest("func f(y: float32*[N] global, x: float32*[(N + off)] global, "
                                "N: int32, off: int32) target=gpu {\n"
                                "  for (i, 0, N) {\n"
                                "    y[i] = x[(i + off)]\n"
                                "  }\n"
                                "}\n");
  std::vector<BufferRegion> Regions = passes::computeBufferRegions(Nest);
  ASSERT_EQ(Regions.size(), 2u);
  EXPECT_FALSE(Regions[0].Min);
  ASSERT_TRUE(Regions[1].Min);
  EXPECT_EQ(evalAt(Regions[1].Min, Nest, {{"N", 20}, {"off", -5}}), -5);
  EXPECT_EQ(evalAt(Regions[1].Extent, Nest, {{"N", 20}, {"off", -5}}), 20);
  EXPECT_EQ(evalAt(Regions[1].Min, Nest, {{"N", 20}, {"off", 3}}), 0);
  EXPECT_EQ(evalAt(Regions[1].Extent, Nest, {{"N", 20}, {"off", 3}}), 23);
  // A loop that runs zero times touches nothing, whatever the origin.
  EXPECT_EQ(evalAt(Regions[1].Extent, Nest, {{"N", 0}, {"off", -5}}), 0);
}

// A[(i - 1)*K + k]: the smallest index is a product with a size, -K at
// i = 0, bounded because K >= 1 wherever the k loop runs. The region starts
// there (before, it started at the pointer and the kernel read below it).
TEST(ComputeBufferRegionsTest, RegionStartsBelowThePointerForProductIndices) {
  ir::LoopNest Nest = parseNest("func f(B: float32*[(M*K)] global, A: float32*[((M - 1)*K)] global, "
                                "M: int32, K: int32) target=gpu {\n"
                                "  for (i, 0, M) bind(blockIdx.x) {\n"
                                "    for (k, 0, K) bind(threadIdx.x) {\n"
                                "      B[((i*K) + k)] = A[(((i - 1)*K) + k)]\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  std::vector<BufferRegion> Regions = passes::computeBufferRegions(Nest);
  ASSERT_EQ(Regions.size(), 2u);
  EXPECT_FALSE(Regions[0].Min);
  ASSERT_TRUE(Regions[1].Min);
  EXPECT_EQ(evalAt(Regions[1].Min, Nest, {{"M", 5}, {"K", 6}}), -6);
  EXPECT_EQ(evalAt(Regions[1].Extent, Nest, {{"M", 5}, {"K", 6}}), 30);
  EXPECT_EQ(evalAt(Regions[1].Min, Nest, {{"M", 1}, {"K", 1}}), -1);
  EXPECT_EQ(evalAt(Regions[1].Extent, Nest, {{"M", 1}, {"K", 1}}), 1);
}

// A guard whose bound is not over scalar parameters (x here is no
// parameter) must not reach the region: the launcher could not evaluate it.
// The guard-free region is used instead.
TEST(ComputeBufferRegionsTest, ExtentIsOverScalarParametersOnly) {
  ir::Var N = ir::makeVar("N"), X = ir::makeVar("x"), I = ir::makeVar("i");
  ir::Buffer A = ir::makeBuffer("A", ir::DType::Float32, {N});
  ir::LoopNest Nest;
  Nest.Name = "f";
  Nest.Params.push_back({ir::Param::Kind::Buffer, A, nullptr});
  Nest.Params.push_back({ir::Param::Kind::Scalar, nullptr, N});
  Nest.Body = ir::makeFor(I, ir::makeInt(0), N,
                          ir::makeIf(I < X, ir::makeStore(A, {I}, ir::makeFloat(0.0))));
  std::vector<BufferRegion> Regions = passes::computeBufferRegions(Nest);
  ASSERT_EQ(Regions.size(), 1u);
  EXPECT_EQ(ir::varsOf(Regions[0].Extent), std::set<const ir::VarNode *>{N.get()})
      << ir::print(Regions[0].Extent);
  EXPECT_EQ(evalAt(Regions[0].Extent, Nest, {{"N", 10}}), 10);
}

TEST(VerifyKernelTest, RejectsABufferThatIsNeitherParameterNorAllocated) {
  ir::Buffer A = ir::makeBuffer("A", ir::DType::Float32, {ir::makeInt(4)});
  ir::Buffer S = ir::makeBuffer("S", ir::DType::Float32, {ir::makeInt(4)}, ir::Scope::Local);
  ir::LoopNest Nest;
  Nest.Name = "f";
  Nest.Params.push_back({ir::Param::Kind::Buffer, A, nullptr});
  Nest.Body = ir::makeStore(A, {ir::makeInt(0)}, ir::makeLoad(S, {ir::makeInt(0)}));
  passes::KernelContext Ctx;
  std::vector<Diag> Diags;
  ASSERT_TRUE(passes::computeLaunchGeometry(Nest, Ctx, Diags));
  EXPECT_FALSE(passes::verifyKernel(Nest, Ctx, passes::FormComplete, Diags));
  EXPECT_TRUE(hasError(Diags, "buffer 'S'"));
}

TEST(VerifyKernelTest, RejectsAVariableUsedOutsideItsLoop) {
  ir::Var I = ir::makeVar("i");
  ir::Buffer A = ir::makeBuffer("A", ir::DType::Float32, {ir::makeInt(4)});
  ir::LoopNest Nest;
  Nest.Name = "f";
  Nest.Params.push_back({ir::Param::Kind::Buffer, A, nullptr});
  Nest.Body = ir::makeSeq({ir::makeFor(I, ir::makeInt(0), ir::makeInt(4),
                                       ir::makeStore(A, {I}, ir::makeFloat(0.0))),
                           ir::makeStore(A, {I}, ir::makeFloat(1.0))});
  passes::KernelContext Ctx;
  std::vector<Diag> Diags;
  ASSERT_TRUE(passes::computeLaunchGeometry(Nest, Ctx, Diags));
  EXPECT_FALSE(passes::verifyKernel(Nest, Ctx, passes::FormComplete, Diags));
  EXPECT_TRUE(hasError(Diags, "variable 'i'"));
}

TEST(VerifyKernelTest, RejectsASharedBufferAllocatedTwice) {
  // CUDA declares a shared array once, at the kernel's top: two copies of
  // code (PartitionLoops) share one allocation around both.
  ir::Buffer A = ir::makeBuffer("A", ir::DType::Float32, {ir::makeInt(4)});
  ir::Buffer S = ir::makeBuffer("S", ir::DType::Float32, {ir::makeInt(4)}, ir::Scope::Shared);
  ir::LoopNest Nest;
  Nest.Name = "f";
  Nest.Params.push_back({ir::Param::Kind::Buffer, A, nullptr});
  ir::Stmt Use = ir::makeStore(S, {ir::makeInt(0)}, ir::makeLoad(A, {ir::makeInt(0)}));
  Nest.Body = ir::makeSeq({ir::makeAllocate(S, Use), ir::makeAllocate(S, Use)});
  passes::KernelContext Ctx;
  std::vector<Diag> Diags;
  ASSERT_TRUE(passes::computeLaunchGeometry(Nest, Ctx, Diags));
  EXPECT_TRUE(passes::verifyKernel(Nest, Ctx, passes::FormFlattened, Diags));
  EXPECT_FALSE(passes::verifyKernel(Nest, Ctx, passes::FormComplete, Diags));
  EXPECT_TRUE(hasError(Diags, "shared buffer 'S' is allocated twice"));
}

TEST(VerifyKernelTest, RejectsAnAllocationOfNonConstantSize) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[N] global, N: int32) target=gpu {\n"
                                "  allocate S: float32[N] shared {\n"
                                "    S[0] = A[0]\n"
                                "  }\n"
                                "}\n");
  passes::KernelContext Ctx;
  std::vector<Diag> Diags;
  ASSERT_TRUE(passes::computeLaunchGeometry(Nest, Ctx, Diags));
  EXPECT_FALSE(passes::verifyKernel(Nest, Ctx, passes::FormComplete, Diags));
  EXPECT_TRUE(hasError(Diags, "constant, positive size"));
}

/// The kernel context of Nest (geometry computed).
passes::KernelContext contextOf(const ir::LoopNest &Nest) {
  passes::KernelContext Ctx;
  std::vector<Diag> Diags;
  EXPECT_TRUE(passes::computeLaunchGeometry(Nest, Ctx, Diags));
  return Ctx;
}

/// Thread t2 reads the element of the local L that thread 63 - t2 wrote.
const char *const LocalHandOff = "func f(In: float32*[64] global, Out: float32*[64] global) "
                                 "target=gpu {\n"
                                 "  allocate L: float32[64] local {\n"
                                 "    for (tx, 0, 64) bind(threadIdx.x) {\n"
                                 "      L[tx] = In[tx]\n"
                                 "    }\n"
                                 "    for (t2, 0, 64) bind(threadIdx.x) {\n"
                                 "      Out[t2] = L[(63 - t2)]\n"
                                 "    }\n"
                                 "  }\n"
                                 "}\n";

// PromoteToShared leaves no local hand-off in the nest it gets; thread sync
// still reports one reaching it (say one distribution made), never leaving
// threads to read a copy nobody wrote.
TEST(InjectThreadSyncTest, ReportsALocalBufferHandedBetweenThreads) {
  ir::LoopNest Nest = parseNest(LocalHandOff);
  passes::KernelContext Ctx = contextOf(Nest);
  std::vector<Diag> Diags;
  passes::injectThreadSync(Nest, Ctx, Diags);
  EXPECT_TRUE(hasError(Diags, "local buffer 'L' is written by one thread and read by another, "
                              "but each thread has its own copy"))
      << (Diags.empty() ? "no error" : Diags[0].Message);
}

// PromoteToShared makes L shared, with no error.
TEST(PromoteToSharedTest, MakesALocalBufferHandedBetweenThreadsShared) {
  ir::LoopNest Nest = parseNest(LocalHandOff);
  passes::KernelContext Ctx = contextOf(Nest);
  std::vector<Diag> Diags;
  ir::LoopNest Out = passes::promoteToShared(Nest, Ctx, Diags);
  EXPECT_TRUE(Diags.empty()) << Diags[0].Message;
  const auto *Alloc = ir::as<ir::AllocateNode>(Out.Body);
  ASSERT_NE(Alloc, nullptr);
  EXPECT_EQ(Alloc->Buf->MemScope, ir::Scope::Shared);
  for (const ir::StoreNode *S : storesOf(Out.Body))
    if (S->Buf->Name == "L")
      EXPECT_EQ(S->Buf.get(), Alloc->Buf.get());
}

TEST(VerifyKernelTest, RejectsAGlobalWriteOutsideAThreadDimensionOnceDistributed) {
  ir::LoopNest Nest = parseNest("func f(C: float32*[8] global, D: float32*[4] global) "
                                "target=gpu {\n"
                                "  for (i, 0, 4) bind(blockIdx.x) {\n"
                                "    for (t, 0, 2) bind(threadIdx.x) {\n"
                                "      C[((i*2) + t)] = 1.0f\n"
                                "    }\n"
                                "    D[i] = (D[i] + 1.0f)\n"
                                "  }\n"
                                "}\n");
  passes::KernelContext Ctx = contextOf(Nest);
  std::vector<Diag> Diags;
  EXPECT_TRUE(passes::verifyKernel(Nest, Ctx, passes::FormLaunchLoopsWidened, Diags));
  EXPECT_FALSE(passes::verifyKernel(Nest, Ctx, passes::FormDistributed, Diags));
  EXPECT_TRUE(hasError(Diags, "a write to 'D' lies outside the loop of a thread dimension"));
}

TEST(VerifyKernelTest, RejectsABarrierUnderThreadDivergentControlFlowOnceSynchronized) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[64] global) target=gpu {\n"
                                "  for (tx, 0, 64) bind(threadIdx.x) {\n"
                                "    if ((tx < 32)) {\n"
                                "      eval sched.syncthreads()\n"
                                "    }\n"
                                "    A[tx] = 0.0f\n"
                                "  }\n"
                                "}\n");
  passes::KernelContext Ctx = contextOf(Nest);
  std::vector<Diag> Diags;
  EXPECT_TRUE(passes::verifyKernel(Nest, Ctx, passes::FormDistributed, Diags));
  EXPECT_FALSE(passes::verifyKernel(Nest, Ctx, passes::FormSynchronized, Diags));
  EXPECT_TRUE(hasError(Diags, "barrier sits under control flow that depends on the thread"));
}

TEST(VerifyKernelTest, RejectsAThreadLoopNarrowerThanTheLaunchOnceWidened) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[64] global, B: float32*[32] global) "
                                "target=gpu {\n"
                                "  for (a, 0, 64) bind(threadIdx.x) {\n"
                                "    A[a] = 0.0f\n"
                                "  }\n"
                                "  for (b, 0, 32) bind(threadIdx.x) {\n"
                                "    B[b] = 1.0f\n"
                                "  }\n"
                                "}\n");
  passes::KernelContext Ctx = contextOf(Nest);
  std::vector<Diag> Diags;
  EXPECT_TRUE(passes::verifyKernel(Nest, Ctx, passes::FormGeometryKnown, Diags));
  EXPECT_FALSE(passes::verifyKernel(Nest, Ctx, passes::FormLaunchLoopsWidened, Diags));
  EXPECT_TRUE(hasError(Diags, "loop 'b' bound to threadIdx.x does not run over the launch extent"));
  Diags.clear();
  EXPECT_TRUE(passes::verifyKernel(passes::widenThreadLoops(Nest, Ctx), Ctx,
                                   passes::FormLaunchLoopsWidened, Diags));
}

TEST(VerifyKernelTest, RejectsAVirtualThreadLoopOnceLowered) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[4] global) target=gpu {\n"
                                "  for (v, 0, 4) bind(vthread) {\n"
                                "    A[v] = 0.0f\n"
                                "  }\n"
                                "}\n");
  passes::KernelContext Ctx;
  std::vector<Diag> Diags;
  EXPECT_TRUE(passes::verifyKernel(Nest, Ctx, passes::FormBindingsVerified, Diags));
  EXPECT_FALSE(passes::verifyKernel(Nest, Ctx, passes::FormNoVirtualThreads, Diags));
  EXPECT_TRUE(hasError(Diags, "loop 'v' is still bound to vthread"));
}

TEST(VerifyKernelTest, AcceptsMultiDimensionalBuffersUntilFlattened) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[4, 4] global) target=gpu {\n"
                                "  A[1, 2] = 0.0f\n"
                                "}\n");
  passes::KernelContext Ctx = contextOf(Nest);
  std::vector<Diag> Diags;
  EXPECT_TRUE(passes::verifyKernel(Nest, Ctx, passes::FormDistributed, Diags));
  EXPECT_FALSE(passes::verifyKernel(Nest, Ctx, passes::FormFlattened, Diags));
  EXPECT_TRUE(hasError(Diags, "buffer 'A' is not flattened"));
}

TEST(VerifyKernelTest, RejectsAnAccessWithTheWrongNumberOfIndices) {
  ir::Buffer A = ir::makeBuffer("A", ir::DType::Float32, {ir::makeInt(4), ir::makeInt(4)});
  ir::LoopNest Nest;
  Nest.Name = "f";
  Nest.Params.push_back({ir::Param::Kind::Buffer, A, nullptr});
  Nest.Body = ir::makeStore(A, {ir::makeInt(0)}, ir::makeFloat(0.0));
  std::vector<Diag> Diags;
  EXPECT_FALSE(passes::verifyKernel(Nest, passes::KernelContext(), passes::FormAny, Diags));
  EXPECT_TRUE(hasError(Diags, "buffer 'A' has 2 dimensions but is accessed with 1 indices"));
}

} // namespace

namespace {

const char *const WarpKernelHead =
    "func f(C: float32*[256] global) target=gpu {\n"
    "  for (lane, 0, 32) bind(threadIdx.x) {\n"
    "    allocate Cf: float32[256] wmma.accumulator {\n";

TEST(VerifyKernelTest, AcceptsAWarpCollectiveRunOnEveryLane) {
  ir::LoopNest Nest = parseNest(std::string(WarpKernelHead) +
                                "      eval wmma.fill(Cf[0], 0.0f, 16, 16, 16)\n"
                                "      eval wmma.store(C[0], Cf[0], 16, 0, 16, 16, 16)\n"
                                "    }\n  }\n}\n");
  passes::KernelContext Ctx = contextOf(Nest);
  std::vector<Diag> Diags;
  EXPECT_TRUE(passes::verifyKernel(Nest, Ctx, passes::FormSynchronized, Diags))
      << (Diags.empty() ? "" : Diags.front().Message);
}

TEST(VerifyKernelTest, RejectsAWarpCollectiveGuardedOnALaneOnceDistributed) {
  ir::LoopNest Nest = parseNest(std::string(WarpKernelHead) +
                                "      eval wmma.fill(Cf[0], 0.0f, 16, 16, 16)\n"
                                "      if ((lane == 0)) {\n"
                                "        eval wmma.store(C[0], Cf[0], 16, 0, 16, 16, 16)\n"
                                "      }\n"
                                "    }\n  }\n}\n");
  passes::KernelContext Ctx = contextOf(Nest);
  std::vector<Diag> Diags;
  EXPECT_TRUE(passes::verifyKernel(Nest, Ctx, passes::FormLaunchLoopsWidened, Diags));
  EXPECT_FALSE(passes::verifyKernel(Nest, Ctx, passes::FormDistributed, Diags));
  EXPECT_TRUE(hasError(Diags, "a warp collective depends on threadIdx.x"));
}

} // namespace

namespace {

TEST(PartitionLoopsTest, SharedArrayOfBothCopiesCountsOnce) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[n] global, n: int32) target=gpu {\n"
                                "  for (bo, 0, ((n + 31)/32)) bind(blockIdx.x) {\n"
                                "    for (t, 0, 32) bind(threadIdx.x) {\n"
                                "      allocate S: float32[32] shared {\n"
                                "        if ((((bo*32) + t) < n)) {\n"
                                "          S[t] = A[((bo*32) + t)]\n"
                                "        }\n"
                                "      }\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  ir::LoopNest Out = passes::partitionLoops(Nest);
  // Two copies now allocate S (full blocks, edge blocks): one array.
  EXPECT_NE(ir::print(Out.Body).find("} else {"), std::string::npos) << ir::print(Out.Body);
  EXPECT_EQ(ir::staticSharedBytes(Out), 128);
}

} // namespace
