//===- SimWgmmaTest.cpp - wgmma (sm_90a) in the simulator ------------------===//
//
// Hand-written kernels (parsed from text, no pass involved) of one warpgroup
// (128 threads) that fill two K-major float16 stages, multiply them with
// wgmma.mma into a 64 x 8 accumulator and store it. The simulator computes
// the product per thread at the PTX ISA's register places
// (ir::wgmmaLaneElement) and enforces what makes an asynchronous wgmma
// computed at once the same: a fence before the mma, commit and wait before
// the accumulator is read, no barrier while one is in flight, a whole
// warpgroup, stages in PTX's canonical swizzled layout. Each rule has a test
// that breaks it.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtil.h"
#include "ir/Intrinsics.h"
#include "sim/Simulator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

using namespace sched;
using sched::simtest::parseKernel;

namespace {

#define EXPECT_HAS(Text, Part) EXPECT_NE((Text).find(Part), std::string::npos) << (Text)

const char *const Fence = "        eval wgmma.fence()\n";
const char *const Mma = "        eval wgmma.mma(Cf[0], As[0, 0], 16, Bs[0, 0], 16, 64, 8, 16)\n";
const char *const Commit = "        eval wgmma.commit()\n";
const char *const Wait = "        eval wgmma.wait(0)\n";
const char *const Store = "        eval wgmma.store(C[0], Cf[0], 8, 0, 64, 8, 16)\n";

/// Threads threads fill As (64 x 16, A) and Bs (8 x 16, B stored n by n),
/// both with rows of 32 bytes and PTX's 32-byte swizzle unless Swizzle says
/// otherwise, then run Steps on the 64 x 8 accumulator Cf.
LoweredKernel kernel(const std::string &Steps, int Threads = 128,
                     const std::string &Swizzle = " swizzle(3, 1, 6)") {
  return parseKernel(
      "func k(A: float16*[1024] global, B: float16*[128] global, C: float32*[512] global) "
      "target=gpu {\n"
      "  for (t, 0, " + std::to_string(Threads) + ") bind(threadIdx.x) {\n"
      "    allocate As: float16[64, 16] shared" + Swizzle + " {\n"
      "    allocate Bs: float16[8, 16] shared" + Swizzle + " {\n"
      "      for (e, 0, 8) {\n"
      "        As[(t/2), (((t % 2)*8) + e)] = A[((t*8) + e)]\n"
      "      }\n"
      "      Bs[(t/16), (t % 16)] = B[t]\n"
      "      eval sched.syncthreads()\n"
      "      allocate Cf: float32[512] wmma.accumulator {\n"
      "        eval wgmma.fill(Cf[0], 0.0f, 64, 8, 16)\n" +
          Steps +
          "      }\n"
          "  } } } }\n",
      Threads);
}

std::string allSteps() { return std::string(Fence) + Mma + Commit + Wait + Store; }

struct Data {
  std::vector<uint16_t> A, B;
  std::vector<float> C;
  Data() : A(1024), B(128), C(512, -1.0f) {
    // Small integers: every sum is exact in fp32.
    for (int I = 0; I < 1024; ++I)
      A[I] = half(float((I * 7 + 3) % 9 - 4));
    for (int I = 0; I < 128; ++I)
      B[I] = half(float((I * 5 + 1) % 7 - 3));
  }
  static uint16_t half(float F) {
    // Small integers only: sign, exponent and a 10-bit mantissa.
    if (F == 0)
      return 0;
    uint16_t Sign = F < 0 ? 0x8000 : 0;
    int V = static_cast<int>(F < 0 ? -F : F), E = 0;
    while ((V >> E) > 1)
      ++E;
    return static_cast<uint16_t>(Sign | ((E + 15) << 10) | (((V << 10) >> E) & 0x3ff));
  }
  static float value(uint16_t H) {
    if ((H & 0x7fff) == 0)
      return 0;
    int E = ((H >> 10) & 0x1f) - 15;
    float M = 1.0f + float(H & 0x3ff) / 1024.0f;
    return (H & 0x8000 ? -1.0f : 1.0f) * M * float(1 << E);
  }
  float product(int I, int J) const {
    float Acc = 0;
    for (int K = 0; K < 16; ++K)
      Acc += value(A[I * 16 + K]) * value(B[J * 16 + K]);
    return Acc;
  }
};

bool run(const LoweredKernel &K, Data &D, std::string &Error) {
  return sim::simulate(K, {D.A.data(), D.B.data(), D.C.data()}, sim::SimOptions(), Error);
}

TEST(SimWgmmaTest, AccumulatorLayoutCoversTheTileOnce) {
  for (int64_t N : {8, 64, 136, 256}) {
    std::set<std::pair<int64_t, int64_t>> Seen;
    for (int64_t T = 0; T < 128; ++T)
      for (int64_t I = 0; I < N / 2; ++I) {
        int64_t Row, Col;
        ir::wgmmaLaneElement(T, I, Row, Col);
        EXPECT_TRUE(Row >= 0 && Row < 64 && Col >= 0 && Col < N) << T << " " << I;
        Seen.insert({Row, Col});
      }
    EXPECT_EQ(Seen.size(), static_cast<size_t>(64 * N)) << N;
  }
  // Thread 37 (warp 1, lane 5): rows 16 + 1 and + 8, columns 2 and 3.
  int64_t Row, Col;
  ir::wgmmaLaneElement(37, 3, Row, Col);
  EXPECT_EQ(Row, 25);
  EXPECT_EQ(Col, 3);
}

TEST(SimWgmmaTest, ProductOfTwoKMajorStagesIsTheLoopsNumbers) {
  Data D;
  std::string Error;
  ASSERT_TRUE(run(kernel(allSteps()), D, Error)) << Error;
  for (int I = 0; I < 64; ++I)
    for (int J = 0; J < 8; ++J)
      EXPECT_EQ(D.C[I * 8 + J], D.product(I, J)) << I << ", " << J;
}

TEST(SimWgmmaTest, MmaWithoutAFenceAfterTheFillIsReported) {
  Data D;
  std::string Error;
  EXPECT_FALSE(run(kernel(std::string(Mma) + Commit + Wait + Store), D, Error));
  EXPECT_HAS(Error, "without a wgmma.fence");
}

TEST(SimWgmmaTest, StoreBeforeTheWaitIsReported) {
  Data D;
  std::string Error;
  EXPECT_FALSE(run(kernel(std::string(Fence) + Mma + Commit + Store + Wait), D, Error));
  EXPECT_HAS(Error, "while a wgmma.mma_async that writes it is in flight");
}

TEST(SimWgmmaTest, WaitDoesNotCompleteAnUncommittedMma) {
  Data D;
  std::string Error;
  EXPECT_FALSE(run(kernel(std::string(Fence) + Mma + Wait + Store), D, Error));
  EXPECT_HAS(Error, "in flight");
}

TEST(SimWgmmaTest, BarrierWithAnMmaInFlightIsReported) {
  Data D;
  std::string Error;
  EXPECT_FALSE(run(kernel(std::string(Fence) + Mma + Commit +
                              "        eval sched.syncthreads()\n" + Wait + Store),
                   D, Error));
  EXPECT_HAS(Error, "reaches a barrier while warpgroup 0 has a wgmma.mma_async in flight");
}

TEST(SimWgmmaTest, WriteToAStageTheMmaReadsRacesWithIt) {
  Data D;
  std::string Error;
  EXPECT_FALSE(run(kernel(std::string(Fence) + Mma + "        As[(t/2), 0] = float16(1.0f)\n" + Commit +
                          Wait + Store),
                   D, Error));
  EXPECT_HAS(Error, "race");
}

TEST(SimWgmmaTest, StageWithoutThePtxSwizzleIsReported) {
  Data D;
  std::string Error;
  EXPECT_FALSE(run(kernel(allSteps(), 128, ""), D, Error));
  EXPECT_HAS(Error, "is not in PTX's canonical K-major layout");
}

TEST(SimWgmmaTest, TileNotOnTheFirstOfEightRowsIsReported) {
  Data D;
  std::string Error;
  std::string Steps = allSteps();
  Steps.replace(Steps.find("As[0, 0]"), 8, "As[4, 0]");
  EXPECT_FALSE(run(kernel(Steps), D, Error));
  EXPECT_HAS(Error, "misaligned wgmma operand A");
}

TEST(SimWgmmaTest, BlockOfHalfAWarpgroupIsReported) {
  Data D;
  std::string Error;
  EXPECT_FALSE(run(kernel(allSteps(), 64), D, Error));
  EXPECT_HAS(Error, "partial warpgroup");
}

} // namespace
