//===- VtaRuntimeTest.cpp - The VTA runtime API over the simulator --------===//
//
// Each test drives the standard VTA runtime C API (runtime/vta) the way a
// generated launcher does - buffers, loads, uop kernels recorded in `finit`
// callbacks, token pushes and pops, store, synchronize - and checks the result
// against plain C++, or checks that the runtime reports the error it must
// (a deadlock, leftover tokens, a violated hardware limit) instead of hanging
// or truncating.
//
//===----------------------------------------------------------------------===//

#include "vta/vta_runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

/// A device buffer filled from host bytes, freed at scope exit.
struct DevBuf {
  void *H;
  size_t Bytes;
  explicit DevBuf(size_t Bytes) : H(VTABufferAlloc(Bytes)), Bytes(Bytes) {}
  template <typename T>
  explicit DevBuf(const std::vector<T> &V) : DevBuf(V.size() * sizeof(T)) {
    VTABufferCopy(V.data(), 0, H, 0, Bytes, VTA_MEMCPY_H2D);
  }
  ~DevBuf() { VTABufferFree(H); }
  template <typename T> std::vector<T> read() const {
    std::vector<T> V(Bytes / sizeof(T));
    VTABufferCopy(H, 0, V.data(), 0, Bytes, VTA_MEMCPY_D2H);
    return V;
  }
};

std::vector<int8_t> randomInt8(size_t N, uint32_t Seed) {
  std::vector<int8_t> V(N);
  for (auto &X : V) {
    Seed = Seed * 1664525u + 1013904223u;
    X = int8_t(Seed >> 24);
  }
  return V;
}

/// Every test starts from a clean error state and statistics.
class VtaRuntime : public ::testing::Test {
protected:
  void SetUp() override {
    VTASchedClearError();
    VTASchedResetStats();
    VTASetDebugMode(VTATLSCommandHandle(), 0);
  }
  void TearDown() override { VTASchedClearError(); }
  static std::string lastError() {
    const char *E = VTASchedLastError();
    return E ? E : "";
  }
};

// The uop kernels of the matrix-multiply tutorial: reset 16 acc entries, and
// the update over co (dst + 1, wgt + 1).
int resetKernel(void *) {
  VTAUopLoopBegin(16, 1, 0, 0);
  VTAUopPush(0, 1, 0, 0, 0, 0, 0, 0);
  VTAUopLoopEnd();
  return 0;
}
int updateKernel(void *) {
  VTAUopLoopBegin(16, 1, 0, 1);
  VTAUopPush(0, 0, 0, 0, 0, 0, 0, 0);
  VTAUopLoopEnd();
  return 0;
}
// ALU kernels over 16 acc entries with an immediate.
template <int Op, int Imm> int aluImmKernel(void *) {
  VTAUopLoopBegin(16, 1, 1, 0);
  VTAUopPush(1, 0, 0, 0, 0, Op, 1, Imm);
  VTAUopLoopEnd();
  return 0;
}

struct GemmProblem {
  std::vector<int8_t> A = randomInt8(256, 1); // (1,16,1,16): [ko][ki]
  std::vector<int8_t> B =
      randomInt8(65536, 2); // (16,16,16,16): [co][ko][ci][ki]
  int32_t acc(int Co, int Ci) const {
    int32_t S = 0;
    for (int Ko = 0; Ko < 16; ++Ko)
      for (int Ki = 0; Ki < 16; ++Ki)
        S += int32_t(A[Ko * 16 + Ki]) *
             int32_t(B[((Co * 16 + Ko) * 16 + Ci) * 16 + Ki]);
    return S;
  }
};

