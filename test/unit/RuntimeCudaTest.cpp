//===- RuntimeCudaTest.cpp - The cuda backend's parts that need no GPU ----===//
//
// NVRTC is present on machines without a GPU, so compiling a generated
// kernel for a real architecture is tested everywhere; launching needs a
// driver and skips with a visible reason without one.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtil.h"
#include "codegen/CodeGenCUDA.h"
#include "cuda/CudaApi.h"
#include "cuda/CudaBackend.h"

#include <gtest/gtest.h>

using namespace sched;
using namespace sched::ir;
using namespace sched::simtest;

namespace {

/// Out[i] = A[i] + 1 for i < n, 32 threads per block.
LoweredKernel addOne() {
  KernelBuilder KB("sched_add_one_7");
  Var N = KB.scalar("n");
  Buffer A = KB.buffer("A", DType::Float32, N, true, false);
  Buffer Out = KB.buffer("Out", DType::Float32, N, false, true);
  Expr Blocks = (N + i32(31)) / i32(32);
  KB.grid(Blocks);
  KB.block(i32(32));
  Var Bx = makeVar("bx"), Tx = makeVar("tx"), I = makeVar("i");
  Stmt Body = makeIf(I < N, makeStore(Out, {I}, makeLoad(A, {I}) + makeFloat(1.0)));
  return KB.done(bound(Bx, Blocks, "blockIdx.x",
                       bound(Tx, i32(32), "threadIdx.x", makeLet(I, Bx * i32(32) + Tx, Body))));
}

TEST(RuntimeCudaTest, NvrtcCompilesGeneratedKernelToCubin) {
  std::string Error;
  if (!cuda::nvrtc(Error))
    GTEST_SKIP() << "NVRTC is not installed: " << Error;
  LoweredKernel K = addOne();
  cuda::CompiledImage Image;
  ASSERT_TRUE(cuda::compileWithNvrtc(emitCUDA(K), K.Kernel.Name, 8, 0, Image, Error)) << Error;
  EXPECT_EQ(Image.Arch, "sm_80");
  EXPECT_TRUE(Image.IsCubin);
  EXPECT_FALSE(Image.Image.empty());
}

TEST(RuntimeCudaTest, NvrtcErrorsCarryTheCompilerLog) {
  std::string Error;
  if (!cuda::nvrtc(Error))
    GTEST_SKIP() << "NVRTC is not installed: " << Error;
  cuda::CompiledImage Image;
  EXPECT_FALSE(cuda::compileWithNvrtc("extern \"C\" __global__ void k() { undeclared_thing(); }",
                                      "k", 8, 0, Image, Error));
  EXPECT_NE(Error.find("undeclared_thing"), std::string::npos) << Error;
}

TEST(RuntimeCudaTest, MissingDriverIsAClearError) {
  std::string Error;
  if (cuda::loadDriver(Error))
    GTEST_SKIP() << "a CUDA driver is present on this machine";
  EXPECT_EQ(Error, "no CUDA driver (libcuda.so.1 not found)");
  EXPECT_FALSE(cuda::deviceAvailable());
}

TEST(RuntimeCudaTest, LaunchOnDeviceMatchesSimulator) {
  if (!cuda::deviceAvailable())
    GTEST_SKIP() << "no CUDA device on this machine";
  LoweredKernel K = addOne();
  LaunchDescriptor D;
  D.Kernel = K;
  D.CUDASource = emitCUDA(K);
  cuda::KernelCache Cache;
  int32_t N = 1000;
  std::vector<float> A(N), Out(N, 0.0f);
  for (int I = 0; I < N; ++I)
    A[I] = 0.25f * I;
  std::string Error;
  ASSERT_TRUE(cuda::launch(D, Cache, {&N, A.data(), Out.data()}, Error)) << Error;
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(Out[I], A[I] + 1.0f) << "at " << I;
}

} // namespace
