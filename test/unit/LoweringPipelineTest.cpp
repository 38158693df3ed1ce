//===- LoweringPipelineTest.cpp - Unit tests of sched::lower --------------===//
//
// The pipeline as a whole: pass order as seen by AfterPass, the per-target
// entry, and a full lowering of a tiled kernel.
//
//===----------------------------------------------------------------------===//
#include "LoweringTestUtil.h"
#include "Pipeline.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>

using namespace sched;
using namespace sched::lowertest;

namespace {

const char *TiledCopy =
    "func sched_copy_3(A: float32*[M, N] global noalias, B: float32*[M, N] global noalias, "
    "M: int32, N: int32) target=gpu {\n"
    "  for (bx, 0, ((N + 15)/16)) bind(blockIdx.x) {\n"
    "    for (tx, 0, 16) bind(threadIdx.x) {\n"
    "      for (i, 0, M) {\n"
    "        if ((((bx*16) + tx) < N)) {\n"
    "          B[i, ((bx*16) + tx)] = A[i, ((bx*16) + tx)]\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

TEST(LoweringPipelineTest, CallsAfterPassForEachPassInOrder) {
  ir::LoopNest Nest = parseNest(TiledCopy);
  std::vector<std::string> Passes;
  PipelineOptions Opts;
  Opts.AfterPass = [&](const std::string &Pass, const ir::LoopNest &, bool) {
    Passes.push_back(Pass);
  };
  LoweredKernel K;
  std::vector<Diag> Diags;
  ASSERT_TRUE(lower(Nest, Opts, K, Diags));
  std::vector<std::string> Expected = {"NormalizeLoops",        "BoundInference",
                                       "LowerThreadReductions", "AutoTensorCore",
                                       "TensorizeWmma",
                                       "VerifyThreadBindings",  "InjectVirtualThread",
                                       "ComputeLaunchGeometry", "WidenThreadLoops",
                                       "PromoteToShared",       "DistributeOverThreads",
                                       "Simplify",              "InjectThreadSync",
                                       "PrefetchDoubleBuffers", "PipelineStages",
                                       "LayoutSharedStages",    "StorageFlatten",
                                       "ComputeBufferRegions",  "PartitionLoops",
                                       "VectorizeLoops",        "UnrollSmallLoops",
                                       "VerifyKernel"};
  EXPECT_EQ(Passes, Expected);
}

// A target(vta) nest whose work no VTA pass turned into runtime calls (here
// a plain store) is refused by VerifyVtaProgram, naming the statement.
TEST(LoweringPipelineTest, VtaNestWithAPlainStoreIsNotAVtaProgram) {
  ir::LoopNest Nest = parseNest("func f(A: int8*[16] global) target=vta {\n"
                                "  for (i, 0, 16) {\n"
                                "    A[i] = 0:int8\n"
                                "  }\n"
                                "}\n");
  LoweredKernel K;
  std::vector<Diag> Diags;
  EXPECT_FALSE(lower(Nest, PipelineOptions(), K, Diags));
  ASSERT_FALSE(Diags.empty());
  EXPECT_NE(Diags[0].Message.find("is not a VTA operation (give its loop pragma(x, alu) or "
                                  "pragma(x, dma_copy), or tensorize it with vta.gemm)"),
            std::string::npos)
      << Diags[0].Message;
}

TEST(LoweringPipelineTest, EmptyVtaNestLowersToASynchronizeAlone) {
  // Nothing to run: the program is the final synchronize (InjectCoprocSync
  // ends every program with it), and the launcher moves no buffer.
  ir::LoopNest Nest = parseNest("func f(A: int8*[16] global) target=vta {\n}\n");
  LoweredKernel K;
  std::vector<Diag> Diags;
  ASSERT_TRUE(lower(Nest, PipelineOptions(), K, Diags)) << (Diags.empty() ? "" : Diags[0].Message);
  EXPECT_EQ(ir::print(K.Kernel.Body), "eval vta.synchronize()\n");
  EXPECT_TRUE(K.Regions.empty());
}

TEST(LoweringPipelineTest, LowersATiledCopyToAFlatKernelWithGeometryAndRegions) {
  ir::LoopNest Nest = parseNest(TiledCopy);
  LoweredKernel K;
  std::vector<Diag> Diags;
  ASSERT_TRUE(lower(Nest, PipelineOptions(), K, Diags));
  std::map<std::string, int64_t> At = {{"M", 3}, {"N", 40}};
  EXPECT_EQ(evalAt(K.Geometry.Grid[0], K.Kernel, At), 3);
  EXPECT_EQ(evalAt(K.Geometry.Block[0], K.Kernel, At), 16);
  ASSERT_EQ(K.Regions.size(), 2u);
  EXPECT_EQ(evalAt(K.Regions[0].Extent, K.Kernel, At), 120);
  EXPECT_TRUE(K.Regions[0].Read && !K.Regions[0].Written);
  EXPECT_TRUE(K.Regions[1].Written && !K.Regions[1].Read);
  for (const ir::Param &P : K.Kernel.Params)
    if (P.ParamKind == ir::Param::Kind::Buffer)
      EXPECT_EQ(P.Buf->Shape.size(), 1u) << P.Buf->Name;
}

TEST(LoweringPipelineTest, KernelNameBecomesACIdentifier) {
  ir::LoopNest Nest = parseNest(TiledCopy);
  Nest.Name = "sched_my-file.v2_3";
  LoweredKernel K;
  std::vector<Diag> Diags;
  ASSERT_TRUE(lower(Nest, PipelineOptions(), K, Diags));
  EXPECT_EQ(K.Kernel.Name, "sched_my_file_v2_3");
}

TEST(LoweringPipelineTest, VerifyEachAcceptsWhatEveryPassProduces) {
  ir::LoopNest Nest = parseNest(
      "func sched_stage(A: float32*[8, 16] global, C: float32*[8, 8] global) target=gpu {\n"
      "  allocate As: float32[8, 4] shared {\n"
      "    for (ko, 0, 4) {\n"
      "      for (As.ax0, 0, 8) {\n"
      "        for (As.ax1, 0, 4) {\n"
      "          As[As.ax0, As.ax1] = A[As.ax0, ((ko*4) + As.ax1)]\n"
      "        }\n"
      "      }\n"
      "      for (ty, 0, 8) bind(threadIdx.y) {\n"
      "        for (tx, 0, 4) bind(threadIdx.x) {\n"
      "          C[ty, tx] = (C[ty, tx] + As[ty, (3 - tx)])\n"
      "        }\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "}\n");
  PipelineOptions Opts;
  Opts.VerifyEach = true;
  size_t Passes = 0;
  Opts.AfterPass = [&](const std::string &, const ir::LoopNest &, bool) { ++Passes; };
  LoweredKernel K;
  std::vector<Diag> Diags;
  EXPECT_TRUE(lower(Nest, Opts, K, Diags)) << (Diags.empty() ? "" : Diags[0].Message);
  EXPECT_EQ(Passes, 22u);
}

} // namespace