/// The tutorial's lowered call sequence; SkipLoadPush drops the load->compute
/// push inside the loop, SkipWar every compute->load token (the write-after-
/// read protection of inp/wgt), Epilogue runs after the GEMMs on the acc.
void runGemm(const GemmProblem &P, DevBuf &A, DevBuf &B, DevBuf &C,
             bool SkipLoadPush = false,
             const std::function<void()> &Epilogue = nullptr,
             bool SkipWar = false) {
  static void *ResetH = nullptr, *UpdateH = nullptr;
  (void)P;
  VTACommandHandle Cmd = VTATLSCommandHandle();
  VTAPushGEMMOp(&ResetH, resetKernel, nullptr, 0);
  if (!SkipWar)
    VTADepPush(Cmd, 2, 1);
  for (uint32_t Ko = 0; Ko < 16; ++Ko) {
    if (!SkipWar)
      VTADepPop(Cmd, 2, 1);
    VTALoadBuffer2D(Cmd, A.H, Ko, 1, 1, 1, 0, 0, 0, 0, 0, VTA_MEM_ID_INP);
    VTALoadBuffer2D(Cmd, B.H, Ko, 1, 16, 16, 0, 0, 0, 0, 0, VTA_MEM_ID_WGT);
    if (!SkipLoadPush)
      VTADepPush(Cmd, 1, 2);
    VTADepPop(Cmd, 1, 2);
    VTAPushGEMMOp(&UpdateH, updateKernel, nullptr, 0);
    if (!SkipWar)
      VTADepPush(Cmd, 2, 1);
  }
  if (Epilogue)
    Epilogue();
  VTADepPush(Cmd, 2, 3);
  if (!SkipWar)
    VTADepPop(Cmd, 2, 1);
  VTADepPop(Cmd, 2, 3);
  VTAStoreBuffer2D(Cmd, 0, VTA_MEM_ID_OUT, C.H, 0, 16, 1, 16);
  VTASynchronize(Cmd, 1u << 31);
}

TEST_F(VtaRuntime, GemmMatchesReference) {
  GemmProblem P;
  DevBuf A(P.A), B(P.B), C(256);
  runGemm(P, A, B, C);
  ASSERT_EQ(lastError(), "");
  std::vector<int8_t> Out = C.read<int8_t>();
  for (int Co = 0; Co < 16; ++Co)
    for (int Ci = 0; Ci < 16; ++Ci)
      EXPECT_EQ(Out[Co * 16 + Ci], int8_t(P.acc(Co, Ci))) << Co << "," << Ci;
}

TEST_F(VtaRuntime, GemmStatisticsMatchTheTutorial) {
  GemmProblem P;
  DevBuf A(P.A), B(P.B), C(256);
  runGemm(P, A, B, C);
  ASSERT_EQ(lastError(), "");
  VTASchedStats S;
  VTASchedGetStats(&S);
  // TUT-MM's profiler: inp 256, wgt 65536, acc 0, uop 8, out 256, gemm 256.
  EXPECT_EQ(S.inp_load_nbytes, 256u);
  EXPECT_EQ(S.wgt_load_nbytes, 65536u);
  EXPECT_EQ(S.acc_load_nbytes, 0u);
  EXPECT_EQ(S.uop_load_nbytes, 8u);
  EXPECT_EQ(S.out_store_nbytes, 256u);
  EXPECT_EQ(S.gemm_counter, 256u);
  EXPECT_EQ(S.gemm_insns, 17u);
  EXPECT_EQ(S.store_insns, 1u);
  EXPECT_EQ(S.finish_insns, 1u);
}

