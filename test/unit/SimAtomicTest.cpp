//===- SimAtomicTest.cpp - sched.atomic_* in the simulator ----------------===//
//
// An atomic update is a read-modify-write that meets other atomic updates of
// its element without a race (in any block, any thread), but races with a
// plain access another thread makes unordered with it: what reductions
// across blocks rely on, and what compute-sanitizer's racecheck says.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"
#include "ir/Parser.h"
#include "sim/Simulator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace sched;

namespace {

LoweredKernel parseKernel(const std::string &Text, int Threads, int Blocks) {
  LoweredKernel K;
  std::string Error;
  EXPECT_TRUE(ir::parseLoopNest(Text, K.Kernel, Error)) << Error << "\n" << Text;
  for (int D = 0; D < 3; ++D) {
    K.Geometry.Grid[D] = ir::makeInt(D == 0 ? Blocks : 1);
    K.Geometry.Block[D] = ir::makeInt(D == 0 ? Threads : 1);
  }
  return K;
}

/// 4 blocks of 32 threads; thread (b, t) runs Body with x[b*32 + t] at hand.
LoweredKernel kernel(const std::string &Body) {
  return parseKernel("func k(x: int32*[128] global, s: int32*[2] global) target=gpu {\n"
                     "  for (b, 0, 4) bind(blockIdx.x) {\n"
                     "    for (t, 0, 32) bind(threadIdx.x) {\n" + Body +
                     "  } }\n"
                     "}\n",
                     32, 4);
}

std::string run(const LoweredKernel &K, std::vector<int> &X, std::vector<int> &S) {
  std::string Error;
  if (sim::simulate(K, {X.data(), S.data()}, sim::SimOptions(), Error))
    return std::string();
  return Error.empty() ? "failed with no message" : Error;
}

#define EXPECT_HAS(Text, Part) EXPECT_NE((Text).find(Part), std::string::npos) << (Text)

TEST(SimAtomicTest, AtomicUpdatesOfOneElementFromEveryBlockDoNotRace) {
  std::vector<int> X(128), S = {10, -1};
  for (int I = 0; I < 128; ++I)
    X[I] = I;
  LoweredKernel K = kernel("eval sched.atomic_add(s[0], x[((b*32) + t)])\n"
                           "eval sched.atomic_max(s[1], x[((b*32) + t)])\n");
  ASSERT_EQ(run(K, X, S), "");
  EXPECT_EQ(S[0], 10 + 127 * 128 / 2);
  EXPECT_EQ(S[1], 127);
}

TEST(SimAtomicTest, APlainStoreAmongAtomicUpdatesIsARace) {
  std::vector<int> X(128), S = {0, 0};
  LoweredKernel K = kernel("eval sched.atomic_add(s[0], x[((b*32) + t)])\n"
                           "if ((t == 0)) {\n"
                           "  s[0] = 7\n"
                           "}\n");
  EXPECT_HAS(run(K, X, S), "race");
}

TEST(SimAtomicTest, APlainReadOfAnElementOthersUpdateAtomicallyIsARace) {
  std::vector<int> X(128), S = {0, 0};
  LoweredKernel K = kernel("eval sched.atomic_add(s[0], 1)\n"
                           "if (((b == 3) && (t == 0))) {\n"
                           "  s[1] = s[0]\n"
                           "}\n");
  EXPECT_HAS(run(K, X, S), "race");
}

} // namespace
