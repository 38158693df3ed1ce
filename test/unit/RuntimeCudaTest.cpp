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
#include "ir/LaunchDescriptor.h"
#include "ir/Parser.h"

#include <gtest/gtest.h>

#include <cstdlib>

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

/// Sets an environment variable for one test and restores it after.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, const std::string &Value) : Name(Name) {
    if (const char *Old = std::getenv(Name))
      Saved = Old, Had = true;
    setenv(Name, Value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (Had)
      setenv(Name, Saved.c_str(), 1);
    else
      unsetenv(Name);
  }

private:
  const char *Name;
  std::string Saved;
  bool Had = false;
};

/// The kernel cache: a second compile of the same kernel reads the entry
/// the first wrote, byte for byte; an entry cut short is compiled again and
/// rewritten; SCHED_CACHE=0 neither reads nor writes.
TEST(RuntimeCudaTest, KernelCacheServesTheSecondCompileAndRecompilesABrokenEntry) {
  std::string Error;
  if (!cuda::nvrtc(Error))
    GTEST_SKIP() << "NVRTC is not installed: " << Error;
  char Dir[] = "/tmp/sched-cache-test-XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  ScopedEnv Xdg("XDG_CACHE_HOME", Dir);
  ScopedEnv On("SCHED_CACHE", "1");
  LoweredKernel K = addOne();
  const std::string CU = emitCUDA(K);
  cuda::CompiledImage First, Second, Third;
  ASSERT_TRUE(cuda::compileForArch(CU, K.Kernel.Name, "compute_80", First, Error)) << Error;
  EXPECT_EQ(First.Origin, "NVRTC");
  ASSERT_TRUE(cuda::compileForArch(CU, K.Kernel.Name, "compute_80", Second, Error)) << Error;
  EXPECT_EQ(Second.Origin, "cache");
  EXPECT_EQ(Second.Image, First.Image);
  EXPECT_FALSE(Second.IsCubin);
  // Another architecture is another entry.
  ASSERT_TRUE(cuda::compileForArch(CU, K.Kernel.Name, "sm_80", Third, Error)) << Error;
  EXPECT_EQ(Third.Origin, "NVRTC");
  EXPECT_TRUE(Third.IsCubin);
  // Cut every entry short: each is compiled again.
  std::string Entries = std::string(Dir) + "/sched/kernels";
  std::string Cut = "for f in " + Entries + "/*; do head -c 40 \"$f\" > \"$f.x\" && mv \"$f.x\" \"$f\"; done";
  ASSERT_EQ(std::system(Cut.c_str()), 0);
  ASSERT_TRUE(cuda::compileForArch(CU, K.Kernel.Name, "compute_80", Second, Error)) << Error;
  EXPECT_EQ(Second.Origin, "NVRTC");
  EXPECT_EQ(Second.Image, First.Image);
  ASSERT_TRUE(cuda::compileForArch(CU, K.Kernel.Name, "compute_80", Second, Error)) << Error;
  EXPECT_EQ(Second.Origin, "cache");
  {
    ScopedEnv Off("SCHED_CACHE", "off");
    EXPECT_EQ(cuda::kernelCacheDir(), "");
    ASSERT_TRUE(cuda::compileForArch(CU, K.Kernel.Name, "compute_80", Second, Error)) << Error;
    EXPECT_EQ(Second.Origin, "NVRTC");
  }
  std::system(("rm -rf " + std::string(Dir)).c_str());
}

/// The two-virtual-thread tensor-core kernel of issue 9 as the lowering
/// emits it (A/B of type T, accumulators of type Acc), 32 lanes.
/// A kernel from its text, launched as one block of one warp.
LoweredKernel oneWarpKernel(const std::string &Text) {
  LoweredKernel K;
  std::string Error;
  EXPECT_TRUE(ir::parseLoopNest(Text, K.Kernel, Error)) << Error;
  for (int D = 0; D < 3; ++D)
    K.Geometry.Grid[D] = K.Geometry.Block[D] = ir::makeInt(1);
  K.Geometry.Block[0] = ir::makeInt(32);
  return K;
}

