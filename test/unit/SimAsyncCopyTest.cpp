//===- SimAsyncCopyTest.cpp - cp.async in the simulator --------------------===//
//
// Hand-written kernels (parsed from text, no pass involved) that copy global
// memory into shared memory with sched.cp_async. A copy lands only at its
// issuing thread's wait for its group; other threads see it after a barrier
// that follows that wait. Everything else is an error the simulator must
// report: an access to an element in flight (by the issuer or anyone), a
// thread that ends with copies it never waited for, a copy that is not
// aligned to its size.
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

#define EXPECT_HAS(Text, Part) EXPECT_NE((Text).find(Part), std::string::npos) << (Text)

/// Four threads, each copying 8 halves of A (A[t*8 ..]) into S by cp.async
/// with Steps between the copy and the read of S[((t + 1) % 4) * 8 + Offset]
/// (another thread's run) into C[t].
LoweredKernel copyThenRead(const std::string &Steps, const std::string &Copy = "(t*8)") {
  return parseKernel("func k(A: float16*[32] global, C: float16*[4] global) target=gpu {\n"
                     "  for (t, 0, 4) bind(threadIdx.x) {\n"
                     "    allocate S: float16[32] shared {\n"
                     "      eval sched.cp_async(S[" + Copy + "], A[" + Copy + "], 1, 8)\n" +
                         Steps +
                         "      C[t] = S[(((t + 1) % 4)*8)]\n"
                         "  } } }\n",
                     4);
}

bool run(const LoweredKernel &K, std::string &Error) {
  static std::vector<uint16_t> A, C;
  A.assign(32, 0);
  for (int I = 0; I < 32; ++I)
    A[I] = static_cast<uint16_t>(0x3c00 + I); // 1.0 + I ulp: distinct halves
  C.assign(4, 0);
  return sim::simulate(K, {A.data(), C.data()}, sim::SimOptions(), Error);
}

TEST(SimAsyncCopyTest, WaitThenBarrierPublishesTheCopies) {
  std::string Error;
  EXPECT_TRUE(run(copyThenRead("      eval sched.cp_async_commit()\n"
                               "      eval sched.cp_async_wait(0)\n"
                               "      eval sched.syncthreads()\n"),
                  Error))
      << Error;
}

TEST(SimAsyncCopyTest, ReadOfAnElementInFlightIsReported) {
  std::string Error;
  EXPECT_FALSE(run(copyThenRead("      eval sched.cp_async_commit()\n"
                                "      eval sched.syncthreads()\n"),
                   Error));
  EXPECT_HAS(Error, "read of shared buffer 'S' at index 8 by thread (0,0,0)");
  EXPECT_HAS(Error, "while a cp.async to it is in flight (issued by thread (1,0,0)");
}

TEST(SimAsyncCopyTest, WaitLeavingTheNewestGroupsInFlightDoesNotLandThem) {
  std::string Error;
  // The copy is the thread's only group: wait_group(1) may leave it in flight.
  EXPECT_FALSE(run(copyThenRead("      eval sched.cp_async_commit()\n"
                                "      eval sched.cp_async_wait(1)\n"
                                "      eval sched.syncthreads()\n"),
                   Error));
  EXPECT_HAS(Error, "while a cp.async to it is in flight");
  // An empty group committed after it: wait_group(1) lands it.
  EXPECT_TRUE(run(copyThenRead("      eval sched.cp_async_commit()\n"
                               "      eval sched.cp_async_commit()\n"
                               "      eval sched.cp_async_wait(1)\n"
                               "      eval sched.syncthreads()\n"),
                  Error))
      << Error;
}

TEST(SimAsyncCopyTest, WaitWithoutABarrierRacesWithTheOtherThreadsReads) {
  std::string Error;
  EXPECT_FALSE(run(copyThenRead("      eval sched.cp_async_commit()\n"
                                "      eval sched.cp_async_wait(0)\n"),
                   Error));
  EXPECT_HAS(Error, "race on shared buffer 'S' at index 8 in kernel 'k', block (0,0,0): thread (0,0,0) reads it");
  EXPECT_HAS(Error, "thread (1,0,0) writes it (eval sched.cp_async(");
}

TEST(SimAsyncCopyTest, UncommittedCopiesAreNotWaitedFor) {
  std::string Error;
  EXPECT_FALSE(run(copyThenRead("      eval sched.cp_async_wait(0)\n"
                                "      eval sched.syncthreads()\n"),
                   Error));
  EXPECT_HAS(Error, "while a cp.async to it is in flight");
}

TEST(SimAsyncCopyTest, ThreadEndingWithCopiesInFlightIsReported) {
  LoweredKernel K =
      parseKernel("func k(A: float16*[32] global) target=gpu {\n"
                  "  for (t, 0, 4) bind(threadIdx.x) {\n"
                  "    allocate S: float16[32] shared {\n"
                  "      eval sched.cp_async(S[(t*8)], A[(t*8)], 1, 8)\n"
                  "      eval sched.cp_async_commit()\n"
                  "  } } }\n",
                  4);
  std::vector<uint16_t> A(32, 0);
  std::string Error;
  EXPECT_FALSE(sim::simulate(K, {A.data()}, sim::SimOptions(), Error));
  EXPECT_HAS(Error, "ends with 1 cp.async copies it never waited for");
}

TEST(SimAsyncCopyTest, CopyNotAlignedToItsSizeIsReported) {
  std::string Error;
  EXPECT_FALSE(run(copyThenRead("      eval sched.cp_async_commit()\n"
                                "      eval sched.cp_async_wait(0)\n"
                                "      eval sched.syncthreads()\n",
                                "((t*8) + 4)"),
                   Error));
  EXPECT_HAS(Error, "misaligned cp.async to 'S' at index 4 (a copy of 16 bytes must start on a "
                    "multiple of its size)");
}

} // namespace
