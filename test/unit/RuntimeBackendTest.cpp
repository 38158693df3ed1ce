//===- RuntimeBackendTest.cpp - __sched_launch and backend selection ------===//
//
// Drives the runtime the way generated code does: a serialized launch
// descriptor and the addresses of the parameters' storage. Checks the
// SCHED_BACKEND rules, that host returns 0 so the original loop runs, that
// sim runs the kernel, that a launch shape outside CUDA's limits runs the
// original loop, and what a failed launch does: one that has not touched the
// program's data reports itself once and runs the original loop, one that
// may have written it aborts naming the kernel and line. Nothing exits.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"
#include "SchedRuntime.h"
#include "SimTestUtil.h"
#include "cuda/CudaBackend.h"

#include "ir/LaunchDescriptor.h"
#include "ir/LaunchLimits.h"

#include <gtest/gtest.h>

#include <csignal>
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

using ArgKind = LaunchDescriptor::ArgKind;

/// The descriptor text for K with args of Kinds (by default scaleAdd's: n:
/// scalar, A: pointer, B: array, Out: pointer), kept alive for the process
/// like a string literal.
const char *descriptorFor(const LoweredKernel &K,
                          std::vector<ArgKind> Kinds = {ArgKind::Scalar, ArgKind::Pointer,
                                                        ArgKind::Array, ArgKind::Pointer}) {
  LaunchDescriptor D;
  D.Kernel = K;
  D.ArgKinds = Kinds;
  D.Payload = "// not compiled in these tests\n";
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
  LaunchPlan D;
  D.Params.resize(3);
  D.Params[0].Arg = LaunchPlan::ArgKind::Pointer;
  D.Params[1].Arg = LaunchPlan::ArgKind::Array;
  D.Params[2].Arg = LaunchPlan::ArgKind::Scalar;
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

/// How often Needle occurs in Text.
size_t occurrences(const std::string &Text, const std::string &Needle) {
  size_t Count = 0;
  for (size_t At = Text.find(Needle); At != std::string::npos; At = Text.find(Needle, At + 1))
    ++Count;
  return Count;
}

// The decision behind what a program sees: a failure before the kernel ran on
// the program's buffers leaves them as they were (the original loop is still
// right); one found while it ran may have written them.
TEST_F(RuntimeBackendTest, FailuresSayWhetherTheProgramsDataWasTouched) {
  fillInputs();
  std::string Where, Error;
  void *Args[] = {&N, &A, B, &Out};
  // sim sets up the launch before any block runs: a null buffer it needs.
  float *Null = nullptr;
  void *NullArgs[] = {&N, &Null, B, &Out};
  EXPECT_EQ(runtime::launchKernel(descriptorFor(scaleAdd(true)), NullArgs, BackendKind::Sim,
                                  Where, Error),
            runtime::LaunchResult::FailedUntouched);
  EXPECT_NE(Error.find("argument for parameter 'A' is null"), std::string::npos) << Error;
  // An access out of bounds is found while the kernel runs in place.
  EXPECT_EQ(runtime::launchKernel(descriptorFor(scaleAdd(false)), Args, BackendKind::Sim, Where,
                                  Error),
            runtime::LaunchResult::Failed);
  EXPECT_NE(Error.find("out-of-bounds load from global buffer 'A' at index 10"),
            std::string::npos)
      << Error;
  // A descriptor that does not parse fails before any backend.
  EXPECT_EQ(runtime::launchKernel("not a descriptor", Args, BackendKind::Sim, Where, Error),
            runtime::LaunchResult::FailedUntouched);
}

TEST_F(RuntimeBackendTest, UntouchedFailureRunsTheOriginalLoopReportingItOnce) {
  useBackend("sim");
  fillInputs();
  const char *Desc = descriptorFor(scaleAdd(true));
  A = nullptr; // the kernel reads A[0..9]: sim refuses before running
  ::testing::internal::CaptureStderr();
  int First = launch(Desc), Second = launch(Desc);
  std::string Err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(First, 0);
  EXPECT_EQ(Second, 0);
  EXPECT_EQ(Out[0], -7.0f); // the caller's original loop does the work
  EXPECT_EQ(occurrences(Err, "sched: sched_scale_add_42 (scale.cpp:42): argument for parameter "
                             "'A' is null, but the kernel touches 10 of its elements; ran the "
                             "original loop instead\n"),
            1u)
      << Err;
  EXPECT_EQ(occurrences(Err, "sched:"), 1u) << Err;
}

/// Each failure after the first is said at SCHED_VERBOSE=2 (every launch);
/// SCHED_VERBOSE=1 says what a nest did once.
TEST_F(RuntimeBackendTest, LaterUntouchedFailuresAreSaidUnderVerbose) {
  useBackend("sim");
  setenv("SCHED_VERBOSE", "2", 1);
  fillInputs();
  const char *Desc = descriptorFor(scaleAdd(true));
  A = nullptr;
  ::testing::internal::CaptureStderr();
  launch(Desc);
  launch(Desc);
  std::string Err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(occurrences(Err, "; ran the original loop instead"), 1u) << Err;
  EXPECT_EQ(occurrences(Err, "sched: sched_scale_add_42 (scale.cpp:42): ran the original loop on "
                             "host: argument for parameter 'A' is null"),
            1u)
      << Err;
}

TEST_F(RuntimeBackendTest, TouchedFailureAbortsNamingKernelAndLine) {
  useBackend("sim");
  fillInputs();
  const char *Desc = descriptorFor(scaleAdd(/*Guarded=*/false)); // n = 10: 12 threads
  EXPECT_EXIT(launch(Desc), ::testing::KilledBySignal(SIGABRT),
              "sched: sched_scale_add_42 \\(scale.cpp:42\\): out-of-bounds load from global "
              "buffer 'A' at index 10");
}

// An unknown value touches nothing: said once, and every nest runs its
// original loop (the child's stderr has the message once, then ours).
TEST_F(RuntimeBackendTest, UnknownBackendRunsTheOriginalLoopsSayingSoOnce) {
  useBackend("gpu");
  fillInputs();
  const char *Desc = descriptorFor(scaleAdd(true));
  auto LaunchTwice = [&] {
    int First = launch(Desc);
    int Second = launch(Desc);
    std::fprintf(stderr, "returned %d %d, Out[0] %g\n", First, Second, Out[0]);
    std::exit(0);
  };
  EXPECT_EXIT(LaunchTwice(), ::testing::ExitedWithCode(0),
      "sched: SCHED_BACKEND='gpu' is not one of auto, cuda, sim, emu, host; the annotated loops run "
      "as written\nreturned 0 0, Out\\[0\\] -7");
}

TEST_F(RuntimeBackendTest, InvalidDescriptorRunsTheOriginalLoopWithMessage) {
  useBackend("sim");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(__sched_launch("not a descriptor either"), 0);
  std::string Err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("sched: <unknown kernel>: invalid launch descriptor: "), std::string::npos)
      << Err;
}