TEST_F(VtaRuntime, GemmShiftClipEpilogue) {
  GemmProblem P;
  DevBuf A(P.A), B(P.B), C(256);
  static void *ShrH, *MaxH, *MinH;
  runGemm(P, A, B, C, false, [] {
    VTAPushALUOp(&ShrH, aluImmKernel<VTA_ALU_OPCODE_SHR, 8>, nullptr, 0);
    VTAPushALUOp(&MaxH, aluImmKernel<VTA_ALU_OPCODE_MAX, 0>, nullptr, 0);
    VTAPushALUOp(&MinH, aluImmKernel<VTA_ALU_OPCODE_MIN, 127>, nullptr, 0);
  });
  ASSERT_EQ(lastError(), "");
  std::vector<int8_t> Out = C.read<int8_t>();
  int Clipped = 0;
  for (int Co = 0; Co < 16; ++Co)
    for (int Ci = 0; Ci < 16; ++Ci) {
      int32_t Want = std::min(std::max(P.acc(Co, Ci) >> 8, 0), 127);
      Clipped += Want == 0 || Want == 127;
      EXPECT_EQ(Out[Co * 16 + Ci], int8_t(Want)) << Co << "," << Ci;
    }
  EXPECT_GT(Clipped, 0); // the data exercises the clip
  EXPECT_LT(Clipped, 256);
}

int vectorAddKernel(void *) {
  VTAUopLoopBegin(64, 1, 1, 0);
  VTAUopPush(1, 0, 0, 64, 0, VTA_ALU_OPCODE_ADD, 0, 0);
  VTAUopLoopEnd();
  return 0;
}

TEST_F(VtaRuntime, AluVectorAdd) {
  // TUT-GS: int32 (1,64,1,16) operands in the acc buffer, C = int8(A + B).
  std::vector<int32_t> A(1024), B(1024);
  for (int I = 0; I < 1024; ++I) {
    A[I] = I * 37 - 9000;
    B[I] = 5000 - I * 11;
  }
  DevBuf DA(A), DB(B), DC(1024);
  static void *H;
  VTACommandHandle Cmd = VTATLSCommandHandle();
  VTALoadBuffer2D(Cmd, DA.H, 0, 64, 1, 64, 0, 0, 0, 0, 0, VTA_MEM_ID_ACC);
  VTALoadBuffer2D(Cmd, DB.H, 0, 64, 1, 64, 0, 0, 0, 0, 64, VTA_MEM_ID_ACC);
  VTAPushALUOp(&H, vectorAddKernel, nullptr, 0);
  VTADepPush(Cmd, 2, 3);
  VTADepPop(Cmd, 2, 3);
  VTAStoreBuffer2D(Cmd, 0, VTA_MEM_ID_OUT, DC.H, 0, 64, 1, 64);
  VTASynchronize(Cmd, 1u << 31);
  ASSERT_EQ(lastError(), "");
  std::vector<int8_t> Out = DC.read<int8_t>();
  for (int I = 0; I < 1024; ++I)
    EXPECT_EQ(Out[I], int8_t(A[I] + B[I])) << I;
  VTASchedStats S;
  VTASchedGetStats(&S);
  EXPECT_EQ(S.acc_load_nbytes, 8192u);
  EXPECT_EQ(S.alu_counter, 64u);
}

/// One ALU instruction over acc entry 0 (16 lanes, values V) with operand
/// entry 1 (values W) or an immediate; returns the 16 lanes as int8.
template <int Op, int UseImm, int Imm> int aluOneKernel(void *) {
  VTAUopPush(1, 0, 0, 1, 0, Op, UseImm, Imm);
  return 0;
}
std::vector<int8_t> runAlu(int (*Kernel)(void *), void **H,
                           const std::vector<int32_t> &VW) {
  DevBuf In(VW), Out(16);
  VTACommandHandle Cmd = VTATLSCommandHandle();
  VTALoadBuffer2D(Cmd, In.H, 0, 2, 1, 2, 0, 0, 0, 0, 0, VTA_MEM_ID_ACC);
  VTAPushALUOp(H, Kernel, nullptr, 0);
  VTADepPush(Cmd, 2, 3);
  VTADepPop(Cmd, 2, 3);
  VTAStoreBuffer2D(Cmd, 0, VTA_MEM_ID_OUT, Out.H, 0, 1, 1, 1);
  VTASynchronize(Cmd, 0);
  return Out.read<int8_t>();
}

