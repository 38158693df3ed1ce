//===- SimSwizzleTest.cpp - Swizzled shared arrays (ir::Swizzle) ------------===//
//
// A swizzle moves a shared array's elements, never its values: within each
// period it is a bijection that keeps every aligned 16-byte chunk whole,
// and a kernel reading back what it wrote through a swizzled array gets the
// same numbers (the simulator places element f at Swizzle.apply(f), as the
// emitted CUDA does).
//
//===----------------------------------------------------------------------===//

#include "SimTestUtil.h"
#include "sim/Simulator.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace sched;
using sched::simtest::parseKernel;

namespace {

TEST(SimSwizzleTest, SwizzleIsABijectionKeepingChunksWhole) {
  ir::Swizzle Sw{3, 2, 6}; // halves, rows of 32: chunk bits ^= (row / 2) % 4
  std::set<int64_t> Seen;
  for (int64_t F = 0; F < 256; ++F) {
    int64_t P = Sw.apply(F);
    EXPECT_EQ(P / 256, F / 256);
    EXPECT_EQ(P % 8, F % 8) << F; // a chunk's 8 halves stay in order
    Seen.insert(P);
  }
  EXPECT_EQ(Seen.size(), 256u);
  // The 8 rows one ldmatrix matrix takes at chunk 0 fall in 8 bank groups.
  std::set<int64_t> Groups;
  for (int64_t Row = 0; Row < 8; ++Row)
    Groups.insert(Sw.apply(Row * 32) * 2 / 16 % 8);
  EXPECT_EQ(Groups.size(), 8u);
}

TEST(SimSwizzleTest, ValuesReadBackThroughASwizzledArrayAreTheOnesWritten) {
  LoweredKernel K = parseKernel(
      "func k(A: float32*[256] global, C: float32*[256] global) target=gpu {\n"
      "  for (t, 0, 32) bind(threadIdx.x) {\n"
      "    allocate S: float32[8, 32] shared swizzle(2, 3, 5) {\n"
      "      for (r, 0, 8) {\n"
      "        S[r, t] = A[((r*32) + t)]\n"
      "      }\n"
      "      eval sched.syncthreads()\n"
      "      for (r, 0, 8) {\n"
      "        C[((r*32) + t)] = S[(7 - r), (31 - t)]\n"
      "      }\n"
      "  } } }\n",
      32);
  std::vector<float> A(256), C(256, -1);
  for (int I = 0; I < 256; ++I)
    A[I] = static_cast<float>(I);
  std::string Error;
  ASSERT_TRUE(sim::simulate(K, {A.data(), C.data()}, sim::SimOptions(), Error)) << Error;
  for (int I = 0; I < 256; ++I)
    EXPECT_EQ(C[I], 255 - I) << I;
}

} // namespace
