//===- SimMmaSyncTest.cpp - The simulator's lane-by-lane mma.sync family --===//
//
// One warp stages A and B in shared memory, loads them with mma.load_a /
// mma.load_b (ldmatrix), multiplies with mma.mma (m16n8k16) and stores C
// with mma.store, all executed per lane as the PTX ISA specifies. Results
// are compared bit for bit with a plain C++ reference (each (i, j) summed in
// ascending k, rounding to fp32 after each addition); a lane's registers
// permuted through the test hook must move exactly the elements the PTX
// layout says; each misuse must be reported.
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

std::string num(int64_t V) { return std::to_string(V); }

/// A memory tile of Rows x Cols in a layout (0 row-major, 1 column-major)
/// with leading dimension Ld.
struct Tile {
  int64_t Rows, Cols, Layout, Ld;
  int64_t size() const { return Ld * (Layout == 0 ? Rows : Cols); }
  int64_t at(int64_t R, int64_t C) const { return Layout == 0 ? R * Ld + C : C * Ld + R; }
};

struct Config {
  int64_t LayA = 0, LayB = 0, LayC = 0;
  int64_t LdA = 24, LdB = 24, LdC = 12; // padded rows (multiples of 8 halves)
  int64_t APtr = 0;                      // where A's tile starts in As
  bool LoadC = false;                    // C starts from memory, else 0
  Tile a() const { return {16, 16, LayA, LdA}; }
  Tile b() const { return {16, 8, LayB, LdB}; }
  Tile c() const { return {16, 8, LayC, LdC}; }
};

/// The kernel: 32 lanes copy A and B to their stages, a barrier, then the
/// mma.sync family on one fragment each.
std::string mmaKernel(const Config &G, const std::string &Extra = "") {
  Tile A = G.a(), B = G.b(), C = G.c();
  int64_t ASize = (A.size() + G.APtr + 31) / 32 * 32, BSize = (B.size() + 31) / 32 * 32;
  std::string Shape = "16, 8, 16";
  return "func k(A: float16*[" + num(ASize) + "] global, B: float16*[" + num(BSize) +
         "] global, C: float32*[" + num(C.size()) + "] global) target=gpu {\n"
         "  for (lane, 0, 32) bind(threadIdx.x) {\n"
         "    allocate As: float16[" + num(ASize) + "] shared {\n"
         "      allocate Bs: float16[" + num(BSize) + "] shared {\n"
         "        for (e, 0, " + num(ASize / 32) + ") {\n"
         "          As[((e*32) + lane)] = A[((e*32) + lane)]\n"
         "        }\n"
         "        for (e, 0, " + num(BSize / 32) + ") {\n"
         "          Bs[((e*32) + lane)] = B[((e*32) + lane)]\n"
         "        }\n"
         "        eval sched.syncthreads()\n"
         "        allocate Af: float16[256] wmma.matrix_a {\n"
         "          allocate Bf: float16[128] wmma.matrix_b {\n"
         "            allocate Cf: float32[128] wmma.accumulator {\n"
         "              eval mma.load_a(Af[0], As[" + num(G.APtr) + "], " + num(A.Ld) + ", " +
         num(G.LayA) + ", " + Shape + ")\n"
         "              eval mma.load_b(Bf[0], Bs[0], " + num(B.Ld) + ", " + num(G.LayB) + ", " +
         Shape + ")\n" +
         (G.LoadC ? "              eval mma.load_c(Cf[0], C[0], " + num(C.Ld) + ", " +
                        num(G.LayC) + ", " + Shape + ")\n"
                  : "              eval mma.fill(Cf[0], 0.0f, " + Shape + ")\n") +
         Extra +
         "              eval mma.mma(Cf[0], Af[0], Bf[0], Cf[0], " + Shape + ")\n"
         "              eval mma.store(C[0], Cf[0], " + num(C.Ld) + ", " + num(G.LayC) + ", " +
         Shape + ")\n"
         "            }\n"
         "          }\n"
         "        }\n"
         "      }\n"
         "    }\n"
         "  }\n"
         "}\n";
}

LoweredKernel parseKernel(const std::string &Text, int Threads = 32) {
  LoweredKernel K;
  std::string Error;
  EXPECT_TRUE(ir::parseLoopNest(Text, K.Kernel, Error)) << Error << "\n" << Text;
  for (int D = 0; D < 3; ++D) {
    K.Geometry.Grid[D] = ir::makeInt(1);
    K.Geometry.Block[D] = ir::makeInt(D == 0 ? Threads : 1);
  }
  return K;
}

/// Halves of many magnitudes whose fp32 sums round, so the summation order
/// shows in the result bits.
float sample(int64_t I, int Salt) {
  return sim::halfToFloat(sim::floatToHalf(std::ldexp(1.0f + float((I * 37 + Salt) % 101) / 101.0f,
                                                      int((I * 5 + Salt) % 23) - 11) *
                                           ((I + Salt) % 3 == 0 ? -1.0f : 1.0f)));
}

