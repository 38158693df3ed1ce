//===- RuntimeBackendTest.cpp - __sched_launch and backend selection ------===//
//
// Drives the runtime the way generated code does: a serialized launch
// descriptor and the addresses of the parameters' storage. Checks the
// SCHED_BACKEND rules, that host returns 0 so the original loop runs, that
// sim runs the kernel, and that failures exit naming the kernel and line.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"
#include "SchedRuntime.h"
#include "SimTestUtil.h"
#include "cuda/CudaBackend.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace sched;
using namespace sched::ir;
using namespace sched::simtest;
using runtime::BackendKind;

namespace {

/// Out[i] = A[i] * 2 + B[i] for i < n, one thread per element in blocks of
/// 4, with a guard when Guarded.
LoweredKernel scaleAdd(bool Guarded) {
  KernelBuilder KB("sched_scale_add_42");
  KB.K.Kernel.SourceFile = "scale.cpp";
  KB.K.Kernel.SourceLine = 42;
  Var N = KB.scalar("n");
  Buffer A = KB.buffer("A", DType::Float32, N, true, false);
  Buffer B = KB.buffer("B", DType::Float32, N, true, false);
  Buffer Out = KB.buffer("Out", DType::Float32, N, false, true);
  Expr Blocks = (N + i32(3)) / i32(4);
  KB.grid(Blocks);
  KB.block(i32(4));
  Var Bx = makeVar("bx"), Tx = makeVar("tx"), I = makeVar("i");
  Stmt Compute =
      makeStore(Out, {I}, makeLoad(A, {I}) * makeFloat(2.0) + makeLoad(B, {I}));
  if (Guarded)
    Compute = makeIf(I < N, Compute);
  return KB.done(bound(Bx, Blocks, "blockIdx.x",
                       bound(Tx, i32(4), "threadIdx.x",
                             makeLet(I, Bx * i32(4) + Tx, Compute))));
}

/// The descriptor text for K with args (n: scalar, A: pointer, B: array,
/// Out: pointer), kept alive for the process like a string literal.
const char *descriptorFor(const LoweredKernel &K) {
  LaunchDescriptor D;
  D.Kernel = K;
  D.ArgKinds = {LaunchDescriptor::ArgKind::Scalar, LaunchDescriptor::ArgKind::Pointer,
                LaunchDescriptor::ArgKind::Array, LaunchDescriptor::ArgKind::Pointer};
  D.CUDASource = "// not compiled in these tests\n";
  static std::vector<std::string> *Keep = new std::vector<std::string>();
  Keep->push_back(serializeDescriptor(D));
  return Keep->back().c_str();
}

/// Sets SCHED_BACKEND / SCHED_VERBOSE for one test and restores them.
class RuntimeBackendTest : public ::testing::Test {
protected:
  void SetUp() override {
    save("SCHED_BACKEND", SavedBackend);
    save("SCHED_VERBOSE", SavedVerbose);
    unsetenv("SCHED_VERBOSE");
  }
  void TearDown() override {
    restore("SCHED_BACKEND", SavedBackend);
    restore("SCHED_VERBOSE", SavedVerbose);
  }
  static void useBackend(const char *Name) { setenv("SCHED_BACKEND", Name, 1); }

  /// Inputs for scaleAdd with n = 10.
  int32_t N = 10;
  float B[10];
  std::vector<float> AStore = std::vector<float>(10), OutStore = std::vector<float>(10, -7.0f);
  float *A = AStore.data();
  float *Out = OutStore.data();

  void fillInputs() {
    for (int I = 0; I < N; ++I) {
      A[I] = 1.5f * I;
      B[I] = 100.0f + I;
    }
  }