TEST_F(VtaRuntime, AluOpsMatchScalarSemantics) {
  std::vector<int32_t> VW(32);
  for (int L = 0; L < 16; ++L) {
    VW[L] = (L - 8) * 3; // entry 0
    VW[16 + L] = 7 - L;  // entry 1
  }
  static void *HMul, *HShl, *HShr, *HMin, *HMax;
  auto Mul = runAlu(aluOneKernel<VTA_ALU_OPCODE_MUL, 0, 0>, &HMul, VW);
  auto Shl = runAlu(aluOneKernel<VTA_ALU_OPCODE_SHR, 1, -3>, &HShl, VW);
  auto Shr = runAlu(aluOneKernel<VTA_ALU_OPCODE_SHR, 1, 1>, &HShr, VW);
  auto Min = runAlu(aluOneKernel<VTA_ALU_OPCODE_MIN, 0, 0>, &HMin, VW);
  auto Max = runAlu(aluOneKernel<VTA_ALU_OPCODE_MAX, 1, -5>, &HMax, VW);
  ASSERT_EQ(lastError(), "");
  for (int L = 0; L < 16; ++L) {
    int32_t V = VW[L], W = VW[16 + L];
    EXPECT_EQ(Mul[L], int8_t(V * W)) << L;
    EXPECT_EQ(Shl[L], int8_t(V * 8)) << L; // SHR by -3 shifts left
    EXPECT_EQ(Shr[L], int8_t(V >> 1)) << L;
    EXPECT_EQ(Min[L], int8_t(std::min(V, W))) << L;
    EXPECT_EQ(Max[L], int8_t(std::max(V, -5))) << L;
  }
}

TEST_F(VtaRuntime, LoadPadsWithZeros) {
  std::vector<int8_t> A = randomInt8(32, 7), Junk(12 * 16, 99);
  DevBuf DA(A), DJunk(Junk);
  std::vector<int8_t> W(256, 0);
  for (int J = 0; J < 16; ++J)
    W[J * 16 + J] = 1; // identity weight: acc entry e = inp entry e
  DevBuf DW(W), DC(16 * 12);
  static void *ResetH, *CopyH;
  VTACommandHandle Cmd = VTATLSCommandHandle();
  // Fill inp[0..11] with junk, then load A's 2 rows with 1 pad row above and
  // below and 1 pad element each side: rows of 3, A at entries 4 and 7.
  VTALoadBuffer2D(Cmd, DJunk.H, 0, 12, 1, 12, 0, 0, 0, 0, 0, VTA_MEM_ID_INP);
  VTALoadBuffer2D(Cmd, DA.H, 0, 1, 2, 1, 1, 1, 1, 1, 0, VTA_MEM_ID_INP);
  VTALoadBuffer2D(Cmd, DW.H, 0, 1, 1, 1, 0, 0, 0, 0, 0, VTA_MEM_ID_WGT);
  VTADepPush(Cmd, 1, 2);
  VTADepPop(Cmd, 1, 2);
  VTAPushGEMMOp(
      &ResetH,
      [](void *) -> int {
        VTAUopLoopBegin(12, 1, 0, 0);
        VTAUopPush(0, 1, 0, 0, 0, 0, 0, 0);
        return 0;
      },
      nullptr, 0);
  VTAPushGEMMOp(
      &CopyH,
      [](void *) -> int {
        VTAUopLoopBegin(12, 1, 1, 0);
        VTAUopPush(0, 0, 0, 0, 0, 0, 0, 0);
        return 0;
      },
      nullptr, 0);
  VTADepPush(Cmd, 2, 3);
  VTADepPop(Cmd, 2, 3);
  VTAStoreBuffer2D(Cmd, 0, VTA_MEM_ID_OUT, DC.H, 0, 12, 1, 12);
  VTASynchronize(Cmd, 0);
  ASSERT_EQ(lastError(), "");
  std::vector<int8_t> Out = DC.read<int8_t>();
  for (int E = 0; E < 12; ++E)
    for (int L = 0; L < 16; ++L) {
      int8_t Want = E == 4 ? A[L] : E == 7 ? A[16 + L] : 0;
      EXPECT_EQ(Out[E * 16 + L], Want) << E << "," << L;
    }
  VTASchedStats S;
  VTASchedGetStats(&S);
  EXPECT_EQ(S.inp_load_nbytes, (12u + 2u) * 16u); // padding not counted
}

