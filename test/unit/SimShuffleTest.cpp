//===- SimShuffleTest.cpp - warp.shfl_xor in the simulator ----------------===//
//
// The simulator runs a warp shuffle lane by lane: every lane of a whole warp
// must wait at the same shuffle (CUDA's full mask), each takes its partner's
// value, and reading a partner's value it never wrote is an uninitialized
// read. Cross-thread reductions rely on exactly that.
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

LoweredKernel parseKernel(const std::string &Text, int BlockX) {
  LoweredKernel K;
  std::string Error;
  EXPECT_TRUE(ir::parseLoopNest(Text, K.Kernel, Error)) << Error << "\n" << Text;
  for (int D = 0; D < 3; ++D) {
    K.Geometry.Grid[D] = ir::makeInt(1);
    K.Geometry.Block[D] = ir::makeInt(D == 0 ? BlockX : 1);
  }
  return K;
}

/// A block of Threads threads along x; each thread t sets v = x[t], runs
/// Body (which may shuffle v into w) and stores w into y[t].
LoweredKernel kernel(const std::string &Body, int Threads = 64) {
  std::string N = std::to_string(Threads);
  return parseKernel("func k(x: int32*[" + N + "] global, y: int32*[" + N +
                         "] global) target=gpu {\n"
                         "  for (t, 0, " + N + ") bind(threadIdx.x) {\n"
                         "    allocate v: int32[1] local {\n"
                         "      allocate w: int32[1] local {\n"
                         "        v[0] = x[t]\n" + Body +
                         "        y[t] = w[0]\n"
                         "  } } }\n"
                         "}\n",
                     Threads);
}

std::string run(const LoweredKernel &K, std::vector<int> &X, std::vector<int> &Y) {
  std::string Error;
  if (sim::simulate(K, {X.data(), Y.data()}, sim::SimOptions(), Error))
    return std::string();
  return Error.empty() ? "failed with no message" : Error;
}

#define EXPECT_HAS(Text, Part) EXPECT_NE((Text).find(Part), std::string::npos) << (Text)

TEST(SimShuffleTest, EachLaneTakesItsXorPartnersValue) {
  std::vector<int> X(64), Y(64, -1);
  for (int I = 0; I < 64; ++I)
    X[I] = 100 + I;
  LoweredKernel K = kernel("eval warp.shfl_xor(w[0], v[0], 5)\n");
  ASSERT_EQ(run(K, X, Y), "");
  for (int I = 0; I < 64; ++I)
    EXPECT_EQ(Y[I], 100 + ((I & ~31) | ((I % 32) ^ 5))) << "thread " << I;
}

TEST(SimShuffleTest, DestinationMayBeTheSource) {
  std::vector<int> X(32), Y(32, -1);
  for (int I = 0; I < 32; ++I)
    X[I] = I;
  LoweredKernel K = kernel("eval warp.shfl_xor(v[0], v[0], 16)\n"
                           "w[0] = v[0]\n",
                           32);
  ASSERT_EQ(run(K, X, Y), "");
  for (int I = 0; I < 32; ++I)
    EXPECT_EQ(Y[I], I ^ 16);
}

TEST(SimShuffleTest, LanesUnderADivergentConditionAreAnError) {
  std::vector<int> X(32), Y(32);
  LoweredKernel K = kernel("w[0] = 0\n"
                           "if ((t < 16)) {\n"
                           "  eval warp.shfl_xor(w[0], v[0], 1)\n"
                           "}\n",
                           32);
  EXPECT_HAS(run(K, X, Y), "partial warp at a collective");
}

TEST(SimShuffleTest, LanesAtDifferentShufflesAreAnError) {
  std::vector<int> X(32), Y(32);
  LoweredKernel K = kernel("if ((t < 16)) {\n"
                           "  eval warp.shfl_xor(w[0], v[0], 1)\n"
                           "} else {\n"
                           "  eval warp.shfl_xor(w[0], v[0], 2)\n"
                           "}\n",
                           32);
  EXPECT_HAS(run(K, X, Y), "divergent warp at a collective");
}

TEST(SimShuffleTest, APartialWarpIsAnError) {
  std::vector<int> X(48), Y(48);
  LoweredKernel K = kernel("eval warp.shfl_xor(w[0], v[0], 1)\n", 48);
  EXPECT_HAS(run(K, X, Y), "warp collective with a partial warp");
}

TEST(SimShuffleTest, APartnersUnwrittenValueIsAnUninitializedRead) {
  std::vector<int> X(32), Y(32);
  LoweredKernel K = parseKernel("func k(x: int32*[32] global, y: int32*[32] global) target=gpu {\n"
                                "  for (t, 0, 32) bind(threadIdx.x) {\n"
                                "    allocate v: int32[1] local {\n"
                                "      allocate w: int32[1] local {\n"
                                "        if ((t != 3)) {\n"
                                "          v[0] = x[t]\n"
                                "        }\n"
                                "        eval warp.shfl_xor(w[0], v[0], 1)\n"
                                "        y[t] = w[0]\n"
                                "  } } }\n"
                                "}\n",
                                32);
  std::string E = run(K, X, Y);
  EXPECT_HAS(E, "uninitialized read of local buffer 'v'");
}

} // namespace