/// Inputs, the run, and the reference of one configuration. SwapA / SwapB
/// exchange two elements of the reference's A or B (what permuting a lane's
/// registers must amount to).
struct MmaRun {
  Config G;
  std::vector<float> AF, BF, CInit;
  std::vector<uint16_t> AH, BH;
  std::vector<uint32_t> CBits;

  explicit MmaRun(const Config &G) : G(G) {
    Tile A = G.a(), B = G.b(), C = G.c();
    AF.resize((A.size() + G.APtr + 31) / 32 * 32);
    BF.resize((B.size() + 31) / 32 * 32);
    for (size_t I = 0; I < AF.size(); ++I)
      AF[I] = sample(int64_t(I), 1);
    for (size_t I = 0; I < BF.size(); ++I)
      BF[I] = sample(int64_t(I), 2);
    for (float F : AF)
      AH.push_back(sim::floatToHalf(F));
    for (float F : BF)
      BH.push_back(sim::floatToHalf(F));
    CInit.resize(C.size());
    for (size_t I = 0; I < CInit.size(); ++I)
      CInit[I] = G.LoadC ? sample(int64_t(I), 3) * 8.0f : std::nanf("");
  }

  bool run(std::string &Error, const sim::SimOptions &Opts = sim::SimOptions(),
           const std::string &Extra = "") {
    LoweredKernel K = parseKernel(mmaKernel(G, Extra));
    CBits.resize(CInit.size());
    std::memcpy(CBits.data(), CInit.data(), CInit.size() * 4);
    return sim::simulate(K, {AH.data(), BH.data(), CBits.data()}, Opts, Error);
  }

  std::vector<uint32_t> reference(std::pair<int64_t, int64_t> SwapA = {-1, -1},
                                  std::pair<int64_t, int64_t> SwapB = {-1, -1}) const {
    Tile A = G.a(), B = G.b(), C = G.c();
    std::vector<float> AR = AF, BR = BF;
    if (SwapA.first >= 0)
      std::swap(AR[SwapA.first], AR[SwapA.second]);
    if (SwapB.first >= 0)
      std::swap(BR[SwapB.first], BR[SwapB.second]);
    std::vector<uint32_t> Ref(CInit.size());
    std::memcpy(Ref.data(), CInit.data(), CInit.size() * 4);
    for (int64_t I = 0; I < 16; ++I)
      for (int64_t J = 0; J < 8; ++J) {
        float Acc = G.LoadC ? CInit[C.at(I, J)] : 0.0f;
        for (int64_t L = 0; L < 16; ++L) {
          float Product = AR[G.APtr + A.at(I, L)] * BR[B.at(L, J)];
          Acc = Acc + Product;
        }
        std::memcpy(&Ref[C.at(I, J)], &Acc, 4);
      }
    return Ref;
  }
};

void expectMatches(const Config &G) {
  MmaRun R(G);
  std::string Error;
  ASSERT_TRUE(R.run(Error)) << Error;
  std::vector<uint32_t> Ref = R.reference();
  for (size_t I = 0; I < Ref.size(); ++I)
    ASSERT_EQ(R.CBits[I], Ref[I]) << "C element " << I << " (layouts A " << G.LayA << ", B "
                                  << G.LayB << ", C " << G.LayC << ")";
}

#define EXPECT_HAS(Text, Part) EXPECT_NE((Text).find(Part), std::string::npos) << (Text)

TEST(SimMmaSyncTest, RowMajorAColumnMajorBMatchesReferenceBitForBit) { expectMatches({0, 1, 0}); }
TEST(SimMmaSyncTest, RowMajorARowMajorBUsesTransposedLdmatrixAndMatches) { expectMatches({0, 0, 0}); }
TEST(SimMmaSyncTest, ColumnMajorAUsesTransposedLdmatrixAndMatches) { expectMatches({1, 1, 0}); }
TEST(SimMmaSyncTest, ColumnMajorAAndRowMajorBMatch) { expectMatches({1, 0, 0}); }
TEST(SimMmaSyncTest, ColumnMajorStoreOfCMatches) {
  Config G;
  G.LayC = 1;
  G.LdC = 20; // 16 rows and padding
  expectMatches(G);
}

TEST(SimMmaSyncTest, LoadCAccumulatesOntoMemory) {
  Config G;
  G.LoadC = true;
  G.LayC = 1;
  G.LdC = 20;
  expectMatches(G);
}