TEST_F(VtaRuntime, Acc8BitLoadSignExtends) {
  // -3 loaded as int8 lanes into int32 entries, then shifted right by 1:
  // -2 when sign-extended, 126 when zero-extended.
  std::vector<int8_t> In(16, -3);
  DevBuf DIn(In), Out(16);
  static void *H;
  VTACommandHandle Cmd = VTATLSCommandHandle();
  VTALoadBuffer2D(Cmd, DIn.H, 0, 1, 1, 1, 0, 0, 0, 0, 0, VTA_MEM_ID_ACC_8BIT);
  VTAPushALUOp(&H, aluOneKernel<VTA_ALU_OPCODE_SHR, 1, 1>, nullptr, 0);
  VTADepPush(Cmd, 2, 3);
  VTADepPop(Cmd, 2, 3);
  VTAStoreBuffer2D(Cmd, 0, VTA_MEM_ID_OUT, Out.H, 0, 1, 1, 1);
  VTASynchronize(Cmd, 0);
  ASSERT_EQ(lastError(), "");
  EXPECT_EQ(Out.read<int8_t>(), std::vector<int8_t>(16, -2));
}

// ---- the token protocol ----------------------------------------------------

TEST_F(VtaRuntime, MissingPushIsReportedAsDeadlock) {
  GemmProblem P;
  DevBuf A(P.A), B(P.B), C(256);
  runGemm(P, A, B, C, /*SkipLoadPush=*/true);
  EXPECT_NE(lastError().find("deadlock"), std::string::npos) << lastError();
  EXPECT_NE(lastError().find("load core (l2g)"), std::string::npos)
      << lastError();
}

TEST_F(VtaRuntime, MissingWarTokenLetsLoadsOverwriteInputs) {
  // The load core runs ahead as far as its tokens allow: without the
  // compute->load tokens every ko's load lands before the GEMMs read them,
  // so the GEMMs all see the last ko's tiles - a wrong result, never a hang.
  GemmProblem P;
  DevBuf A(P.A), B(P.B), C(256);
  runGemm(P, A, B, C, false, nullptr, /*SkipWar=*/true);
  ASSERT_EQ(lastError(), "");
  std::vector<int8_t> Out = C.read<int8_t>();
  int Wrong = 0;
  for (int Co = 0; Co < 16; ++Co)
    for (int Ci = 0; Ci < 16; ++Ci)
      Wrong += Out[Co * 16 + Ci] != int8_t(P.acc(Co, Ci));
  EXPECT_GT(Wrong, 200);
}

TEST_F(VtaRuntime, LeftoverTokenIsReported) {
  DevBuf In(std::vector<int32_t>(16, 1)), Out(16);
  static void *H;
  VTACommandHandle Cmd = VTATLSCommandHandle();
  VTALoadBuffer2D(Cmd, In.H, 0, 1, 1, 1, 0, 0, 0, 0, 0, VTA_MEM_ID_ACC);
  VTAPushALUOp(&H, aluOneKernel<VTA_ALU_OPCODE_ADD, 1, 1>, nullptr, 0);
  VTADepPush(Cmd, 2, 3);
  VTADepPush(Cmd, 2, 3); // a second compute->store token nobody pops
  VTADepPop(Cmd, 2, 3);
  VTAStoreBuffer2D(Cmd, 0, VTA_MEM_ID_OUT, Out.H, 0, 1, 1, 1);
  VTASynchronize(Cmd, 0);
  EXPECT_NE(lastError().find("tokens left over"), std::string::npos)
      << lastError();
  EXPECT_NE(lastError().find("g2s 1"), std::string::npos) << lastError();
}

