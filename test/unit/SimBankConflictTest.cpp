//===- SimBankConflictTest.cpp - ldmatrix bank conflicts, counted -----------===//
//
// The simulator counts the shared-memory wavefronts an ldmatrix takes beyond
// one per 8x8 matrix (SimStats::LdmatrixBankConflicts, a report): a stage
// whose rows are 64 bytes apart puts a matrix's 8 rows in 2 of the 8 groups
// of 4 banks (4 wavefronts each: 3 extra per matrix, 12 for an x4 load);
// rows padded to 80 bytes (5 chunks: LayoutSharedStages' padding) or
// XOR-swizzled (ir::Swizzle) take one.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtil.h"
#include "sim/Simulator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace sched;
using sched::simtest::parseKernel;

namespace {

/// One warp loads a 16x16 tile of A (ldmatrix.x4) from a 16 x Pitch stage.
uint64_t conflictsOf(int Pitch, const std::string &Swizzle = "") {
  std::string P = std::to_string(Pitch), Half = std::to_string(Pitch / 2);
  LoweredKernel K = parseKernel(
      "func k(A: float16*[16, " + P + "] global) target=gpu {\n"
      "  for (lane, 0, 32) bind(threadIdx.x) {\n"
      "    allocate As: float16[16, " + P + "] shared" + Swizzle + " {\n"
      "      for (e, 0, " + Half + ") {\n"
      "        As[(lane/2), (((lane % 2)*" + Half + ") + e)] = A[(lane/2), (((lane % 2)*" + Half +
          ") + e)]\n"
      "      }\n"
      "      eval sched.syncthreads()\n"
      "      allocate Af: float16[256] wmma.matrix_a {\n"
      "        eval mma.load_a(Af[0], As[0, 0], " + P + ", 0, 16, 8, 16)\n"
      "      }\n"
      "  } } }\n",
      32);
  std::vector<uint16_t> A(16 * Pitch, 0x3c00);
  std::string Error;
  sim::SimStats Stats;
  EXPECT_TRUE(sim::simulate(K, {A.data()}, sim::SimOptions(), Error, &Stats)) << Error;
  return Stats.LdmatrixBankConflicts;
}

TEST(SimBankConflictTest, RowsSixtyFourBytesApartConflictFourWays) {
  EXPECT_EQ(conflictsOf(32), 12u);
}

TEST(SimBankConflictTest, RowsPaddedToAnOddNumberOfChunksDoNotConflict) {
  EXPECT_EQ(conflictsOf(40), 0u);
}

TEST(SimBankConflictTest, SwizzledRowsDoNotConflict) {
  EXPECT_EQ(conflictsOf(32, " swizzle(3, 2, 6)"), 0u);
}

} // namespace
