//===- SimWmmaTest.cpp - The simulator's warp-collective wmma intrinsics ---===//
//
// Kernels in the form the tensorize lowering produces (flattened, fragments
// in wmma-scope buffers, one warp per threadIdx.x loop of 32), parsed from
// text and run on the simulator. Results are compared bit for bit with a
// plain C++ reference computed here in the simulator's documented order
// (each (i, j) summed in ascending k, rounding to fp32 after each addition;
// int8 products summed in wrapping int32); each misuse the hardware leaves
// undefined must be reported.
//
//===----------------------------------------------------------------------===//

#include "Pipeline.h"
#include "ir/Parser.h"
#include "sim/Simulator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace sched;

namespace {

/// Parses a kernel and gives it a launch of Grid x 1 x 1 blocks of
/// BlockX x BlockY threads (the buffers' regions are their whole shapes).
LoweredKernel parseKernel(const std::string &Text, int BlockX, int BlockY = 1, int Grid = 1) {
  LoweredKernel K;
  std::string Error;
  EXPECT_TRUE(ir::parseLoopNest(Text, K.Kernel, Error)) << Error << "\n" << Text;
  for (int D = 0; D < 3; ++D) {
    K.Geometry.Grid[D] = ir::makeInt(D == 0 ? Grid : 1);
    K.Geometry.Block[D] = ir::makeInt(D == 0 ? BlockX : D == 1 ? BlockY : 1);
  }
  return K;
}

bool run(const LoweredKernel &K, std::vector<void *> Args, std::string &Error,
         sim::SimStats *Stats = nullptr) {
  return sim::simulate(K, Args, sim::SimOptions(), Error, Stats);
}

std::string num(int64_t V) { return std::to_string(V); }

/// A memory tile of Rows x Cols in the given layout, its leading dimension
/// padded to Align elements (as the lowering pads to keep ldm legal).
struct TileLayout {
  int64_t Rows, Cols, Layout, Align;
  int64_t ld() const {
    int64_t Lead = Layout == 0 ? Cols : Rows;
    return (Lead + Align - 1) / Align * Align;
  }
  int64_t size() const { return ld() * (Layout == 0 ? Rows : Cols); }
  int64_t at(int64_t R, int64_t C) const { return Layout == 0 ? R * ld() + C : C * ld() + R; }
};

/// One mma configuration: shape, element types, memory layouts of A, B and
/// the stored C, and how many tiles (virtual threads) share one B.
struct Config {
  int64_t M, N, K;
  bool Int8 = false; // int8 -> int32, else fp16 -> fp32
  int64_t LayA = 0, LayB = 0, LayC = 0;
  int64_t Tiles = 1;
  std::string AB() const { return Int8 ? "int8" : "float16"; }
  std::string Acc() const { return Int8 ? "int32" : "float32"; }
  int64_t align() const { return 16; } // 32 bytes of fp16, 16 of int8: both legal
  TileLayout a() const { return {M, K, LayA, align()}; }
  TileLayout b() const { return {K, N, LayB, align()}; }
  TileLayout c() const { return {M, N, LayC, 8}; }
};

/// The lowered kernel of COMMON9's example, generalised: one warp, B loaded
/// once, and per tile t: load A, fill C with 0, mma, store C.
std::string mmaKernel(const Config &G) {
  std::string Shape = num(G.M) + ", " + num(G.N) + ", " + num(G.K);
  TileLayout A = G.a(), B = G.b(), C = G.c();
  int64_t FragA = G.M * G.K, FragC = G.M * G.N;
  std::string Zero = G.Int8 ? "0" : "0.0f";
  return "func k(A: " + G.AB() + "*[" + num(A.size() * G.Tiles) + "] global, B: " + G.AB() +
         "*[" + num(B.size()) + "] global, C: " + G.Acc() + "*[" + num(C.size() * G.Tiles) +
         "] global) target=gpu {\n"
         "  for (lane, 0, 32) bind(threadIdx.x) {\n"
         "    allocate Bf: " + G.AB() + "[" + num(G.K * G.N) + "] wmma.matrix_b {\n"
         "      eval wmma.load_b(Bf[0], B[0], " + num(B.ld()) + ", " + num(G.LayB) + ", " + Shape +
         ")\n"
         "      allocate Af: " + G.AB() + "[" + num(FragA * G.Tiles) + "] wmma.matrix_a {\n"
         "        allocate Cf: " + G.Acc() + "[" + num(FragC * G.Tiles) + "] wmma.accumulator {\n"
         "          for (t, 0, " + num(G.Tiles) + ") {\n"
         "            eval wmma.load_a(Af[(t*" + num(FragA) + ")], A[(t*" + num(A.size()) + ")], " +
         num(A.ld()) + ", " + num(G.LayA) + ", " + Shape + ")\n"
         "            eval wmma.fill(Cf[(t*" + num(FragC) + ")], " + Zero + ", " + Shape + ")\n"
         "            eval wmma.mma(Cf[(t*" + num(FragC) + ")], Af[(t*" + num(FragA) + ")], Bf[0], Cf[(t*" +
         num(FragC) + ")], " + Shape + ")\n"
         "            eval wmma.store(C[(t*" + num(C.size()) + ")], Cf[(t*" + num(FragC) + ")], " +
         num(C.ld()) + ", " + num(G.LayC) + ", " + Shape + ")\n"
         "          }\n"
         "        }\n"
         "      }\n"
         "    }\n"
         "  }\n"
         "}\n";
}

/// Small integers (exact everywhere) or, with Rough, halves of many
/// magnitudes whose fp32 sums round, so the summation order shows.
float sample(int64_t I, int Salt, bool Rough) {
  if (!Rough)
    return float((I * 7 + Salt * 3) % 9) - 4.0f;
  return sim::halfToFloat(sim::floatToHalf(std::ldexp(1.0f + float((I * 37 + Salt) % 101) / 101.0f,
                                                      int((I * 5 + Salt) % 23) - 11) *
                                           ((I + Salt) % 3 == 0 ? -1.0f : 1.0f)));
}

/// Runs the kernel of G and compares C (tiles and padding) with the
/// reference bit for bit.
void checkMma(const Config &G, bool Rough = false) {
  TileLayout A = G.a(), B = G.b(), C = G.c();
  LoweredKernel K = parseKernel(mmaKernel(G), 32);
  std::vector<uint16_t> AH(A.size() * G.Tiles), BH(B.size());
  std::vector<int8_t> AI(A.size() * G.Tiles), BI(B.size());
  std::vector<float> AF(AH.size()), BF(BH.size());
  for (size_t I = 0; I < AH.size(); ++I) {
    AF[I] = sample(I, 1, Rough);
    AH[I] = sim::floatToHalf(AF[I]);
    AI[I] = int8_t((I * 29 + 11) % 256 - 128); // the whole int8 range
  }
  for (size_t I = 0; I < BH.size(); ++I) {
    BF[I] = sample(I, 2, Rough);
    BH[I] = sim::floatToHalf(BF[I]);
    BI[I] = int8_t((I * 53 + 5) % 256 - 128);
  }
  const uint32_t Poison = 0x7fc00123;
  std::vector<uint32_t> CBits(C.size() * G.Tiles, Poison);
  std::string Error;
  void *AData = G.Int8 ? static_cast<void *>(AI.data()) : AH.data();
  void *BData = G.Int8 ? static_cast<void *>(BI.data()) : BH.data();
  sim::SimStats Stats;
  ASSERT_TRUE(run(K, {AData, BData, CBits.data()}, Error, &Stats)) << Error;
  EXPECT_EQ(Stats.Collectives, 1 + 4 * uint64_t(G.Tiles));
  std::vector<uint32_t> Ref(CBits.size(), Poison);
  for (int64_t T = 0; T < G.Tiles; ++T)
    for (int64_t I = 0; I < G.M; ++I)
      for (int64_t J = 0; J < G.N; ++J) {
        uint32_t Bits;
        if (G.Int8) {
          int32_t Acc = 0;
          for (int64_t L = 0; L < G.K; ++L)
            Acc += int32_t(AI[T * A.size() + A.at(I, L)]) * int32_t(BI[B.at(L, J)]);
          std::memcpy(&Bits, &Acc, 4);
        } else {
          float Acc = 0.0f;
          for (int64_t L = 0; L < G.K; ++L) {
            float Product = AF[T * A.size() + A.at(I, L)] * BF[B.at(L, J)];
            Acc = Acc + Product;
          }
          std::memcpy(&Bits, &Acc, 4);
        }
        Ref[T * C.size() + C.at(I, J)] = Bits;
      }
  for (size_t I = 0; I < Ref.size(); ++I)
    ASSERT_EQ(CBits[I], Ref[I]) << "C element " << I << " of m" << G.M << "n" << G.N << "k" << G.K;
}

TEST(SimWmmaTest, Fp16Mma16x16x16RowMajorMatchesReference) { checkMma({16, 16, 16}); }
TEST(SimWmmaTest, Fp16Mma32x8x16RowMajorMatchesReference) { checkMma({32, 8, 16}); }
TEST(SimWmmaTest, Fp16Mma8x32x16RowMajorMatchesReference) { checkMma({8, 32, 16}); }

TEST(SimWmmaTest, Fp16MmaColumnMajorTilesMatchReference) {
  for (Config G : {Config{16, 16, 16}, Config{32, 8, 16}, Config{8, 32, 16}}) {
    G.LayA = G.LayB = G.LayC = 1;
    checkMma(G);
  }
}

TEST(SimWmmaTest, Fp16MmaMixedLayoutsMatchReference) {
  Config G{16, 16, 16};
  G.LayA = 1;
  G.LayC = 1;
  checkMma(G);
  G = Config{32, 8, 16};
  G.LayB = 1;
  checkMma(G);
}

TEST(SimWmmaTest, Fp16MmaRoundsEachAdditionToFp32InAscendingK) {
  for (Config G : {Config{16, 16, 16}, Config{8, 32, 16}})
    checkMma(G, /*Rough=*/true);
}

TEST(SimWmmaTest, Int8MmaAccumulatesInInt32) {
  for (Config G : {Config{16, 16, 16}, Config{32, 8, 16}, Config{8, 32, 16}}) {
    G.Int8 = true;
    checkMma(G);
    G.LayA = G.LayB = G.LayC = 1;
    checkMma(G);
  }
}

TEST(SimWmmaTest, EveryVirtualThreadTileGetsItsOwnFragments) {
  Config G{16, 16, 16};
  G.Tiles = 3;
  checkMma(G);
  G.Tiles = 17;
  checkMma(G);
}

/// C = A*B + C over one 16x16x16 int8 tile with C loaded from memory, so
/// accumulators near INT32_MAX wrap.
TEST(SimWmmaTest, Int8MmaWrapsLikeTwosComplement) {
  LoweredKernel K = parseKernel(
      "func k(A: int8*[256] global, B: int8*[256] global, C: int32*[256] global) target=gpu {\n"
      "  for (lane, 0, 32) bind(threadIdx.x) {\n"
      "    allocate Af: int8[256] wmma.matrix_a {\n"
      "      allocate Bf: int8[256] wmma.matrix_b {\n"
      "        allocate Cf: int32[256] wmma.accumulator {\n"
      "          eval wmma.load_a(Af[0], A[0], 16, 0, 16, 16, 16)\n"
      "          eval wmma.load_b(Bf[0], B[0], 16, 1, 16, 16, 16)\n"
      "          eval wmma.load_c(Cf[0], C[0], 16, 0, 16, 16, 16)\n"
      "          eval wmma.mma(Cf[0], Af[0], Bf[0], Cf[0], 16, 16, 16)\n"
      "          eval wmma.store(C[0], Cf[0], 16, 0, 16, 16, 16)\n"
      "  } } } } }\n",
      32);
  std::vector<int8_t> A(256, 127), B(256);
  std::vector<int32_t> C(256), Ref(256);
  for (int I = 0; I < 256; ++I) {
    B[I] = int8_t(I % 3 ? 127 : -128); // every column sums to more than 90000
    C[I] = 2147483647 - I;
  }
  for (int I = 0; I < 16; ++I)
    for (int J = 0; J < 16; ++J) {
      uint32_t Acc = uint32_t(C[I * 16 + J]);
      for (int L = 0; L < 16; ++L)
        Acc += uint32_t(int32_t(A[I * 16 + L]) * int32_t(B[J * 16 + L])); // B column-major
      Ref[I * 16 + J] = int32_t(Acc);
    }
  std::string Error;
  ASSERT_TRUE(run(K, {A.data(), B.data(), C.data()}, Error)) << Error;
  EXPECT_EQ(C, Ref);
  EXPECT_LT(C[1], 0) << "the sum must have wrapped";
}

/// Two warps (threadIdx.y) each load, multiply and store their own tile
/// through the same fragment index Af[0] / Cf[0].
const char *TwoWarpKernel =
    "func k(A: float16*[512] global, B: float16*[256] global, C: float32*[512] global) target=gpu {\n"
    "  for (w, 0, 2) bind(threadIdx.y) {\n"
    "    for (lane, 0, 32) bind(threadIdx.x) {\n"
    "      allocate Af: float16[256] wmma.matrix_a {\n"
    "        allocate Bf: float16[256] wmma.matrix_b {\n"
    "          allocate Cf: float32[256] wmma.accumulator {\n"
    "            eval wmma.load_a(Af[0], A[(w*256)], 16, 0, 16, 16, 16)\n"
    "            eval wmma.load_b(Bf[0], B[0], 16, 0, 16, 16, 16)\n"
    "            eval wmma.fill(Cf[0], 0.0f, 16, 16, 16)\n"
    "            eval wmma.mma(Cf[0], Af[0], Bf[0], Cf[0], 16, 16, 16)\n"
    "            eval wmma.store(C[(w*256)], Cf[0], 16, 0, 16, 16, 16)\n"
    "  } } } } } }\n";

TEST(SimWmmaTest, FragmentsArePerWarp) {
  LoweredKernel K = parseKernel(TwoWarpKernel, 32, 2);
  std::vector<uint16_t> A(512), B(256);
  std::vector<float> C(512, NAN), Ref(512);
  for (int I = 0; I < 512; ++I)
    A[I] = sim::floatToHalf(I < 256 ? float(I % 5) : -float(I % 7));
  for (int I = 0; I < 256; ++I)
    B[I] = sim::floatToHalf(float(I % 3) - 1.0f);
  for (int W = 0; W < 2; ++W)
    for (int I = 0; I < 16; ++I)
      for (int J = 0; J < 16; ++J) {
        float Acc = 0.0f;
        for (int L = 0; L < 16; ++L)
          Acc = Acc + sim::halfToFloat(A[W * 256 + I * 16 + L]) * sim::halfToFloat(B[L * 16 + J]);
        Ref[W * 256 + I * 16 + J] = Acc;
      }
  std::string Error;
  sim::SimStats Stats;
  ASSERT_TRUE(run(K, {A.data(), B.data(), C.data()}, Error, &Stats)) << Error;
  EXPECT_EQ(C, Ref);
  EXPECT_EQ(Stats.Collectives, 10u); // 5 per warp
}

/// A one-warp kernel: Body inside `for (lane) { allocate Af, Bf, Cf {...} }`,
/// over A, B: float16[512] and C: float32[512].
LoweredKernel oneWarp(const std::string &Body, int Threads = 32) {
  return parseKernel(
      "func k(A: float16*[512] global, B: float16*[512] global, C: float32*[512] global) "
      "target=gpu {\n"
      "  for (lane, 0, " + num(Threads) + ") bind(threadIdx.x) {\n"
      "    allocate Af: float16[256] wmma.matrix_a {\n"
      "      allocate Bf: float16[256] wmma.matrix_b {\n"
      "        allocate Cf: float32[256] wmma.accumulator {\n" + Body +
      "  } } } } }\n",
      Threads);
}

/// Runs K on zeroed buffers; returns the error (empty on success).
std::string runError(const LoweredKernel &K) {
  std::vector<uint16_t> A(512), B(512);
  std::vector<float> C(512);
  std::string Error;
  if (run(K, {A.data(), B.data(), C.data()}, Error))
    return std::string();
  return Error.empty() ? "failed with no message" : Error;
}

std::string compileError(const LoweredKernel &K) {
  std::string Error;
  if (sim::compileKernel(K, Error))
    return std::string();
  return Error;
}

#define EXPECT_HAS(Text, Part) EXPECT_NE((Text).find(Part), std::string::npos) << (Text)

TEST(SimWmmaTest, LanesAtDifferentCollectivesAreDivergent) {
  std::string E = runError(oneWarp("if ((lane < 16)) {\n"
                                   "  eval wmma.fill(Cf[0], 0.0f, 16, 16, 16)\n"
                                   "} else {\n"
                                   "  eval wmma.fill(Cf[0], 1.0f, 16, 16, 16)\n"
                                   "}\n"));
  EXPECT_HAS(E, "divergent warp at a collective");
  EXPECT_HAS(E, "wmma.fill");
}

TEST(SimWmmaTest, LanesThatFinishWhileOthersWaitArePartialWarp) {
  std::string E = runError(oneWarp("if ((lane < 16)) {\n"
                                   "  eval wmma.fill(Cf[0], 0.0f, 16, 16, 16)\n"
                                   "}\n"));
  EXPECT_HAS(E, "partial warp at a collective");
  EXPECT_HAS(E, "(lane 16) has finished");
}

TEST(SimWmmaTest, LanesAtABarrierWhileOthersWaitArePartialWarp) {
  std::string E = runError(oneWarp("if ((lane < 16)) {\n"
                                   "  eval wmma.fill(Cf[0], 0.0f, 16, 16, 16)\n"
                                   "}\n"
                                   "eval sched.syncthreads()\n"));
  EXPECT_HAS(E, "partial warp at a collective");
  EXPECT_HAS(E, "waits at a barrier");
}

TEST(SimWmmaTest, BlockOfIncompleteWarpIsRejectedAtACollective) {
  std::string E = runError(oneWarp("eval wmma.fill(Cf[0], 0.0f, 16, 16, 16)\n", 48));
  EXPECT_HAS(E, "48 threads, not a multiple of 32");
}

TEST(SimWmmaTest, NonUniformFillValueIsReported) {
  std::string E = runError(oneWarp("eval wmma.fill(Cf[0], float32(lane), 16, 16, 16)\n"));
  EXPECT_HAS(E, "non-uniform arguments at a collective: the fill value of thread (1,0,0)");
}

TEST(SimWmmaTest, NonUniformMemoryTileIsReported) {
  std::string E = runError(oneWarp("eval wmma.load_a(Af[0], A[((lane/16)*256)], 16, 0, 16, 16, 16)\n"));
  EXPECT_HAS(E, "the memory index of thread (16,0,0)");
}

TEST(SimWmmaTest, MisalignedTilePointerIsReported) {
  // Element 8 of a half buffer is 16 bytes from its start.
  std::string E = runError(oneWarp("eval wmma.load_a(Af[0], A[8], 16, 0, 16, 16, 16)\n"));
  EXPECT_HAS(E, "misaligned wmma tile: element 8 of 'A' is 16 bytes from its start");
}

TEST(SimWmmaTest, LdmBreakingThePtxFragmentRuleIsReported) {
  // 24 halves = 48 bytes: a multiple of 16 (the guide) but not of the 32-byte
  // per-lane fp16 fragment (PTX).
  std::string E = runError(oneWarp("eval wmma.load_a(Af[0], A[0], 24, 0, 16, 16, 16)\n"));
  EXPECT_HAS(E, "bad ldm 24");
  EXPECT_HAS(E, "32-byte per-lane fragment");
}

TEST(SimWmmaTest, LdmShorterThanTheTileRowIsReported) {
  std::string E = runError(oneWarp("eval wmma.fill(Cf[0], 0.0f, 16, 16, 16)\n"
                                   "eval wmma.store(C[0], Cf[0], 8, 0, 16, 16, 16)\n"));
  EXPECT_HAS(E, "bad ldm 8");
  EXPECT_HAS(E, "at least 16");
}

TEST(SimWmmaTest, Int8LdmNotAMultipleOf16BytesIsReported) {
  LoweredKernel K = parseKernel(
      "func k(A: int8*[1024] global) target=gpu {\n"
      "  for (lane, 0, 32) bind(threadIdx.x) {\n"
      "    allocate Af: int8[256] wmma.matrix_a {\n"
      "      eval wmma.load_a(Af[0], A[0], 24, 0, 16, 16, 16)\n"
      "  } } }\n",
      32);
  std::vector<int8_t> A(1024);
  std::string Error;
  EXPECT_FALSE(run(K, {A.data()}, Error));
  EXPECT_HAS(Error, "bad ldm 24");
}

TEST(SimWmmaTest, TileOutsideTheBufferIsOutOfBounds) {
  std::string E = runError(oneWarp("eval wmma.load_a(Af[0], A[384], 16, 0, 16, 16, 16)\n"));
  EXPECT_HAS(E, "out-of-bounds wmma tile load from global buffer 'A' at index 512");
}

TEST(SimWmmaTest, MmaOfAnUnwrittenAccumulatorIsReported) {
  std::string E = runError(oneWarp("eval wmma.load_a(Af[0], A[0], 16, 0, 16, 16, 16)\n"
                                   "eval wmma.load_b(Bf[0], B[0], 16, 0, 16, 16, 16)\n"
                                   "eval wmma.mma(Cf[0], Af[0], Bf[0], Cf[0], 16, 16, 16)\n"));
  EXPECT_HAS(E, "fragment 'Cf' at index 0 is read before it is written");
}

TEST(SimWmmaTest, StoreOfAnUnwrittenFragmentIsReported) {
  std::string E = runError(oneWarp("eval wmma.store(C[0], Cf[0], 16, 0, 16, 16, 16)\n"));
  EXPECT_HAS(E, "fragment 'Cf' at index 0 is read before it is written");
}

TEST(SimWmmaTest, FragmentIsUndefinedAgainOnEachEntryToItsAllocation) {
  // Cf is filled only in the first iteration; the second allocates it anew.
  LoweredKernel K = parseKernel(
      "func k(C: float32*[256] global) target=gpu {\n"
      "  for (lane, 0, 32) bind(threadIdx.x) {\n"
      "    for (it, 0, 2) {\n"
      "      allocate Cf: float32[256] wmma.accumulator {\n"
      "        if ((it == 0)) {\n"
      "          eval wmma.fill(Cf[0], 0.0f, 16, 16, 16)\n"
      "        }\n"
      "        eval wmma.store(C[0], Cf[0], 16, 0, 16, 16, 16)\n"
      "  } } } }\n",
      32);
  std::vector<float> C(256);
  std::string Error;
  EXPECT_FALSE(run(K, {C.data()}, Error));
  EXPECT_HAS(Error, "read before it is written");
}

TEST(SimWmmaTest, UnsupportedShapeIsACompileError) {
  std::string E = compileError(oneWarp("eval wmma.fill(Cf[0], 0.0f, 16, 16, 8)\n"));
  EXPECT_HAS(E, "shape m16n16k8");
}

TEST(SimWmmaTest, Fp16WithInt32AccumulatorIsACompileError) {
  LoweredKernel K = parseKernel(
      "func k(A: float16*[256] global) target=gpu {\n"
      "  for (lane, 0, 32) bind(threadIdx.x) {\n"
      "    allocate Af: float16[256] wmma.matrix_a {\n"
      "      allocate Bf: float16[256] wmma.matrix_b {\n"
      "        allocate Cf: int32[256] wmma.accumulator {\n"
      "          eval wmma.mma(Cf[0], Af[0], Bf[0], Cf[0], 16, 16, 16)\n"
      "  } } } } }\n",
      32);
  EXPECT_HAS(compileError(K), "unsupported wmma type pairing");
}

TEST(SimWmmaTest, MemoryOfAnotherElementTypeIsACompileError) {
  // A float32 accumulator stored to a float16 buffer.
  std::string E = compileError(oneWarp("eval wmma.store(A[0], Cf[0], 16, 0, 16, 16, 16)\n"));
  EXPECT_HAS(E, "the element types must be equal");
}

TEST(SimWmmaTest, FragmentOfTheWrongScopeIsACompileError) {
  std::string E = compileError(oneWarp("eval wmma.load_a(Bf[0], A[0], 16, 0, 16, 16, 16)\n"));
  EXPECT_HAS(E, "takes a wmma.matrix_a fragment, but 'Bf' is wmma.matrix_b");
}

TEST(SimWmmaTest, PlainAccessToAFragmentIsACompileError) {
  std::string E = compileError(oneWarp("C[lane] = Cf[lane]\n"));
  EXPECT_HAS(E, "plain load from 'Cf'");
  E = compileError(oneWarp("Cf[lane] = 1.0f\n"));
  EXPECT_HAS(E, "plain store to 'Cf'");
}

/// A shared stage of A written by every thread, then the warp's load_a of
/// it, with or without the barrier between them.
LoweredKernel sharedStage(bool Barrier) {
  return parseKernel(
      std::string("func k(A: float16*[256] global, C: float32*[256] global) target=gpu {\n"
                  "  for (lane, 0, 32) bind(threadIdx.x) {\n"
                  "    allocate As: float16[256] shared {\n"
                  "      for (e, 0, 8) {\n"
                  "        As[((e*32) + lane)] = A[((e*32) + lane)]\n"
                  "      }\n") +
          (Barrier ? "      eval sched.syncthreads()\n" : "") +
          "      allocate Af: float16[256] wmma.matrix_a {\n"
          "        eval wmma.load_a(Af[0], As[0], 16, 0, 16, 16, 16)\n"
          "  } } } }\n",
      32);
}

TEST(SimWmmaTest, SharedStageWithoutBarrierBeforeWarpLoadIsARace) {
  std::vector<uint16_t> A(256);
  std::vector<float> C(256);
  std::string Error;
  ASSERT_TRUE(run(sharedStage(true), {A.data(), C.data()}, Error)) << Error;
  EXPECT_FALSE(run(sharedStage(false), {A.data(), C.data()}, Error));
  EXPECT_HAS(Error, "race on shared buffer 'As'");
  EXPECT_HAS(Error, "warp 0 (threads (0,0,0) to (31,0,0)) reads it");
}

TEST(SimWmmaTest, GlobalTileStoreRacesWithAnotherWarpsRead) {
  // Warp 1 reads C[0] with no barrier before warp 0's store of the tile.
  LoweredKernel K = parseKernel(
      "func k(C: float32*[256] global, D: float32*[64] global) target=gpu {\n"
      "  for (w, 0, 2) bind(threadIdx.y) {\n"
      "    for (lane, 0, 32) bind(threadIdx.x) {\n"
      "      allocate Cf: float32[256] wmma.accumulator {\n"
      "        D[((w*32) + lane)] = C[0]\n"
      "        if ((w == 0)) {\n"
      "          eval wmma.fill(Cf[0], 1.0f, 16, 16, 16)\n"
      "          eval wmma.store(C[0], Cf[0], 16, 0, 16, 16, 16)\n"
      "        }\n"
      "  } } } }\n",
      32, 2);
  std::vector<float> C(256), D(64);
  std::string Error;
  EXPECT_FALSE(run(K, {C.data(), D.data()}, Error));
  EXPECT_HAS(Error, "race on global buffer 'C' at index 0");
  EXPECT_HAS(Error, "warp 0");
}

TEST(SimWmmaTest, ReadWaitWriteAroundACollectiveIsAGlobalRace) {
  // Lane 0 reads G[0], waits at the fill while lane 1 reads G[0], then
  // writes it: a race with lane 1 that the first read alone does not show.
  LoweredKernel K = parseKernel(
      "func k(G: float32*[64] global) target=gpu {\n"
      "  for (lane, 0, 32) bind(threadIdx.x) {\n"
      "    allocate Cf: float32[256] wmma.accumulator {\n"
      "      G[(lane + 32)] = G[0]\n"
      "      eval wmma.fill(Cf[0], 1.0f, 16, 16, 16)\n"
      "      if ((lane == 0)) {\n"
      "        G[0] = 2.0f\n"
      "      }\n"
      "  } } }\n",
      32);
  std::vector<float> G(64);
  std::string Error;
  EXPECT_FALSE(run(K, {G.data()}, Error));
  EXPECT_HAS(Error, "race on global buffer 'G' at index 0");
}

} // namespace