TEST_F(VtaRuntime, PendingPopWithoutInstructionIsLeftover) {
  // Synchronize's own no-ops take a pending pop, except when its push lands
  // on the stage's last instruction: a store, then a pop no store follows.
  DevBuf C(16);
  VTACommandHandle Cmd = VTATLSCommandHandle();
  VTADepPush(Cmd, 2, 3);
  VTADepPush(Cmd, 2, 3);
  VTADepPop(Cmd, 2, 3);
  VTAStoreBuffer2D(Cmd, 0, VTA_MEM_ID_OUT, C.H, 0, 1, 1, 1);
  VTADepPop(Cmd, 2, 3); // no store follows
  VTASynchronize(Cmd, 0);
  EXPECT_NE(lastError().find("followed by no instruction of that stage"),
            std::string::npos)
      << lastError();
}

TEST_F(VtaRuntime, LoadToStoreTokenIsRefused) {
  VTADepPush(VTATLSCommandHandle(), 1, 3);
  EXPECT_NE(lastError().find("neighbouring"), std::string::npos);
}

TEST_F(VtaRuntime, RunsAgainAfterAnError) {
  VTADepPush(VTATLSCommandHandle(), 1, 3);
  ASSERT_NE(lastError(), "");
  VTASynchronize(VTATLSCommandHandle(), 0); // drops the broken stream
  VTASchedClearError();
  GemmProblem P;
  DevBuf A(P.A), B(P.B), C(256);
  runGemm(P, A, B, C);
  ASSERT_EQ(lastError(), "");
  EXPECT_EQ(C.read<int8_t>()[17], int8_t(P.acc(1, 1)));
}

TEST_F(VtaRuntime, ForceSerialIgnoresTokens) {
  GemmProblem P;
  DevBuf A(P.A), B(P.B), C(256);
  VTASetDebugMode(VTATLSCommandHandle(), VTA_DEBUG_FORCE_SERIAL);
  runGemm(P, A, B, C, /*SkipLoadPush=*/true);
  ASSERT_EQ(lastError(), "");
  EXPECT_EQ(C.read<int8_t>()[5], int8_t(P.acc(0, 5)));
}

// ---- hardware limits
// ---------------------------------------------------------

/// Runs Body and a synchronize; expects an error mentioning Want.
void expectLimit(const std::function<void(VTACommandHandle)> &Body,
                 const std::string &Want) {
  VTASchedClearError();
  VTACommandHandle Cmd = VTATLSCommandHandle();
  Body(Cmd);
  VTASynchronize(Cmd, 0);
  const char *E = VTASchedLastError();
  ASSERT_NE(E, nullptr) << "no error; expected: " << Want;
  EXPECT_NE(std::string(E).find(Want), std::string::npos) << E;
}

TEST_F(VtaRuntime, LoadBeyondInpDepthIsAnError) {
  DevBuf A(16 * 16);
  expectLimit(
      [&](VTACommandHandle Cmd) {
        VTALoadBuffer2D(Cmd, A.H, 0, 16, 1, 16, 0, 0, 0, 0, 2040,
                        VTA_MEM_ID_INP);
      },
      "overflow the buffer (depth 2048)");
}

TEST_F(VtaRuntime, LoadPadTooWideIsAnError) {
  DevBuf A(16);
  expectLimit(
      [&](VTACommandHandle Cmd) {
        VTALoadBuffer2D(Cmd, A.H, 0, 1, 1, 1, 16, 0, 0, 0, 0, VTA_MEM_ID_INP);
      },
      "x_pad_before 16 does not fit its 4-bit field");
}