LoweredKernel wmmaKernel(const std::string &T, const std::string &Acc) {
  std::string Zero = Acc == "float32" ? "0.0f" : "0";
  return oneWarpKernel(
      "func sched_wmma_nvrtc(A: " + T + "*[512] global, B: " + T + "*[256] global, C: " + Acc +
          "*[512] global) target=gpu {\n"
          "  for (lane, 0, 32) bind(threadIdx.x) {\n"
          "    allocate Bf: " + T + "[256] wmma.matrix_b {\n"
          "      eval wmma.load_b(Bf[0], B[0], 16, 1, 16, 16, 16)\n"
          "      allocate Af: " + T + "[512] wmma.matrix_a {\n"
          "        allocate Cf: " + Acc + "[512] wmma.accumulator {\n"
          "          for (v, 0, 2) {\n"
          "            eval wmma.load_a(Af[(v*256)], A[(v*256)], 16, 0, 16, 16, 16)\n"
          "            eval wmma.fill(Cf[(v*256)], " + Zero + ", 16, 16, 16)\n"
          "            eval wmma.mma(Cf[(v*256)], Af[(v*256)], Bf[0], Cf[(v*256)], 16, 16, 16)\n"
          "            eval wmma.store(C[(v*256)], Cf[(v*256)], 16, 0, 16, 16, 16)\n"
          "          }\n"
          "        }\n"
          "      }\n"
          "    }\n"
          "  }\n"
          "}\n");
}

TEST(RuntimeCudaTest, NvrtcCompilesWmmaKernelsForSm80AndSm90) {
  std::string Error;
  if (!cuda::nvrtc(Error))
    GTEST_SKIP() << "NVRTC is not installed: " << Error;
  for (const char *Types : {"float16 float32", "int8 int32", "uint8 int32"}) {
    std::string T = Types, Acc = T.substr(T.find(' ') + 1);
    T = T.substr(0, T.find(' '));
    LoweredKernel K = wmmaKernel(T, Acc);
    std::string CU = emitCUDA(K);
    ASSERT_NE(CU.find("#include <mma.h>"), std::string::npos) << CU;
    for (int Major : {8, 9}) {
      cuda::CompiledImage Image;
      ASSERT_TRUE(cuda::compileWithNvrtc(CU, K.Kernel.Name, Major, 0, Image, Error,
                                         minimumComputeCapability(K.Kernel)))
          << Types << ": " << Error << "\n" << CU;
      EXPECT_EQ(Image.Arch, "sm_" + std::to_string(Major * 10)) << Types;
      EXPECT_TRUE(Image.IsCubin) << Types;
      EXPECT_FALSE(Image.Image.empty()) << Types;
    }
  }
}

TEST(RuntimeCudaTest, WmmaKernelsNeedTheirArchitecture) {
  EXPECT_EQ(minimumComputeCapability(wmmaKernel("float16", "float32").Kernel), 70);
  EXPECT_EQ(minimumComputeCapability(wmmaKernel("int8", "int32").Kernel), 72);
  EXPECT_EQ(minimumComputeCapability(addOne().Kernel), 0);
  std::string Error;
  if (!cuda::nvrtc(Error))
    GTEST_SKIP() << "NVRTC is not installed: " << Error;
  LoweredKernel K = wmmaKernel("int8", "int32");
  cuda::CompiledImage Image;
  EXPECT_FALSE(cuda::compileWithNvrtc(emitCUDA(K), K.Kernel.Name, 7, 0, Image, Error,
                                      minimumComputeCapability(K.Kernel)));
  EXPECT_EQ(Error, "kernel 'sched_wmma_nvrtc' uses tensor cores (wmma or mma.sync), which need sm_72 or newer; "
                   "the device is sm_70");
}

//===--- The device against the target architecture (no GPU needed) -----===//

TargetArch arch(const char *Name) {
  TargetArch A;
  EXPECT_TRUE(parseTargetArch(Name, A)) << Name;
  return A;
}

/// chooseArch for a device of compute capability Device, NVRTC listing
/// Supported; "error: <message>" when the kernel may not run.
std::string choose(int Device, const TargetArch &Requested, int MinArch = 0,
                   const std::vector<int> &Supported = {75, 80, 86, 89, 90}) {
  cuda::ArchChoice C;
  std::string Error;
  if (!cuda::chooseArch("sched_k_3", Device, Requested, MinArch, Supported, C, Error))
    return "error: " + Error;
  return C.Arch + (C.Exact ? " cubin" : " ptx");
}

