//===- SimBlockTicketTest.cpp - sched.block_ticket in the simulator -------===//
//
// The ticket of a fixed-order combine across blocks (ir/Intrinsics.h:
// BlockTicket): the counter counts to n - 1 and wraps to 0; a ticket
// releases what its thread did before it and acquires what the counter's
// earlier tickets released, so the last block reads every block's partial
// without a race, while a read not ordered by a ticket (no ticket, a read
// before the ticket, a partial written after it, another thread of the
// last block before a barrier) is one.
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

/// 4 blocks of 2 threads; p: one partial per block, c: the counter, out:
/// what the last block read, tk: the tickets taken.
LoweredKernel kernel(const std::string &Body) {
  LoweredKernel K;
  std::string Error;
  const std::string Text =
      "func k(p: float32*[4] global, c: uint32*[1] global, out: float32*[1] global, "
      "tk: uint32*[4] global) target=gpu {\n"
      "  for (b, 0, 4) bind(blockIdx.x) {\n"
      "    for (t, 0, 2) bind(threadIdx.x) {\n"
      "      allocate T: uint32[1] local {\n" +
      Body + "      }\n    }\n  }\n}\n";
  EXPECT_TRUE(ir::parseLoopNest(Text, K.Kernel, Error)) << Error << "\n" << Text;
  for (int D = 0; D < 3; ++D) {
    K.Geometry.Grid[D] = ir::makeInt(D == 0 ? 4 : 1);
    K.Geometry.Block[D] = ir::makeInt(D == 0 ? 2 : 1);
  }
  return K;
}

struct Memory {
  std::vector<float> P = {0, 0, 0, 0}, Out = {0};
  std::vector<uint32_t> C = {0}, Tk = {9, 9, 9, 9};
};

std::string run(const LoweredKernel &K, Memory &M) {
  std::string Error;
  if (sim::simulate(K, {M.P.data(), M.C.data(), M.Out.data(), M.Tk.data()}, sim::SimOptions(),
                    Error))
    return std::string();
  return Error.empty() ? "failed with no message" : Error;
}

#define EXPECT_HAS(Text, Part) EXPECT_NE((Text).find(Part), std::string::npos) << (Text)

// Thread 0 of each block: its partial, its ticket; the last block adds the
// partials up in block order.
const char *const Publish = "        if ((t == 0)) {\n"
                            "          p[b] = float32((b + 1))\n"
                            "          eval sched.block_ticket(T[0], c[0], 4)\n"
                            "          tk[b] = T[0]\n";
const char *const Combine = "          if ((T[0] == 3:uint32)) {\n"
                            "            out[0] = (((p[0] + p[1]) + p[2]) + p[3])\n"
                            "          }\n";

TEST(SimBlockTicketTest, TheLastBlockReadsEveryPartialAfterItsTicketWithoutARace) {
  Memory M;
  ASSERT_EQ(run(kernel(std::string(Publish) + Combine + "        }\n"), M), "");
  EXPECT_EQ(M.Out[0], 10.0f);
  EXPECT_EQ(M.Tk, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(M.C[0], 0u); // wrapped after the last ticket: ready for the next launch
}

TEST(SimBlockTicketTest, ReadingThePartialsWithoutATicketIsARace) {
  Memory M;
  EXPECT_HAS(run(kernel("        if ((t == 0)) {\n"
                        "          p[b] = float32((b + 1))\n"
                        "          if ((b == 3)) {\n"
                        "            out[0] = (((p[0] + p[1]) + p[2]) + p[3])\n"
                        "          }\n"
                        "        }\n"),
                 M),
             "race on global buffer 'p'");
}

TEST(SimBlockTicketTest, ReadingThePartialsBeforeTheTicketIsARace) {
  Memory M;
  EXPECT_HAS(run(kernel("        if ((t == 0)) {\n"
                        "          p[b] = float32((b + 1))\n"
                        "          if ((b == 3)) {\n"
                        "            out[0] = (((p[0] + p[1]) + p[2]) + p[3])\n"
                        "          }\n"
                        "          eval sched.block_ticket(T[0], c[0], 4)\n"
                        "        }\n"),
                 M),
             "race on global buffer 'p'");
}

TEST(SimBlockTicketTest, APartialWrittenAfterTheTicketIsNotReleased) {
  Memory M;
  EXPECT_HAS(run(kernel("        if ((t == 0)) {\n"
                        "          eval sched.block_ticket(T[0], c[0], 4)\n"
                        "          p[b] = float32((b + 1))\n" +
                        std::string(Combine) + "        }\n"),
                 M),
             "race on global buffer 'p'");
}

TEST(SimBlockTicketTest, AnotherThreadOfTheLastBlockReadsOnlyAfterABarrier) {
  // Thread 1 reads what thread 0's ticket acquired: a race in the same
  // phase, ordered after a barrier (the last block's ticket shared through
  // out[0] only to keep the example small: tk says which block was last).
  const std::string Tail = "        if (((t == 1) && (b == 3))) {\n"
                           "          out[0] = p[0]\n"
                           "        }\n";
  Memory Same;
  EXPECT_HAS(run(kernel(std::string(Publish) + "        }\n" + Tail), Same),
             "race on global buffer 'p'");
  Memory After;
  EXPECT_EQ(run(kernel(std::string(Publish) + "        }\n        eval sched.syncthreads()\n" +
                       Tail),
                After),
            "");
  EXPECT_EQ(After.Out[0], 1.0f);
}

} // namespace
