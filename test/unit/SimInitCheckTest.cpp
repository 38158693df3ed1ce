//===- SimInitCheckTest.cpp - The simulator's initialization check ---------===//
//
// Hand-written kernels (parsed from text, no pass involved) that read shared
// or local memory nothing wrote, and the correct kernels beside them: the
// simulator must report the first (naming kernel, buffer, element, block and
// thread) and run the second, whatever the compiler does (issue 17 item 3).
// Shared flags are per block and set by any thread's or warp's write; local
// flags per thread and cleared each time the allocation is entered; global
// memory is not checked.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtil.h"
#include "sim/Simulator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace sched;
using sched::simtest::parseKernel;

namespace {

#define EXPECT_HAS(Text, Part) EXPECT_NE((Text).find(Part), std::string::npos) << (Text)

/// The header of the kernels that stage A (4 elements) and write C.
const std::string AToC = "func k(A: float32*[4] global, C: float32*[4] global) target=gpu {\n";

bool run(const LoweredKernel &K, std::vector<void *> Args, std::string &Error,
         bool CheckInit = true) {
  sim::SimOptions Opts;
  Opts.CheckInit = CheckInit;
  return sim::simulate(K, Args, Opts, Error);
}

/// Four threads stage A in shared memory, a guard leaving out the threads
/// from Writers on (issue 17's guard over a cooperative fetch), then each
/// reads its own element after the barrier.
LoweredKernel guardedFetch(int Writers) {
  return parseKernel(AToC +
                     "  for (t, 0, 4) bind(threadIdx.x) {\n"
                     "    allocate S: float32[4] shared {\n"
                     "      if ((t < " + std::to_string(Writers) + ")) {\n"
                     "        S[t] = A[t]\n"
                     "      }\n"
                     "      eval sched.syncthreads()\n"
                     "      C[t] = S[t]\n"
                     "  } } }\n",
                     4);
}

TEST(SimInitCheckTest, SharedReadNothingWroteNamesKernelBufferIndexBlockAndThread) {
  std::vector<float> A = {1, 2, 3, 4}, C(4);
  std::string Error;
  ASSERT_TRUE(run(guardedFetch(4), {A.data(), C.data()}, Error)) << Error;
  EXPECT_FALSE(run(guardedFetch(3), {A.data(), C.data()}, Error));
  EXPECT_EQ(Error, "uninitialized read of shared buffer 'S' at index 3 in kernel 'k', "
                   "block (0,0,0), thread (3,0,0): no thread of the block has written it "
                   "(S[t] in `C[t] = S[t]`)");
}

TEST(SimInitCheckTest, CheckOffRunsTheUninitializedRead) {
  std::vector<float> A = {1, 2, 3, 4}, C(4);
  std::string Error;
  EXPECT_TRUE(run(guardedFetch(3), {A.data(), C.data()}, Error, /*CheckInit=*/false)) << Error;
}

TEST(SimInitCheckTest, SharedElementsOtherThreadsWroteBeforeABarrierAreInitialized) {
  LoweredKernel K = parseKernel(AToC +
                                "  for (t, 0, 4) bind(threadIdx.x) {\n"
                                "    allocate S: float32[4] shared {\n"
                                "      S[t] = A[t]\n"
                                "      eval sched.syncthreads()\n"
                                "      C[t] = S[(3 - t)]\n"
                                "  } } }\n",
                                4);
  std::vector<float> A = {1, 2, 3, 4}, C(4);
  std::string Error;
  ASSERT_TRUE(run(K, {A.data(), C.data()}, Error)) << Error;
  EXPECT_EQ(C, (std::vector<float>{4, 3, 2, 1}));
}

TEST(SimInitCheckTest, ReadBeforeALaterThreadsWriteInThePhaseIsReportedAsTheRace) {
  // No barrier: threads 0 and 1 read S[3] and S[2] before threads 3 and 2
  // (run later in the phase) write them; thread 2's write is the first
  // conflict seen. The bug is the missing barrier, not a missing write.
  LoweredKernel K = parseKernel(AToC +
                                "  for (t, 0, 4) bind(threadIdx.x) {\n"
                                "    allocate S: float32[4] shared {\n"
                                "      S[t] = A[t]\n"
                                "      C[t] = S[(3 - t)]\n"
                                "  } } }\n",
                                4);
  std::vector<float> A = {1, 2, 3, 4}, C(4);
  std::string Error;
  EXPECT_FALSE(run(K, {A.data(), C.data()}, Error));
  EXPECT_EQ(Error.rfind("race on shared buffer 'S' at index 2 in kernel 'k'", 0), 0u) << Error;
}

TEST(SimInitCheckTest, SharedFlagsAreClearedWhenABlockStarts) {
  // Only block 0 fills S: block 1 reads what block 0 wrote into the same
  // simulator storage, which is another block's shared memory on a GPU.
  LoweredKernel K = parseKernel(
      "func k(A: float32*[4] global, C: float32*[8] global) target=gpu {\n"
      "  for (b, 0, 2) bind(blockIdx.x) {\n"
      "    for (t, 0, 4) bind(threadIdx.x) {\n"
      "      allocate S: float32[4] shared {\n"
      "        if ((b == 0)) {\n"
      "          S[t] = A[t]\n"
      "        }\n"
      "        eval sched.syncthreads()\n"
      "        C[((b*4) + t)] = S[t]\n"
      "  } } } }\n",
      4, 2);
  std::vector<float> A = {1, 2, 3, 4}, C(8);
  std::string Error;
  EXPECT_FALSE(run(K, {A.data(), C.data()}, Error));
  EXPECT_HAS(Error, "uninitialized read of shared buffer 'S' at index 0 in kernel 'k', "
                    "block (1,0,0), thread (0,0,0)");
}

TEST(SimInitCheckTest, SharedAllocationInsideALoopKeepsEarlierIterationsWrites) {
  // One `__shared__` array per block: the second iteration reads what the
  // first wrote (a double-buffered stage reads the other stage's fill).
  LoweredKernel K = parseKernel(
      "func k(A: float32*[4] global, C: float32*[8] global) target=gpu {\n"
      "  for (t, 0, 4) bind(threadIdx.x) {\n"
      "    for (it, 0, 2) {\n"
      "      allocate S: float32[4] shared {\n"
      "        if ((it == 0)) {\n"
      "          S[t] = A[t]\n"
      "        }\n"
      "        eval sched.syncthreads()\n"
      "        C[((it*4) + t)] = S[(3 - t)]\n"
      "        eval sched.syncthreads()\n"
      "  } } } }\n",
      4);
  std::vector<float> A = {1, 2, 3, 4}, C(8);
  std::string Error;
  ASSERT_TRUE(run(K, {A.data(), C.data()}, Error)) << Error;
  EXPECT_EQ(C, (std::vector<float>{4, 3, 2, 1, 4, 3, 2, 1}));
}

/// One thread's local array L of two elements: Body runs inside its
/// allocation, in a thread loop of Threads.
LoweredKernel localKernel(const std::string &Body, int Threads = 1) {
  return parseKernel(AToC +
                     "  for (t, 0, " + std::to_string(Threads) + ") bind(threadIdx.x) {\n"
                     "    allocate L: float32[2] local {\n" + Body + "  } } }\n",
                     Threads);
}

TEST(SimInitCheckTest, LocalReadOfAnElementTheThreadDidNotWriteIsReported) {
  std::vector<float> A = {1, 2, 3, 4}, C(4);
  std::string Error;
  ASSERT_TRUE(run(localKernel("L[1] = A[0]\n C[0] = L[1]\n"), {A.data(), C.data()}, Error))
      << Error;
  EXPECT_FALSE(run(localKernel("L[0] = A[0]\n C[0] = L[1]\n"), {A.data(), C.data()}, Error));
  EXPECT_EQ(Error, "uninitialized read of local buffer 'L' at index 1 in kernel 'k', "
                   "block (0,0,0), thread (0,0,0): the thread has not written it since "
                   "entering its allocation (L[1] in `C[0] = L[1]`)");
}

TEST(SimInitCheckTest, LocalMemoryIsPerThread) {
  // Thread 0 writes its L[0] and reads it after the barrier, by which time
  // thread 1 has entered the allocation too; thread 1's L[0] is another
  // element, which it never writes.
  std::vector<float> A = {1, 2, 3, 4}, C(4);
  std::string Error;
  EXPECT_FALSE(run(localKernel("if ((t == 0)) {\n L[0] = A[0]\n }\n"
                               "eval sched.syncthreads()\n C[t] = L[0]\n",
                               2),
                   {A.data(), C.data()}, Error));
  EXPECT_HAS(Error, "uninitialized read of local buffer 'L' at index 0 in kernel 'k', "
                    "block (0,0,0), thread (1,0,0)");
  EXPECT_EQ(C[0], 1.0f); // thread 0 read its own
}

TEST(SimInitCheckTest, LocalAllocationInsideALoopIsUninitializedOnEachEntry) {
  // A new C++ array each iteration: the value the first left is indeterminate.
  LoweredKernel K = parseKernel(AToC +
                                "  for (t, 0, 1) bind(threadIdx.x) {\n"
                                "    for (it, 0, 2) {\n"
                                "      allocate L: float32[1] local {\n"
                                "        if ((it == 0)) {\n"
                                "          L[0] = A[0]\n"
                                "        }\n"
                                "        C[it] = L[0]\n"
                                "  } } } }\n",
                                1);
  std::vector<float> A = {1, 2, 3, 4}, C(4);
  std::string Error;
  EXPECT_FALSE(run(K, {A.data(), C.data()}, Error));
  EXPECT_HAS(Error, "uninitialized read of local buffer 'L' at index 0");
  EXPECT_EQ(C[0], 1.0f); // the first iteration ran
}

TEST(SimInitCheckTest, ReductionIntoAnUnwrittenElementIsARead) {
  std::vector<float> A = {1, 2, 3, 4}, C(4);
  std::string Error;
  EXPECT_FALSE(run(localKernel("L[0] = (L[0] + A[0])\n C[0] = L[0]\n"), {A.data(), C.data()},
                   Error));
  EXPECT_HAS(Error, "uninitialized read of local buffer 'L' at index 0");
}

TEST(SimInitCheckTest, GlobalMemoryIsNotChecked) {
  // A global temporary and an output parameter, both read before written.
  LoweredKernel K = parseKernel("func k(C: float32*[4] global) target=gpu {\n"
                                "  for (t, 0, 4) bind(threadIdx.x) {\n"
                                "    allocate G: float32[4] global {\n"
                                "      C[t] = (C[t] + G[t])\n"
                                "  } } }\n",
                                4);
  std::vector<float> C(4);
  std::string Error;
  EXPECT_TRUE(run(K, {C.data()}, Error)) << Error;
}

/// One warp fills an accumulator with 1 and stores it to shared S (Family:
/// "wmma", a 16x16 tile with leading dimension 32, or "mma", a 16x8 tile
/// with leading dimension 16, stored lane by lane), then each lane reads
/// S[Read] after a barrier.
LoweredKernel storeThenRead(const std::string &Family, const std::string &Read) {
  bool Mma = Family == "mma";
  std::string Shape = Mma ? "16, 8, 16" : "16, 16, 16";
  return parseKernel("func k(C: float32*[32] global) target=gpu {\n"
                     "  for (lane, 0, 32) bind(threadIdx.x) {\n"
                     "    allocate S: float32[512] shared {\n"
                     "      allocate Cf: float32[" + std::string(Mma ? "128" : "256") +
                         "] wmma.accumulator {\n"
                     "        eval " + Family + ".fill(Cf[0], 1.0f, " + Shape + ")\n"
                     "        eval " + Family + ".store(S[0], Cf[0], " + (Mma ? "16" : "32") +
                         ", 0, " + Shape + ")\n"
                     "        eval sched.syncthreads()\n"
                     "        C[lane] = S[" + Read + "]\n"
                     "  } } } }\n",
                     32);
}

TEST(SimInitCheckTest, WmmaStoreToSharedMarksExactlyItsTile) {
  std::vector<float> C(32);
  std::string Error;
  // Rows 0 and 1, columns 0 to 15: in the tile.
  ASSERT_TRUE(run(storeThenRead("wmma", "(((lane/16)*32) + (lane % 16))"), {C.data()}, Error))
      << Error;
  EXPECT_EQ(C, std::vector<float>(32, 1.0f));
  // Row 0, columns 16 to 31: between the tile's rows (ld 32), never written.
  EXPECT_FALSE(run(storeThenRead("wmma", "lane"), {C.data()}, Error));
  EXPECT_HAS(Error, "uninitialized read of shared buffer 'S' at index 16 in kernel 'k', "
                    "block (0,0,0), thread (16,0,0)");
}

TEST(SimInitCheckTest, MmaStoreToSharedMarksExactlyItsTile) {
  std::vector<float> C(32);
  std::string Error;
  // Rows 0 to 3, columns 0 to 7: in the tile (each lane's elements, PTX layout).
  ASSERT_TRUE(run(storeThenRead("mma", "(((lane/8)*16) + (lane % 8))"), {C.data()}, Error))
      << Error;
  EXPECT_EQ(C, std::vector<float>(32, 1.0f));
  // Row 0, columns 8 to 15: between the tile's rows (ld 16), never written.
  EXPECT_FALSE(run(storeThenRead("mma", "lane"), {C.data()}, Error));
  EXPECT_HAS(Error, "uninitialized read of shared buffer 'S' at index 8 in kernel 'k', "
                    "block (0,0,0), thread (8,0,0)");
}

/// A shared stage of A that the threads fill up to element Filled, then a
/// warp collective (Load: wmma.load_a or mma.load_a) reads it as a 16x16
/// tile.
LoweredKernel collectiveLoad(const std::string &Load, int Filled) {
  return parseKernel("func k(A: float16*[256] global) target=gpu {\n"
                     "  for (lane, 0, 32) bind(threadIdx.x) {\n"
                     "    allocate As: float16[256] shared {\n"
                     "      for (e, 0, 8) {\n"
                     "        if ((((e*32) + lane) < " + std::to_string(Filled) + ")) {\n"
                     "          As[((e*32) + lane)] = A[((e*32) + lane)]\n"
                     "        }\n"
                     "      }\n"
                     "      eval sched.syncthreads()\n"
                     "      allocate Af: float16[256] wmma.matrix_a {\n"
                     "        eval " + Load + "(Af[0], As[0], 16, 0, 16, " +
                         (Load == "wmma.load_a" ? "16" : "8") + ", 16)\n"
                     "  } } } }\n",
                     32);
}

TEST(SimInitCheckTest, WmmaLoadOfAPartlyWrittenSharedTileNamesTheWarp) {
  std::vector<uint16_t> A(256);
  std::string Error;
  ASSERT_TRUE(run(collectiveLoad("wmma.load_a", 256), {A.data()}, Error)) << Error;
  EXPECT_FALSE(run(collectiveLoad("wmma.load_a", 255), {A.data()}, Error));
  EXPECT_HAS(Error, "uninitialized read of shared buffer 'As' at index 255 in kernel 'k', "
                    "block (0,0,0), warp 0 (threads (0,0,0) to (31,0,0)): no thread of the "
                    "block has written it (eval wmma.load_a(Af[0], As[0], 16, 0, 16, 16, 16))");
}

TEST(SimInitCheckTest, LdmatrixOfAPartlyWrittenSharedTileIsReported) {
  std::vector<uint16_t> A(256);
  std::string Error;
  ASSERT_TRUE(run(collectiveLoad("mma.load_a", 256), {A.data()}, Error)) << Error;
  EXPECT_FALSE(run(collectiveLoad("mma.load_a", 200), {A.data()}, Error));
  EXPECT_HAS(Error, "uninitialized read of shared buffer 'As' at index 2");
  EXPECT_HAS(Error, "warp 0 (threads (0,0,0) to (31,0,0))");
}

} // namespace