TEST_F(RuntimeBackendTest, CudaWithoutDriverReportsOnceAndRunsTheOriginalLoop) {
  std::string Why;
  if (cuda::loadDriver(Why))
    GTEST_SKIP() << "a CUDA driver is present on this machine";
  useBackend("cuda");
  fillInputs();
  const char *Desc = descriptorFor(scaleAdd(true));
  ::testing::internal::CaptureStderr();
  int First = launch(Desc), Second = launch(Desc);
  std::string Err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(First, 0);
  EXPECT_EQ(Second, 0);
  EXPECT_EQ(Out[0], -7.0f);
  EXPECT_EQ(Err, "sched: sched_scale_add_42 (scale.cpp:42): " + Why +
                     "; ran the original loop instead\n");
}

/// Out[i * n + j] = i + 2 * j + 1 in one block of n x n threads, or of n
/// threads in z (each running the j loop).
LoweredKernel squareBlock(bool ThreadsInZ) {
  KernelBuilder KB("sched_square_block_7");
  KB.K.Kernel.SourceFile = "square.cpp";
  KB.K.Kernel.SourceLine = 7;
  Var N = KB.scalar("n");
  Buffer Out = KB.buffer("Out", DType::Float32, N * N, false, true);
  if (ThreadsInZ)
    KB.K.Geometry.Block[2] = N;
  else
    KB.block(N, N);
  Var I = makeVar("i"), J = makeVar("j");
  Stmt Body = makeStore(Out, {I * N + J}, makeCast(DType::Float32, I + J * i32(2) + i32(1)));
  if (ThreadsInZ)
    return KB.done(bound(I, N, "threadIdx.z", makeFor(J, i32(0), N, Body)));
  return KB.done(bound(I, N, "threadIdx.y", bound(J, N, "threadIdx.x", Body)));
}

// Issue 17, item 5: a launch shape no device takes is a failed run-time
// assumption like the others, on sim as under host: the original loop runs
// and SCHED_VERBOSE says why.
TEST_F(RuntimeBackendTest, BlockOverCudasLimitsRunsTheOriginalLoop) {
  useBackend("sim");
  setenv("SCHED_VERBOSE", "1", 1);
  for (bool ThreadsInZ : {false, true}) {
    const char *Desc = descriptorFor(squareBlock(ThreadsInZ), {ArgKind::Scalar, ArgKind::Pointer});
    int32_t Side = ThreadsInZ ? 65 : 33;
    std::vector<float> Square(Side * Side, -1.0f);
    float *Data = Square.data();
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(__sched_launch(Desc, &Side, &Data), 0);
    std::string Err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(Square[1], -1.0f);
    EXPECT_NE(Err.find("sched: sched_square_block_7 (square.cpp:7): ran the original loop on "
                       "host: " +
                       std::string(ThreadsInZ ? "the block (1 x 1 x 65) has 65 threads in z, "
                                                "over CUDA's limit of 64"
                                              : "a block of 1089 threads (33 x 33 x 1) exceeds "
                                                "CUDA's limit of 1024 threads per block")),
              std::string::npos)
        << Err;
    Side = ThreadsInZ ? 64 : 32; // within the limits: the kernel runs
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(__sched_launch(Desc, &Side, &Data), 1);
    Err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(Square[1], 3.0f) << Err;
  }
}