TEST(RuntimeCudaTest, DeviceOlderThanTheTargetArchIsAnError) {
  EXPECT_EQ(choose(80, arch("sm_90a")),
            "error: kernel 'sched_k_3' was built for sm_90a (-fplugin-arg-sched-arch=sm_90a), "
            "but the device is sm_80, which is older");
  EXPECT_EQ(choose(75, arch("sm_80")),
            "error: kernel 'sched_k_3' was built for sm_80 (-fplugin-arg-sched-arch=sm_80), "
            "but the device is sm_75, which is older");
  EXPECT_EQ(choose(86, arch("sm_89")).substr(0, 6), "error:");
}

TEST(RuntimeCudaTest, TargetArchIsCompiledExactlyOnItsMajorVersion) {
  EXPECT_EQ(choose(90, arch("sm_90a")), "sm_90a cubin");
  EXPECT_EQ(choose(90, arch("sm_90")), "sm_90 cubin");
  EXPECT_EQ(choose(80, arch("sm_80")), "sm_80 cubin");
  // An sm_80 cubin runs on sm_86 and sm_89: the target, not the device.
  EXPECT_EQ(choose(86, arch("sm_80")), "sm_80 cubin");
}

TEST(RuntimeCudaTest, NewerMajorVersionThanTheTargetArchGetsItsPtx) {
  EXPECT_EQ(choose(90, arch("sm_80")), "compute_80 ptx");
  EXPECT_EQ(choose(120, arch("sm_86")), "compute_86 ptx");
  EXPECT_EQ(choose(89, arch("sm_75"), 72), "compute_75 ptx");
}

TEST(RuntimeCudaTest, ArchSpecificTargetRunsOnItsOwnDeviceOnly) {
  EXPECT_EQ(choose(100, arch("sm_90a")),
            "error: kernel 'sched_k_3' was built for sm_90a (-fplugin-arg-sched-arch=sm_90a), "
            "whose architecture-specific code runs on sm_90 devices only; the device is sm_100");
}

TEST(RuntimeCudaTest, TargetArchNvrtcCannotCompileIsAnError) {
  EXPECT_EQ(choose(90, arch("sm_90"), 0, {75, 80, 86}),
            "error: kernel 'sched_k_3' was built for sm_90 (-fplugin-arg-sched-arch=sm_90), "
            "which this NVRTC cannot compile for");
  // An NVRTC that cannot list its architectures is trusted.
  EXPECT_EQ(choose(90, arch("sm_90"), 0, {}), "sm_90 cubin");
}

TEST(RuntimeCudaTest, TargetArchOlderThanTheKernelNeedsIsAnError) {
  EXPECT_EQ(choose(90, TargetArch{70, false}, 72),
            "error: kernel 'sched_k_3' uses tensor cores (wmma or mma.sync), which need sm_72 or newer; "
            "the target architecture is sm_70");
}

TEST(RuntimeCudaTest, WithoutTargetArchTheDeviceDecides) {
  EXPECT_EQ(choose(89, TargetArch()), "sm_89 cubin");
  // A device newer than NVRTC knows gets the newest PTX it has.
  EXPECT_EQ(choose(120, TargetArch()), "compute_90 ptx");
  EXPECT_EQ(choose(120, TargetArch(), 0, {}), "sm_120 cubin");
  EXPECT_EQ(choose(70, TargetArch(), 72),
            "error: kernel 'sched_k_3' uses tensor cores (wmma or mma.sync), which need sm_72 or newer; "
            "the device is sm_70");
}