TEST_F(VtaRuntime, LoadSizeTooWideIsAnError) {
  DevBuf A(16);
  expectLimit(
      [&](VTACommandHandle Cmd) {
        VTALoadBuffer2D(Cmd, A.H, 0, 1, 65536, 0, 0, 0, 0, 0, 0,
                        VTA_MEM_ID_INP);
      },
      "y_size 65536 does not fit its 16-bit field");
}

TEST_F(VtaRuntime, LoadPastSourceBufferIsAnError) {
  DevBuf A(16 * 4);
  expectLimit(
      [&](VTACommandHandle Cmd) {
        VTALoadBuffer2D(Cmd, A.H, 2, 4, 1, 4, 0, 0, 0, 0, 0, VTA_MEM_ID_INP);
      },
      "past the end of the source buffer");
}

TEST_F(VtaRuntime, LoadFromRawPointerIsAnError) {
  std::vector<int8_t> Raw(16);
  expectLimit(
      [&](VTACommandHandle Cmd) {
        VTALoadBuffer2D(Cmd, Raw.data(), 0, 1, 1, 1, 0, 0, 0, 0, 0,
                        VTA_MEM_ID_INP);
      },
      "not a VTABufferAlloc handle");
}

TEST_F(VtaRuntime, StoreFromAccIsAnError) {
  DevBuf C(16);
  expectLimit(
      [&](VTACommandHandle Cmd) {
        VTAStoreBuffer2D(Cmd, 0, VTA_MEM_ID_ACC, C.H, 0, 1, 1, 1);
      },
      "cannot be stored (only out, 4)");
}

TEST_F(VtaRuntime, StoreBeyondAccDepthIsAnError) {
  DevBuf C(16 * 16);
  expectLimit(
      [&](VTACommandHandle Cmd) {
        VTAStoreBuffer2D(Cmd, 2040, VTA_MEM_ID_OUT, C.H, 0, 16, 1, 16);
      },
      "overflow the out buffer (depth 2048)");
}

TEST_F(VtaRuntime, ThirdUopLoopIsAnError) {
  static void *H;
  expectLimit(
      [&](VTACommandHandle) {
        VTAPushGEMMOp(
            &H,
            [](void *) -> int {
              VTAUopLoopBegin(2, 1, 0, 0);
              VTAUopLoopBegin(2, 2, 0, 0);
              VTAUopLoopBegin(2, 4, 0, 0);
              VTAUopPush(0, 1, 0, 0, 0, 0, 0, 0);
              return 0;
            },
            nullptr, 0);
      },
      "at most 2 loops");
}

TEST_F(VtaRuntime, UopLoopExtentTooWideIsAnError) {
  static void *H;
  expectLimit(
      [&](VTACommandHandle) {
        VTAPushGEMMOp(
            &H,
            [](void *) -> int {
              VTAUopLoopBegin(16384, 0, 0, 0);
              VTAUopPush(0, 1, 0, 0, 0, 0, 0, 0);
              return 0;
            },
            nullptr, 0);
      },
      "extent 16384 does not fit its 14-bit field");
}

TEST_F(VtaRuntime, UopLoopWgtFactorTooWideIsAnError) {
  static void *H;
  expectLimit(
      [&](VTACommandHandle) {
        VTAPushGEMMOp(
            &H,
            [](void *) -> int {
              VTAUopLoopBegin(2, 1, 0, 1024);
              VTAUopPush(0, 0, 0, 0, 0, 0, 0, 0);
              return 0;
            },
            nullptr, 0);
      },
      "wgt_factor 1024 does not fit its 10-bit field");
}

TEST_F(VtaRuntime, UopLoopAfterPushIsAnError) {
  static void *H;
  expectLimit(
      [&](VTACommandHandle) {
        VTAPushGEMMOp(
            &H,
            [](void *) -> int {
              VTAUopPush(0, 1, 0, 0, 0, 0, 0, 0);
              VTAUopLoopBegin(2, 1, 0, 0);
              return 0;
            },
            nullptr, 0);
      },
      "after a VTAUopPush");
}