/// Out[t] = t through a shared array of Words floats, one block of n threads.
LoweredKernel throughSharedArray(int64_t Words) {
  KernelBuilder KB("sched_through_shared_9");
  KB.K.Kernel.SourceFile = "shared.cpp";
  KB.K.Kernel.SourceLine = 9;
  Var N = KB.scalar("n");
  Buffer Out = KB.buffer("Out", DType::Float32, N, false, true);
  Buffer S = makeBuffer("S", DType::Float32, {i32(Words)}, Scope::Shared);
  KB.block(N);
  Var Tx = makeVar("tx");
  Stmt Body = makeSeq({makeStore(S, {Tx}, makeCast(DType::Float32, Tx)),
                       makeStore(Out, {Tx}, makeLoad(S, {Tx}))});
  return KB.done(makeAllocate(S, bound(Tx, N, "threadIdx.x", Body)));
}

TEST_F(RuntimeBackendTest, SharedArraysOverCudasLimitRunTheOriginalLoop) {
  useBackend("sim");
  setenv("SCHED_VERBOSE", "1", 1);
  int32_t Threads = 4;
  std::vector<float> Result(4, -1.0f);
  float *Data = Result.data();
  const std::vector<ArgKind> Kinds = {ArgKind::Scalar, ArgKind::Pointer};
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(__sched_launch(descriptorFor(throughSharedArray(12289), Kinds), &Threads, &Data), 0);
  std::string Err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(Result[3], -1.0f);
  EXPECT_NE(Err.find("sched: sched_through_shared_9 (shared.cpp:9): ran the original loop on "
                     "host: the kernel's shared arrays take 49156 bytes, over CUDA's limit of "
                     "49152 bytes of static shared memory per block"),
            std::string::npos)
      << Err;
  EXPECT_EQ(__sched_launch(descriptorFor(throughSharedArray(12288), Kinds), &Threads, &Data), 1);
  EXPECT_EQ(Result[3], 3.0f);
}

TEST(LaunchLimits, EachLimitIsNamed) {
  const int64_t One[3] = {1, 1, 1};
  const int64_t Fits[3] = {32, 32, 1}, TooMany[3] = {64, 32, 1}, DeepZ[3] = {1, 2, 65},
                WideX[3] = {1025, 1, 1};
  EXPECT_EQ(ir::launchShapeProblem(One, Fits, 48 * 1024), "");
  EXPECT_EQ(ir::launchShapeProblem(One, TooMany, 0),
            "a block of 2048 threads (64 x 32 x 1) exceeds CUDA's limit of 1024 threads per "
            "block");
  EXPECT_EQ(ir::launchShapeProblem(One, DeepZ, 0),
            "the block (1 x 2 x 65) has 65 threads in z, over CUDA's limit of 64");
  EXPECT_EQ(ir::launchShapeProblem(One, WideX, 0),
            "the block (1025 x 1 x 1) has 1025 threads in x, over CUDA's limit of 1024");
  const int64_t GridX[3] = {2147483647, 65535, 65535}, GridY[3] = {1, 65536, 1},
                GridZ[3] = {1, 1, 65536}, GridXOver[3] = {2147483648, 1, 1};
  EXPECT_EQ(ir::launchShapeProblem(GridX, One, 0), "");
  EXPECT_EQ(ir::launchShapeProblem(GridY, One, 0),
            "the grid (1 x 65536 x 1) has 65536 blocks in y, over CUDA's limit of 65535");
  EXPECT_EQ(ir::launchShapeProblem(GridZ, One, 0),
            "the grid (1 x 1 x 65536) has 65536 blocks in z, over CUDA's limit of 65535");
  EXPECT_EQ(ir::launchShapeProblem(GridXOver, One, 0),
            "the grid (2147483648 x 1 x 1) has 2147483648 blocks in x, over CUDA's limit of "
            "2147483647");
  EXPECT_EQ(ir::launchShapeProblem(One, One, 48 * 1024 + 1),
            "the kernel's shared arrays take 49153 bytes, over CUDA's limit of 49152 bytes of "
            "static shared memory per block");
  EXPECT_EQ(ir::launchShapeProblem(One, One, -1), ""); // unknown: not checked
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