/// Lane 5 (g = 1, t = 1) holds a0 = A(1, 2) and a2 = A(9, 2) (PTX): swapping
/// its registers 0 and 2 is the product of A with those two elements
/// exchanged, bit for bit, and differs from the true product.
TEST(SimMmaSyncTest, PermutingOneLanesARegistersSwapsTheElementsThePtxLayoutNames) {
  Config G;
  MmaRun R(G);
  sim::SimOptions Opts;
  Opts.LaneRegistersHook = [](ir::Scope Sc, int64_t Lane, std::vector<double> &Regs) {
    if (Sc == ir::Scope::WmmaMatrixA && Lane == 5)
      std::swap(Regs[0], Regs[2]);
  };
  std::string Error;
  ASSERT_TRUE(R.run(Error, Opts)) << Error;
  Tile A = G.a();
  std::vector<uint32_t> Swapped = R.reference({A.at(1, 2), A.at(9, 2)}), Plain = R.reference();
  EXPECT_EQ(R.CBits, Swapped);
  EXPECT_NE(R.CBits, Plain);
}

/// Lane 6 (g = 1, t = 2) holds b0 = B(4, 1) and b3 = B(13, 1).
TEST(SimMmaSyncTest, PermutingOneLanesBRegistersSwapsTheElementsThePtxLayoutNames) {
  Config G;
  G.LayB = 1;
  MmaRun R(G);
  sim::SimOptions Opts;
  Opts.LaneRegistersHook = [](ir::Scope Sc, int64_t Lane, std::vector<double> &Regs) {
    if (Sc == ir::Scope::WmmaMatrixB && Lane == 6)
      std::swap(Regs[0], Regs[3]);
  };
  std::string Error;
  ASSERT_TRUE(R.run(Error, Opts)) << Error;
  Tile B = G.b();
  EXPECT_EQ(R.CBits, R.reference({-1, -1}, {B.at(4, 1), B.at(13, 1)}));
  EXPECT_NE(R.CBits, R.reference());
}

std::string runError(const Config &G, const std::string &Extra = "") {
  MmaRun R(G);
  std::string Error;
  if (R.run(Error, sim::SimOptions(), Extra))
    return std::string();
  return Error.empty() ? "failed with no message" : Error;
}

TEST(SimMmaSyncTest, LdmatrixFromGlobalMemoryIsACompileError) {
  // The load reads the global parameter A instead of its shared stage.
  std::string Text = mmaKernel(Config());
  std::string From = "eval mma.load_a(Af[0], As[0]";
  Text.replace(Text.find(From), From.size(), "eval mma.load_a(Af[0], A[0]");
  std::string Error;
  EXPECT_FALSE(sim::compileKernel(parseKernel(Text), Error));
  EXPECT_HAS(Error, "'mma.load_a' reads 'A' in global memory; it is ldmatrix, which reads shared "
                    "memory only");
}

TEST(SimMmaSyncTest, LdmatrixRowNotOn16BytesIsReported) {
  Config G;
  G.APtr = 4; // 8 bytes into As
  std::string E = runError(G);
  EXPECT_HAS(E, "misaligned ldmatrix row: lane 0 gives element 4 of 'As', 8 bytes from its start");
}

TEST(SimMmaSyncTest, LeadingDimensionBreakingRowAlignmentIsReported) {
  Config G;
  G.LdA = 20; // row 1 starts 40 bytes in
  std::string E = runError(G);
  EXPECT_HAS(E, "misaligned ldmatrix row: lane 1 gives element 20 of 'As'");
}

TEST(SimMmaSyncTest, LanesAtDifferentMmaCollectivesAreDivergent) {
  std::string E = runError(Config(), "              if ((lane < 16)) {\n"
                                     "                eval mma.fill(Cf[0], 0.0f, 16, 8, 16)\n"
                                     "              }\n");
  EXPECT_HAS(E, "divergent warp at a collective: thread (16,0,0) (lane 16) waits at another one "
                "(eval mma.mma(");
}

TEST(SimMmaSyncTest, StoreOfUnwrittenAccumulatorNamesTheLaneRegister) {
  std::string Text = mmaKernel(Config());
  std::string Fill = "              eval mma.fill(Cf[0], 0.0f, 16, 8, 16)\n";
  Text.erase(Text.find(Fill), Fill.size());
  std::string Mma = "              eval mma.mma(Cf[0], Af[0], Bf[0], Cf[0], 16, 8, 16)\n";
  Text.erase(Text.find(Mma), Mma.size());
  std::vector<uint16_t> A(512), B(512);
  std::vector<float> C(512);
  std::string Error;
  EXPECT_FALSE(sim::simulate(parseKernel(Text), {A.data(), B.data(), C.data()}, sim::SimOptions(),
                             Error));
  EXPECT_HAS(Error, "fragment 'Cf' at index 0 is read before it is written (register element 0 "
                    "of lane 0 was never filled");
}

TEST(SimMmaSyncTest, WmmaShapeIsACompileErrorForMma) {
  std::string Text = mmaKernel(Config());
  std::string From = "mma.fill(Cf[0], 0.0f, 16, 8, 16)";
  Text.replace(Text.find(From), From.size(), "mma.fill(Cf[0], 0.0f, 16, 16, 16)");
  std::string Error;
  EXPECT_FALSE(sim::compileKernel(parseKernel(Text), Error));
  EXPECT_HAS(Error, "'mma.fill' has shape m16n16k16; mma supports m16n8k16");
}

} // namespace