TEST(RuntimeCudaTest, NvrtcCompilesWmmaKernelForSm90a) {
  std::string Error;
  if (!cuda::nvrtc(Error))
    GTEST_SKIP() << "NVRTC is not installed: " << Error;
  LoweredKernel K = wmmaKernel("float16", "float32");
  ASSERT_TRUE(parseTargetArch("sm_90a", K.Arch));
  std::string CU = emitCUDA(K);
  cuda::CompiledImage Image;
  ASSERT_TRUE(cuda::compileWithNvrtc(CU, K.Kernel.Name, 9, 0, Image, Error,
                                     minimumComputeCapability(K.Kernel), K.Arch))
      << Error << "\n" << CU;
  EXPECT_EQ(Image.Arch, "sm_90a");
  EXPECT_TRUE(Image.IsCubin);
  EXPECT_FALSE(Image.Image.empty());
  // The same kernel on an sm_86 device is refused before NVRTC runs.
  EXPECT_FALSE(cuda::compileWithNvrtc(CU, K.Kernel.Name, 8, 6, Image, Error,
                                      minimumComputeCapability(K.Kernel), K.Arch));
  EXPECT_EQ(Error, "kernel 'sched_wmma_nvrtc' was built for sm_90a "
                   "(-fplugin-arg-sched-arch=sm_90a), but the device is sm_86, which is older");
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
  D.Payload = emitCUDA(K);
  for (const ir::Param &P : K.Kernel.Params)
    D.ArgKinds.push_back(P.ParamKind == ir::Param::Kind::Scalar ? LaunchPlan::ArgKind::Scalar
                                                                : LaunchPlan::ArgKind::Array);
  LaunchPlan Plan;
  std::string PlanError;
  ASSERT_TRUE(planOf(D, Plan, PlanError)) << PlanError;
  cuda::KernelCache Cache;
  int32_t N = 1000;
  std::vector<float> A(N), Out(N, 0.0f);
  for (int I = 0; I < N; ++I)
    A[I] = 0.25f * I;
  std::string Error;
  bool Touched = false;
  ASSERT_TRUE(cuda::launch(Plan, Cache, {&N, A.data(), Out.data()}, Error, Touched)) << Error;
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(Out[I], A[I] + 1.0f) << "at " << I;
}

} // namespace

/// One warp on the mma.sync path: A and B staged in shared memory, ldmatrix
/// (row-major A, column-major B), mma.sync m16n8k16, the per-lane store.
LoweredKernel mmaSyncKernel() {
  return oneWarpKernel(
      "func sched_mma_nvrtc(A: float16*[256] global, B: float16*[128] global, C: float32*[128] "
      "global) target=gpu {\n"
      "  for (lane, 0, 32) bind(threadIdx.x) {\n"
      "    allocate As: float16[256] shared {\n"
      "      allocate Bs: float16[128] shared {\n"
      "        for (e, 0, 8) {\n"
      "          As[((e*32) + lane)] = A[((e*32) + lane)]\n"
      "        }\n"
      "        for (e, 0, 4) {\n"
      "          Bs[((e*32) + lane)] = B[((e*32) + lane)]\n"
      "        }\n"
      "        eval sched.syncthreads()\n"
      "        allocate Af: float16[256] wmma.matrix_a {\n"
      "          allocate Bf: float16[128] wmma.matrix_b {\n"
      "            allocate Cf: float32[128] wmma.accumulator {\n"
      "              eval mma.load_a(Af[0], As[0], 16, 0, 16, 8, 16)\n"
      "              eval mma.load_b(Bf[0], Bs[0], 16, 1, 16, 8, 16)\n"
      "              eval mma.fill(Cf[0], 0.0f, 16, 8, 16)\n"
      "              eval mma.mma(Cf[0], Af[0], Bf[0], Cf[0], 16, 8, 16)\n"
      "              eval mma.store(C[0], Cf[0], 8, 0, 16, 8, 16)\n"
      "            }\n"
      "          }\n"
      "        }\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "}\n");
}

TEST(RuntimeCudaTest, MmaSyncKernelNeedsSm80) {
  EXPECT_EQ(minimumComputeCapability(mmaSyncKernel().Kernel), 80);
}

TEST(RuntimeCudaTest, NvrtcCompilesMmaSyncKernelForSm80AndSm90) {
  std::string Error;
  if (!cuda::nvrtc(Error))
    GTEST_SKIP() << "NVRTC is not installed: " << Error;
  LoweredKernel K = mmaSyncKernel();
  std::string CU = emitCUDA(K);
  ASSERT_NE(CU.find("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), std::string::npos) << CU;
  for (int Major : {8, 9}) {
    cuda::CompiledImage Image;
    ASSERT_TRUE(cuda::compileWithNvrtc(CU, K.Kernel.Name, Major, 0, Image, Error,
                                       minimumComputeCapability(K.Kernel)))
        << Error << "\n" << CU;
    EXPECT_EQ(Image.Arch, "sm_" + std::to_string(Major * 10));
    EXPECT_TRUE(Image.IsCubin);
    EXPECT_FALSE(Image.Image.empty());
  }
}