TEST_F(VtaRuntime, UopOutsideFinitIsAnError) {
  expectLimit([&](VTACommandHandle) { VTAUopPush(0, 1, 0, 0, 0, 0, 0, 0); },
              "outside a uop kernel's finit");
}

TEST_F(VtaRuntime, AluImmediateBeyondInt16IsAnError) {
  static void *H;
  expectLimit(
      [&](VTACommandHandle) {
        VTAPushALUOp(&H, aluOneKernel<VTA_ALU_OPCODE_ADD, 1, 40000>, nullptr,
                     0);
      },
      "immediate 40000 does not fit the signed 16-bit field");
}

TEST_F(VtaRuntime, UopDstIndexTooWideIsAnError) {
  static void *H;
  expectLimit(
      [&](VTACommandHandle) {
        VTAPushGEMMOp(
            &H,
            [](void *) -> int {
              VTAUopPush(0, 1, 2048, 0, 0, 0, 0, 0);
              return 0;
            },
            nullptr, 0);
      },
      "dst_index 2048 does not fit its 11-bit field");
}

TEST_F(VtaRuntime, UopDstRepeatedWithinTwoIsAnError) {
  static void *H;
  expectLimit(
      [&](VTACommandHandle) {
        VTAPushGEMMOp(
            &H,
            [](void *) -> int {
              VTAUopPush(0, 0, 3, 0, 0, 0, 0, 0);
              VTAUopPush(0, 0, 4, 1, 1, 0, 0, 0);
              VTAUopPush(0, 0, 3, 2, 2, 0, 0, 0);
              return 0;
            },
            nullptr, 0);
      },
      "repeats within 2 consecutive uops");
}

TEST_F(VtaRuntime, GemmIndexBeyondAccDepthIsAnError) {
  static void *H;
  expectLimit(
      [&](VTACommandHandle) {
        VTAPushGEMMOp(
            &H,
            [](void *) -> int {
              VTAUopLoopBegin(16, 8, 0, 0);
              VTAUopPush(0, 1, 2000, 0, 0, 0, 0, 0);
              return 0;
            },
            nullptr, 0);
      },
      "GEMM acc entry 2048 is beyond the buffer's depth 2048");
}

TEST_F(VtaRuntime, SignatureSelectsKernel) {
  // A 4-byte signature keys the kernel: finit runs once per key.
  static void *H;
  static int Calls;
  Calls = 0;
  DevBuf In(std::vector<int32_t>(32, 10)), Out(32);
  VTACommandHandle Cmd = VTATLSCommandHandle();
  VTALoadBuffer2D(Cmd, In.H, 0, 2, 1, 2, 0, 0, 0, 0, 0, VTA_MEM_ID_ACC);
  auto Finit = [](void *Sig) -> int {
    ++Calls;
    int Ctx = *static_cast<int *>(Sig);
    VTAUopPush(1, 0, uint32_t(Ctx), 0, 0, VTA_ALU_OPCODE_ADD, 1, Ctx + 1);
    return 0;
  };
  for (int Rep = 0; Rep < 2; ++Rep)
    for (int Ctx = 0; Ctx < 2; ++Ctx)
      VTAPushALUOp(&H, Finit, &Ctx, sizeof(int));
  VTADepPush(Cmd, 2, 3);
  VTADepPop(Cmd, 2, 3);
  VTAStoreBuffer2D(Cmd, 0, VTA_MEM_ID_OUT, Out.H, 0, 2, 1, 2);
  VTASynchronize(Cmd, 0);
  ASSERT_EQ(lastError(), "");
  EXPECT_EQ(Calls, 2);
  std::vector<int8_t> O = Out.read<int8_t>();
  EXPECT_EQ(O[0], 12);  // 10 + 1 + 1
  EXPECT_EQ(O[16], 14); // 10 + 2 + 2
}

} // namespace
