//===- VtaLauncherTest.cpp - Final-form VTA programs run on the VTA runtime -===//
//
// A target(vta) nest in final form (ir/Vta.h) lowers (VerifyVtaProgram),
// travels in a launch descriptor, and runs under SCHED_BACKEND=sim on the
// VTA runtime over its simulator (runtime/vta/VtaLauncher): the tutorials'
// GEMM and vector add against references computed here, with the
// simulator's statistics; uop kernels selected by a signature; padding; a
// runtime error failing the launch.
//
//===----------------------------------------------------------------------===//
#include "LoweringTestUtil.h"
#include "Pipeline.h"
#include "Compile.h"
#include "ir/LaunchDescriptor.h"
#include "Backend.h"
#include "ir/Vta.h"
#include "vta/vta_runtime.h"

#include <gtest/gtest.h>
#include <random>

using namespace sched;
using namespace sched::lowertest;

namespace {

const char *TutorialGemm =
    "func gemm(A: int8*[1, 16, 1, 16] global, B: int8*[16, 16, 16, 16] global, C: int8*[1, 16, "
    "1, 16] global) target=vta {\n"
    "  eval vta.PushGEMMOp(1, 1, 16, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0)\n"
    "  eval vta.dep_push(2, 1)\n"
    "  for (ko, 0, 16) {\n"
    "    eval vta.dep_pop(2, 1)\n"
    "    eval vta.LoadBuffer2D(A[0, 0, 0, 0], ko, 1, 1, 1, 0, 0, 0, 0, 0, 2)\n"
    "    eval vta.LoadBuffer2D(B[0, 0, 0, 0], ko, 1, 16, 16, 0, 0, 0, 0, 0, 1)\n"
    "    eval vta.dep_push(1, 2)\n"
    "    eval vta.dep_pop(1, 2)\n"
    "    eval vta.PushGEMMOp(0, 1, 16, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0)\n"
    "    eval vta.dep_push(2, 1)\n"
    "  }\n"
    "  eval vta.dep_push(2, 3)\n"
    "  eval vta.dep_pop(2, 1)\n"
    "  eval vta.dep_pop(2, 3)\n"
    "  eval vta.StoreBuffer2D(0, 4, C[0, 0, 0, 0], 0, 16, 1, 16)\n"
    "  eval vta.synchronize()\n"
    "}\n";

const char *TutorialVectorAdd =
    "func vadd(A: int32*[1, 64, 1, 16] global, B: int32*[1, 64, 1, 16] global, C: int8*[1, 64, "
    "1, 16] global) target=vta {\n"
    "  eval vta.LoadBuffer2D(A[0, 0, 0, 0], 0, 64, 1, 64, 0, 0, 0, 0, 0, 3)\n"
    "  eval vta.LoadBuffer2D(B[0, 0, 0, 0], 0, 64, 1, 64, 0, 0, 0, 0, 64, 3)\n"
    "  eval vta.PushALUOp(2, 0, 0, 1, 64, 1, 1, 0, 0, 0, 0, 64)\n"
    "  eval vta.dep_push(2, 3)\n"
    "  eval vta.dep_pop(2, 3)\n"
    "  eval vta.StoreBuffer2D(0, 4, C[0, 0, 0, 0], 0, 64, 1, 64)\n"
    "  eval vta.synchronize()\n"
    "}\n";

/// The descriptor text of Program compiled (every parameter a pointer);
/// kept alive for the process (the runtime keys launch sites by address).
const char *descriptorOf(const char *Program) {
  CompiledNest C;
  bool Compiled = compileNest(parseNest(Program), CompileOptions(), C);
  EXPECT_TRUE(Compiled) << (C.Failure.empty() ? "" : C.Failure[0].Message);
  LaunchDescriptor &D = C.Descriptor;
  D.ArgKinds.assign(D.Kernel.Kernel.Params.size(), LaunchDescriptor::ArgKind::Pointer);
  return (new std::string(serializeDescriptor(D)))->c_str();
}

std::string launchOnSim(const char *Descriptor, std::vector<void *> Pointers) {
  std::vector<void *> Args;
  for (void *&P : Pointers)
    Args.push_back(&P);
  std::string Where, Error;
  runtime::LaunchResult R =
      runtime::launchKernel(Descriptor, Args.data(), runtime::BackendKind::Sim, Where, Error);
  if (R == runtime::LaunchResult::RanOnBackend)
    return "";
  // A VTA launch copies nothing back unless the whole program ran: its
  // failures never touch the program's data (the original loop then runs).
  EXPECT_NE(R, runtime::LaunchResult::Failed) << Error;
  return R == runtime::LaunchResult::FailedUntouched ? Error : "ran the host loop";
}

TEST(VtaLauncherTest, TutorialGemmMatchesReferenceWithTheTutorialsStatistics) {
  static const char *Descriptor = descriptorOf(TutorialGemm);
  std::mt19937 Rng(11);
  std::uniform_int_distribution<int> Int8(-128, 127);
  // The tutorial's data: A (1, 256) and B (256, 256) row-major, packed as
  // A (1, 16, 1, 16) (the same bytes) and B (16 co, 16 ko, 16 ci, 16 ki).
  std::vector<int8_t> A(256), BOrig(256 * 256), B(256 * 256), C(256, 0x55);
  for (int8_t &V : A)
    V = int8_t(Int8(Rng));
  for (int8_t &V : BOrig)
    V = int8_t(Int8(Rng));
  for (int J = 0; J < 256; ++J)
    for (int K = 0; K < 256; ++K)
      B[((J / 16 * 16 + K / 16) * 16 + J % 16) * 16 + K % 16] = BOrig[J * 256 + K];
  VTASchedResetStats();
  ASSERT_EQ(launchOnSim(Descriptor, {A.data(), B.data(), C.data()}), "");
  for (int J = 0; J < 256; ++J) {
    int32_t Sum = 0;
    for (int K = 0; K < 256; ++K)
      Sum += int32_t(A[K]) * int32_t(BOrig[J * 256 + K]);
    ASSERT_EQ(C[J], int8_t(Sum)) << "C[" << J << "]";
  }
  VTASchedStats S;
  VTASchedGetStats(&S);
  EXPECT_EQ(S.gemm_counter, 256u);
  EXPECT_EQ(S.wgt_load_nbytes, 65536u);
  EXPECT_EQ(S.uop_load_nbytes, 8u);
  EXPECT_EQ(S.inp_load_nbytes, 256u);
  EXPECT_EQ(S.out_store_nbytes, 256u);
  EXPECT_EQ(S.alu_counter, 0u);
}

TEST(VtaLauncherTest, TutorialVectorAddMatchesReferenceOnTheAlu) {
  static const char *Descriptor = descriptorOf(TutorialVectorAdd);
  std::mt19937 Rng(12);
  std::uniform_int_distribution<int32_t> Int(-100000, 100000);
  std::vector<int32_t> A(1024), B(1024);
  std::vector<int8_t> C(1024, 0x55);
  for (size_t I = 0; I < A.size(); ++I) {
    A[I] = Int(Rng);
    B[I] = Int(Rng);
  }
  VTASchedResetStats();
  ASSERT_EQ(launchOnSim(Descriptor, {A.data(), B.data(), C.data()}), "");
  for (size_t I = 0; I < C.size(); ++I)
    ASSERT_EQ(C[I], int8_t(A[I] + B[I])) << "C[" << I << "]";
  VTASchedStats S;
  VTASchedGetStats(&S);
  EXPECT_EQ(S.alu_counter, 64u);
  EXPECT_EQ(S.acc_load_nbytes, 8192u);
  EXPECT_EQ(S.uop_load_nbytes, 4u);
  EXPECT_EQ(S.out_store_nbytes, 1024u);
}

// The uop kernel's indices use the host loop's c: one kernel per value of c
// (its 4-byte signature), each adding 7 to its own half of the acc.
TEST(VtaLauncherTest, SignatureSelectsOneUopKernelPerHostLoopValue) {
  static const char *Descriptor = descriptorOf(
      "func add7(A: int32*[64, 16] global, C: int8*[64, 16] global) target=vta {\n"
      "  eval vta.LoadBuffer2D(A[0, 0], 0, 64, 1, 64, 0, 0, 0, 0, 0, 3)\n"
      "  for (c, 0, 2) {\n"
      "    eval vta.PushALUOp(2, 1, 7, 1, 32, 1, 0, 0, 0, 0, (c*32), 0)\n"
      "  }\n"
      "  eval vta.dep_push(2, 3)\n"
      "  eval vta.dep_pop(2, 3)\n"
      "  eval vta.StoreBuffer2D(0, 4, C[0, 0], 0, 64, 1, 64)\n"
      "  eval vta.synchronize()\n"
      "}\n");
  std::vector<int32_t> A(1024);
  std::vector<int8_t> C(1024);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = int32_t(I % 97) - 40;
  ASSERT_EQ(launchOnSim(Descriptor, {A.data(), C.data()}), "");
  for (size_t I = 0; I < C.size(); ++I)
    ASSERT_EQ(C[I], int8_t(A[I] + 7)) << "C[" << I << "]";
}

// A LOAD's padding writes zero elements into the SRAM around the data.
TEST(VtaLauncherTest, LoadPaddingWritesZeroElements) {
  static const char *Descriptor = descriptorOf(
      "func pad(A: int32*[4, 16] global, C: int8*[6, 16] global) target=vta {\n"
      "  eval vta.LoadBuffer2D(A[0, 0], 0, 4, 1, 4, 1, 0, 1, 0, 0, 3)\n"
      "  eval vta.dep_push(2, 3)\n"
      "  eval vta.dep_pop(2, 3)\n"
      "  eval vta.StoreBuffer2D(0, 4, C[0, 0], 0, 6, 1, 6)\n"
      "  eval vta.synchronize()\n"
      "}\n");
  std::vector<int32_t> A(64);
  std::vector<int8_t> C(96, 0x55);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = int32_t(I) + 1;
  ASSERT_EQ(launchOnSim(Descriptor, {A.data(), C.data()}), "");
  for (size_t I = 0; I < C.size(); ++I) {
    int8_t Expected = I < 16 || I >= 80 ? 0 : int8_t(A[I - 16]);
    ASSERT_EQ(C[I], Expected) << "C[" << I << "]";
  }
}

// A pop no push satisfies: the runtime reports a deadlock, the launch fails
// with its message and C keeps its contents.
TEST(VtaLauncherTest, RuntimeErrorFailsTheLaunchAndCopiesNothingBack) {
  static const char *Descriptor = descriptorOf(
      "func deadlock(A: int32*[1, 16] global, C: int8*[1, 16] global) target=vta {\n"
      "  eval vta.LoadBuffer2D(A[0, 0], 0, 1, 1, 1, 0, 0, 0, 0, 0, 3)\n"
      "  eval vta.dep_pop(3, 2)\n"
      "  eval vta.PushALUOp(2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0)\n"
      "  eval vta.dep_push(2, 3)\n"
      "  eval vta.dep_pop(2, 3)\n"
      "  eval vta.StoreBuffer2D(0, 4, C[0, 0], 0, 1, 1, 1)\n"
      "  eval vta.synchronize()\n"
      "}\n");
  std::vector<int32_t> A(16, 3);
  std::vector<int8_t> C(16, 0x55);
  std::string Error = launchOnSim(Descriptor, {A.data(), C.data()});
  EXPECT_NE(Error.find("the VTA runtime reports:"), std::string::npos) << Error;
  EXPECT_EQ(C, std::vector<int8_t>(16, 0x55));
  // The next launch starts clean.
  static const char *Good = descriptorOf(TutorialVectorAdd);
  std::vector<int32_t> X(1024, 1), Y(1024, 2);
  std::vector<int8_t> Z(1024);
  EXPECT_EQ(launchOnSim(Good, {X.data(), Y.data(), Z.data()}), "");
  EXPECT_EQ(Z, std::vector<int8_t>(1024, 3));
}

runtime::LaunchResult launchVectorAddOn(runtime::BackendKind B, std::vector<int8_t> &C) {
  static const char *Descriptor = descriptorOf(TutorialVectorAdd);
  std::vector<int32_t> A(1024, 5), Bv(1024, 6);
  C.assign(1024, 0);
  std::vector<void *> Pointers = {A.data(), Bv.data(), C.data()};
  std::vector<void *> Args;
  for (void *&P : Pointers)
    Args.push_back(&P);
  std::string Where, Error;
  return runtime::launchKernel(Descriptor, Args.data(), B, Where, Error);
}

// host runs the original loop; so does cuda (a VTA nest has no CUDA kernel);
// auto runs on the VTA runtime (ours is always linked).
TEST(VtaLauncherTest, BackendsOfAVtaNest) {
  std::vector<int8_t> C;
  EXPECT_EQ(launchVectorAddOn(runtime::BackendKind::Host, C), runtime::LaunchResult::RunHostLoop);
  EXPECT_EQ(C, std::vector<int8_t>(1024, 0));
  EXPECT_EQ(launchVectorAddOn(runtime::BackendKind::Cuda, C), runtime::LaunchResult::RunHostLoop);
  EXPECT_EQ(C, std::vector<int8_t>(1024, 0));
  EXPECT_EQ(launchVectorAddOn(runtime::BackendKind::Auto, C),
            runtime::LaunchResult::RanOnBackend);
  EXPECT_EQ(C, std::vector<int8_t>(1024, 11));
}

// A uop kernel holds at most 8192 uops (the uop buffer's depth): 8193 is a
// compile-time error, 8192 is accepted.
TEST(VtaLauncherTest, UopKernelHoldsAtMost8192Uops) {
  auto Program = [](int Uops) {
    std::string Text = "func k(C: int8*[16] global) target=vta {\n  eval vta.PushGEMMOp(1, 0, "
                       "0, 0, 0, 0, 0, 0, 0, 0";
    for (int U = 0; U < Uops; ++U)
      Text += ", " + std::to_string(U % 2048) + ", 0, 0";
    return Text + ")\n  eval vta.synchronize()\n}\n";
  };
  for (int Uops : {8192, 8193}) {
    LoweredKernel K;
    std::vector<Diag> Diags;
    bool Lowered = lower(parseNest(Program(Uops)), PipelineOptions(), K, Diags);
    EXPECT_EQ(Lowered, Uops == 8192) << Uops;
    if (Uops == 8193) {
      ASSERT_EQ(Diags.size(), 1u);
      EXPECT_NE(Diags[0].Message.find(": 8193 uops (a kernel has 1 to 8192, the uop buffer's "
                                      "depth)"),
                std::string::npos)
          << Diags[0].Message.substr(Diags[0].Message.size() - 200);
    }
  }
}

} // namespace