  int launch(const char *Desc) { return __sched_launch(Desc, &N, &A, B, &Out); }

private:
  struct Saved {
    bool Set = false;
    std::string Value;
  };
  static void save(const char *Name, Saved &S) {
    const char *V = std::getenv(Name);
    S.Set = V != nullptr;
    S.Value = V ? V : "";
  }
  static void restore(const char *Name, const Saved &S) {
    if (S.Set)
      setenv(Name, S.Value.c_str(), 1);
    else
      unsetenv(Name);
  }
  Saved SavedBackend, SavedVerbose;
};

TEST(RuntimeBackendNames, ParseKnownNamesAndRejectOthers) {
  BackendKind K;
  ASSERT_TRUE(runtime::parseBackendName(nullptr, K));
  EXPECT_EQ(K, BackendKind::Auto);
  ASSERT_TRUE(runtime::parseBackendName("", K));
  EXPECT_EQ(K, BackendKind::Auto);
  ASSERT_TRUE(runtime::parseBackendName("auto", K));
  EXPECT_EQ(K, BackendKind::Auto);
  ASSERT_TRUE(runtime::parseBackendName("cuda", K));
  EXPECT_EQ(K, BackendKind::Cuda);
  ASSERT_TRUE(runtime::parseBackendName("sim", K));
  EXPECT_EQ(K, BackendKind::Sim);
  ASSERT_TRUE(runtime::parseBackendName("host", K));
  EXPECT_EQ(K, BackendKind::Host);
  EXPECT_FALSE(runtime::parseBackendName("gpu", K));
  EXPECT_FALSE(runtime::parseBackendName("SIM", K));
}

TEST(RuntimeBackendNames, AutoPicksCudaOnlyWhenADeviceIsPresent) {
  EXPECT_EQ(runtime::resolveBackend(BackendKind::Auto, true), BackendKind::Cuda);
  EXPECT_EQ(runtime::resolveBackend(BackendKind::Auto, false), BackendKind::Host);
  EXPECT_EQ(runtime::resolveBackend(BackendKind::Sim, true), BackendKind::Sim);
  EXPECT_EQ(runtime::resolveBackend(BackendKind::Cuda, false), BackendKind::Cuda);
}

TEST(RuntimeBackendNames, PointerArgumentsAreDereferencedOthersAreNot) {
  LaunchDescriptor D;
  D.ArgKinds = {LaunchDescriptor::ArgKind::Pointer, LaunchDescriptor::ArgKind::Array,
                LaunchDescriptor::ArgKind::Scalar};
  float Data[2], Arr[2];
  float *Ptr = Data;
  int Scalar = 3;
  void *Args[] = {&Ptr, Arr, &Scalar};
  std::vector<void *> P = runtime::paramDataFromArgs(D, Args);
  EXPECT_EQ(P[0], static_cast<void *>(Data));
  EXPECT_EQ(P[1], static_cast<void *>(Arr));
  EXPECT_EQ(P[2], static_cast<void *>(&Scalar));
}

TEST_F(RuntimeBackendTest, HostReturnsZeroAndRunsNothing) {
  useBackend("host");
  fillInputs();
  EXPECT_EQ(launch(descriptorFor(scaleAdd(true))), 0);
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(Out[I], -7.0f); // the caller's original loop does the work
}

TEST_F(RuntimeBackendTest, SimRunsTheKernelAndReturnsOne) {
  useBackend("sim");
  fillInputs();
  EXPECT_EQ(launch(descriptorFor(scaleAdd(true))), 1);
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(Out[I], A[I] * 2.0f + B[I]) << "at " << I;
}

TEST_F(RuntimeBackendTest, SameDescriptorLaunchesTwiceWithNewArguments) {
  useBackend("sim");
  fillInputs();
  const char *Desc = descriptorFor(scaleAdd(true));
  ASSERT_EQ(launch(Desc), 1);
  N = 5; // a different scalar: geometry and regions are re-evaluated
  for (int I = 0; I < 10; ++I)
    Out[I] = -1.0f;
  ASSERT_EQ(launch(Desc), 1);
  EXPECT_EQ(Out[4], A[4] * 2.0f + B[4]);
  EXPECT_EQ(Out[5], -1.0f);
}

TEST_F(RuntimeBackendTest, VerboseSaysWhichBackendRan) {
  useBackend("sim");
  setenv("SCHED_VERBOSE", "1", 1);
  fillInputs();
  ::testing::internal::CaptureStderr();
  launch(descriptorFor(scaleAdd(true)));
  std::string Err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("sched: sched_scale_add_42 (scale.cpp:42): ran on sim"), std::string::npos)
      << Err;
}

TEST_F(RuntimeBackendTest, SimErrorExitsNamingKernelAndLine) {
  useBackend("sim");
  fillInputs();
  const char *Desc = descriptorFor(scaleAdd(/*Guarded=*/false)); // n = 10: 12 threads
  EXPECT_EXIT(launch(Desc), ::testing::ExitedWithCode(1),
              "sched: sched_scale_add_42 \\(scale.cpp:42\\): out-of-bounds load from global "
              "buffer 'A' at index 10");
}

TEST_F(RuntimeBackendTest, UnknownBackendExitsWithMessage) {
  useBackend("gpu");
  fillInputs();
  EXPECT_EXIT(launch(descriptorFor(scaleAdd(true))), ::testing::ExitedWithCode(1),
              "SCHED_BACKEND='gpu' is not one of auto, cuda, sim, emu, host");
}

TEST_F(RuntimeBackendTest, InvalidDescriptorExitsWithMessage) {
  useBackend("sim");
  EXPECT_EXIT(__sched_launch("not a descriptor"), ::testing::ExitedWithCode(1),
              "invalid launch descriptor");
}

TEST_F(RuntimeBackendTest, CudaWithoutDriverExitsWithClearError) {
  std::string Why;
  if (cuda::loadDriver(Why))
    GTEST_SKIP() << "a CUDA driver is present on this machine";
  useBackend("cuda");
  fillInputs();
  EXPECT_EXIT(launch(descriptorFor(scaleAdd(true))), ::testing::ExitedWithCode(1),
              "sched: sched_scale_add_42 \\(scale.cpp:42\\): no CUDA driver "
              "\\(libcuda.so.1 not found\\)");
}

TEST_F(RuntimeBackendTest, AutoWithoutDeviceRunsTheHostLoop) {
  if (cuda::deviceAvailable())
    GTEST_SKIP() << "a CUDA device is present on this machine";
  useBackend("auto");
  fillInputs();
  EXPECT_EQ(launch(descriptorFor(scaleAdd(true))), 0);
  EXPECT_EQ(Out[0], -7.0f);
}

} // namespace