// vta.PackTiles (ir/Vta.h): the launcher's copy of a row-major W[32][48] is
// its 16x16 tiles, row-major, each 256 contiguous bytes [r][c].
TEST(VtaLauncherTest, PackTilesLaysOutTheTilesOfARowMajorArray) {
  const int Rows = 32, Cols = 48;
  std::vector<int8_t> W(Rows * Cols), P(Rows * Cols, 0);
  for (int I = 0; I < Rows * Cols; ++I)
    W[I] = int8_t(I * 7 + I / 251);
  ir::vtaPackTiles(P.data(), W.data(), Rows, Cols);
  for (int A = 0; A < Rows / 16; ++A)
    for (int B = 0; B < Cols / 16; ++B)
      for (int R = 0; R < 16; ++R)
        for (int C = 0; C < 16; ++C)
          ASSERT_EQ(P[((A * (Cols / 16) + B) * 16 + R) * 16 + C], W[(A * 16 + R) * Cols + B * 16 + C])
              << "tile (" << A << ", " << B << ") element (" << R << ", " << C << ")";
}

// A k-major W[K][N] = W[48][32] (transposed): its copy is the tiles of the
// [N][K] weights, each [j][k], W's columns made rows.
TEST(VtaLauncherTest, PackTilesTransposesTheTilesOfAKMajorArray) {
  const int Rows = 48, Cols = 32; // K, N
  std::vector<int8_t> W(Rows * Cols), P(Rows * Cols, 0);
  for (int I = 0; I < Rows * Cols; ++I)
    W[I] = int8_t(I * 7 + I / 251);
  ir::vtaPackTiles(P.data(), W.data(), Rows, Cols, /*Transposed=*/true);
  for (int A = 0; A < Cols / 16; ++A)
    for (int B = 0; B < Rows / 16; ++B)
      for (int R = 0; R < 16; ++R)
        for (int C = 0; C < 16; ++C)
          ASSERT_EQ(P[((A * (Rows / 16) + B) * 16 + R) * 16 + C], W[(B * 16 + C) * Cols + A * 16 + R])
              << "tile (" << A << ", " << B << ") element (" << R << ", " << C << ")";
}
