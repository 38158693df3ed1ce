//===- SimGlobalRaceTest.cpp - The simulator's race detector on global memory ===//
//
// Hand-built lowered kernels whose threads share global elements, run under
// the simulator with its race detector on: two threads of one block are
// ordered only by a barrier between their accesses, threads of two blocks
// never, and the same thread always. Each racy kernel has a twin that orders
// its accesses and must run clean.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtil.h"
#include "sim/Simulator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace sched;
using namespace sched::ir;
using namespace sched::simtest;

namespace {

/// Runs K with the race detector on; returns the error ("" when it ran clean).
std::string runWithRaceDetector(const LoweredKernel &K, const std::vector<void *> &Args) {
  sim::SimOptions Opts;
  Opts.DetectRaces = true;
  std::string Error;
  bool Ok = sim::simulate(K, Args, Opts, Error);
  EXPECT_EQ(Ok, Error.empty()) << Error;
  return Error;
}

/// if (V == C) S
Stmt onlyWhen(const Var &V, int64_t C, Stmt S) {
  return makeIf(makeBinary(BinOp::EQ, V, i32(C)), S);
}

//===----------------------------------------------------------------------===//
// Threads of one block
//===----------------------------------------------------------------------===//

/// A block of 2 threads: thread 0 stores 1 to Out[0] in a first thread loop,
/// thread 1 stores the same value in a second; WithBarrier separates them.
LoweredKernel twoWritersInOneBlock(bool WithBarrier) {
  KernelBuilder KB("two_writers");
  Buffer Out = KB.buffer("Out", DType::Float32, i32(1), false, true);
  KB.block(i32(2));
  Var Tx = makeVar("tx"), Tx2 = makeVar("tx2");
  std::vector<Stmt> Body = {
      bound(Tx, i32(2), "threadIdx.x", onlyWhen(Tx, 0, makeStore(Out, {i32(0)}, makeFloat(1))))};
  if (WithBarrier)
    Body.push_back(syncthreads());
  Body.push_back(
      bound(Tx2, i32(2), "threadIdx.x", onlyWhen(Tx2, 1, makeStore(Out, {i32(0)}, makeFloat(1)))));
  return KB.done(makeSeq(Body));
}

TEST(SimGlobalRaceTest, TwoThreadsOfABlockWritingOneElementRace) {
  LoweredKernel K = twoWritersInOneBlock(/*WithBarrier=*/false);
  float Out = 0;
  // Writing the same value twice is still a race.
  EXPECT_EQ(runWithRaceDetector(K, {&Out}),
            "race on global buffer 'Out' at index 0 in kernel 'two_writers', block (0,0,0): "
            "thread (0,0,0) writes it (Out[0] = 1.0f) and thread (1,0,0) writes it "
            "(Out[0] = 1.0f) with no barrier between them");
}

TEST(SimGlobalRaceTest, BarrierOrdersWritesOfTwoThreadsOfABlock) {
  LoweredKernel K = twoWritersInOneBlock(/*WithBarrier=*/true);
  float Out = 0;
  EXPECT_EQ(runWithRaceDetector(K, {&Out}), "");
  EXPECT_EQ(Out, 1.0f);
}

TEST(SimGlobalRaceTest, RaceDetectionCanBeTurnedOff) {
  LoweredKernel K = twoWritersInOneBlock(/*WithBarrier=*/false);
  float Out = 0;
  sim::SimOptions Opts;
  Opts.DetectRaces = false;
  std::string Error;
  EXPECT_TRUE(sim::simulate(K, {&Out}, Opts, Error)) << Error;
}

/// Thread 0 stores 5 to G[0], then thread 1 copies G[0] to Out[0] (RAW);
/// WithBarrier puts a barrier between the two thread loops.
LoweredKernel handOffInOneBlock(bool WithBarrier) {
  KernelBuilder KB("hand_off");
  Buffer G = KB.buffer("G", DType::Float32, i32(1), true, true);
  Buffer Out = KB.buffer("Out", DType::Float32, i32(1), false, true);
  KB.block(i32(2));
  Var Tx = makeVar("tx"), Tx2 = makeVar("tx2");
  std::vector<Stmt> Body = {
      bound(Tx, i32(2), "threadIdx.x", onlyWhen(Tx, 0, makeStore(G, {i32(0)}, makeFloat(5))))};
  if (WithBarrier)
    Body.push_back(syncthreads());
  Body.push_back(bound(Tx2, i32(2), "threadIdx.x",
                       onlyWhen(Tx2, 1, makeStore(Out, {i32(0)}, makeLoad(G, {i32(0)})))));
  return KB.done(makeSeq(Body));
}

TEST(SimGlobalRaceTest, ReadOfAnotherThreadsWriteWithoutBarrierRaces) {
  LoweredKernel K = handOffInOneBlock(/*WithBarrier=*/false);
  float G = 0, Out = 0;
  EXPECT_EQ(runWithRaceDetector(K, {&G, &Out}),
            "race on global buffer 'G' at index 0 in kernel 'hand_off', block (0,0,0): "
            "thread (0,0,0) writes it (G[0] = 5.0f) and thread (1,0,0) reads it "
            "(G[0] in `Out[0] = G[0]`) with no barrier between them");
}

TEST(SimGlobalRaceTest, BarrierOrdersReadAfterAnotherThreadsWrite) {
  LoweredKernel K = handOffInOneBlock(/*WithBarrier=*/true);
  float G = 0, Out = 0;
  EXPECT_EQ(runWithRaceDetector(K, {&G, &Out}), "");
  EXPECT_EQ(Out, 5.0f);
}

/// A block of 2 threads: thread 0 (EveryThreadReads: both threads) copies
/// G[0] to Out[tx], then thread 1 stores 2 to G[0], with no barrier.
LoweredKernel readThenWriteInOneBlock(bool EveryThreadReads) {
  KernelBuilder KB(EveryThreadReads ? "two_readers" : "war");
  Buffer G = KB.buffer("G", DType::Float32, i32(1), true, true);
  Buffer Out = KB.buffer("Out", DType::Float32, i32(2), false, true);
  KB.block(i32(2));
  Var Tx = makeVar("tx");
  Stmt Read = makeStore(Out, {Tx}, makeLoad(G, {i32(0)}));
  Stmt Body = bound(Tx, i32(2), "threadIdx.x",
                    makeSeq({EveryThreadReads ? Read : onlyWhen(Tx, 0, Read),
                             onlyWhen(Tx, 1, makeStore(G, {i32(0)}, makeFloat(2)))}));
  return KB.done(Body);
}

TEST(SimGlobalRaceTest, WriteOfWhatAnotherThreadReadWithoutBarrierRaces) {
  LoweredKernel K = readThenWriteInOneBlock(/*EveryThreadReads=*/false);
  float G = 0;
  std::vector<float> Out(2, 0);
  EXPECT_EQ(runWithRaceDetector(K, {&G, Out.data()}),
            "race on global buffer 'G' at index 0 in kernel 'war', block (0,0,0): "
            "thread (0,0,0) reads it (G[0] in `Out[tx] = G[0]`) and thread (1,0,0) writes it "
            "(G[0] = 2.0f) with no barrier between them");
}

TEST(SimGlobalRaceTest, WriteAfterTwoThreadsReadRacesWithTheOtherReader) {
  // Thread 1's own read is no conflict for its write; thread 0's is.
  LoweredKernel K = readThenWriteInOneBlock(/*EveryThreadReads=*/true);
  float G = 0;
  std::vector<float> Out(2, 0);
  EXPECT_EQ(runWithRaceDetector(K, {&G, Out.data()}),
            "race on global buffer 'G' at index 0 in kernel 'two_readers', block (0,0,0): "
            "thread (0,0,0) reads it (G[0] in `Out[tx] = G[0]`) and thread (1,0,0) writes it "
            "(G[0] = 2.0f) with no barrier between them");
}

TEST(SimGlobalRaceTest, GlobalScratchAllocatedInTheKernelIsChecked) {
  KernelBuilder KB("scratch");
  Buffer Out = KB.buffer("Out", DType::Float32, i32(2), false, true);
  Buffer Tmp = makeBuffer("Tmp", DType::Float32, {i32(1)}, Scope::Global);
  KB.block(i32(2));
  Var Tx = makeVar("tx");
  Stmt Body = makeAllocate(
      Tmp, bound(Tx, i32(2), "threadIdx.x",
                 makeSeq({makeStore(Tmp, {i32(0)}, makeCast(DType::Float32, Tx)),
                          makeStore(Out, {Tx}, makeLoad(Tmp, {i32(0)}))})));
  LoweredKernel K = KB.done(Body);
  std::vector<float> OutData(2, 0);
  std::string Error = runWithRaceDetector(K, {OutData.data()});
  EXPECT_EQ(Error.rfind("race on global buffer 'Tmp' at index 0", 0), 0u) << Error;
}

//===----------------------------------------------------------------------===//
// Threads of different blocks
//===----------------------------------------------------------------------===//

TEST(SimGlobalRaceTest, TwoBlocksWritingOneElementRaceDespiteBarriers) {
  KernelBuilder KB("two_blocks");
  Buffer Out = KB.buffer("Out", DType::Float32, i32(1), false, true);
  KB.grid(i32(2));
  Var Bx = makeVar("bx");
  Stmt Body = bound(Bx, i32(2), "blockIdx.x",
                    makeSeq({syncthreads(), makeStore(Out, {i32(0)}, makeFloat(1)),
                             syncthreads()}));
  LoweredKernel K = KB.done(Body);
  float OutData = 0;
  EXPECT_EQ(runWithRaceDetector(K, {&OutData}),
            "race on global buffer 'Out' at index 0 in kernel 'two_blocks': block (0,0,0), "
            "thread (0,0,0) writes it (Out[0] = 1.0f) and block (1,0,0), thread (0,0,0) "
            "writes it (Out[0] = 1.0f); threads of different blocks are never ordered within "
            "a launch");
}

TEST(SimGlobalRaceTest, RaceAcrossBlocksNamesBothBlocksCoordinates) {
  // A 2x2x2 grid; block (x,y,z) writes Out[min(x + 2y + 4z, 5)], so block
  // (0,1,1), the seventh to run, writes what block (1,0,1) wrote.
  KernelBuilder KB("grid3d");
  Buffer Out = KB.buffer("Out", DType::Int32, i32(6), false, true);
  KB.grid(i32(2), i32(2));
  KB.K.Geometry.Grid[2] = i32(2);
  Var Bx = makeVar("bx"), By = makeVar("by"), Bz = makeVar("bz");
  Expr Index = makeBinary(BinOp::Min, Bx + By * i32(2) + Bz * i32(4), i32(5));
  Stmt Body = makeStore(Out, {Index}, Bx);
  Body = bound(Bx, i32(2), "blockIdx.x", Body);
  Body = bound(By, i32(2), "blockIdx.y", Body);
  Body = bound(Bz, i32(2), "blockIdx.z", Body);
  LoweredKernel K = KB.done(Body);
  std::vector<int32_t> OutData(6, 0);
  std::string Error = runWithRaceDetector(K, {OutData.data()});
  EXPECT_NE(Error.find("at index 5 in kernel 'grid3d': block (1,0,1), thread (0,0,0) writes it"),
            std::string::npos)
      << Error;
  EXPECT_NE(Error.find("and block (0,1,1), thread (0,0,0) writes it"), std::string::npos)
      << Error;
}

/// Block 0 reads G[0] into Out[0] and block 1 writes G[0] (ReadFirst), or
/// block 0 writes it and block 1 reads it.
LoweredKernel readAndWriteInTwoBlocks(bool ReadFirst) {
  KernelBuilder KB(ReadFirst ? "war_blocks" : "raw_blocks");
  Buffer G = KB.buffer("G", DType::Float32, i32(1), true, true);
  Buffer Out = KB.buffer("Out", DType::Float32, i32(2), false, true);
  KB.grid(i32(2));
  Var Bx = makeVar("bx");
  Stmt Read = makeStore(Out, {Bx}, makeLoad(G, {i32(0)}));
  Stmt Write = makeStore(G, {i32(0)}, makeFloat(3));
  Stmt Body = makeIf(makeBinary(BinOp::EQ, Bx, i32(0)), ReadFirst ? Read : Write,
                     ReadFirst ? Write : Read);
  return KB.done(bound(Bx, i32(2), "blockIdx.x", Body));
}

TEST(SimGlobalRaceTest, WriteOfWhatAnotherBlockReadRaces) {
  LoweredKernel K = readAndWriteInTwoBlocks(/*ReadFirst=*/true);
  float G = 0;
  std::vector<float> Out(2, 0);
  std::string Error = runWithRaceDetector(K, {&G, Out.data()});
  EXPECT_NE(Error.find("block (0,0,0), thread (0,0,0) reads it"), std::string::npos) << Error;
  EXPECT_NE(Error.find("block (1,0,0), thread (0,0,0) writes it"), std::string::npos) << Error;
}

TEST(SimGlobalRaceTest, ReadOfWhatAnotherBlockWroteRaces) {
  LoweredKernel K = readAndWriteInTwoBlocks(/*ReadFirst=*/false);
  float G = 0;
  std::vector<float> Out(2, 0);
  std::string Error = runWithRaceDetector(K, {&G, Out.data()});
  EXPECT_NE(Error.find("block (0,0,0), thread (0,0,0) writes it"), std::string::npos) << Error;
  EXPECT_NE(Error.find("block (1,0,0), thread (0,0,0) reads it"), std::string::npos) << Error;
}

TEST(SimGlobalRaceTest, WriteAfterOwnReadRacesWithAnEarlierBlocksRead) {
  // Block 0 reads G[0]; block 1 reads it too, then writes it: ordered after
  // its own read, not after block 0's.
  KernelBuilder KB("read_then_update");
  Buffer G = KB.buffer("G", DType::Float32, i32(1), true, true);
  Buffer Out = KB.buffer("Out", DType::Float32, i32(2), false, true);
  KB.grid(i32(2));
  Var Bx = makeVar("bx");
  Stmt Body = makeSeq({makeStore(Out, {Bx}, makeLoad(G, {i32(0)})),
                       onlyWhen(Bx, 1, makeStore(G, {i32(0)}, makeFloat(4)))});
  LoweredKernel K = KB.done(bound(Bx, i32(2), "blockIdx.x", Body));
  float GData = 0;
  std::vector<float> OutData(2, 0);
  EXPECT_EQ(runWithRaceDetector(K, {&GData, OutData.data()}),
            "race on global buffer 'G' at index 0 in kernel 'read_then_update': block (0,0,0), "
            "thread (0,0,0) reads it (G[0] in `Out[bx] = G[0]`) and block (1,0,0), thread "
            "(0,0,0) writes it (G[0] = 4.0f); threads of different blocks are never ordered "
            "within a launch");
}

TEST(SimGlobalRaceTest, ThreadsUpdatingOnlyTheirOwnElementsInManyBlocksDoNotRace) {
  // 8 blocks of 32 threads: each thread updates its own G[1 + b*32 + t] twice
  // (adding G[0], which every thread reads and none writes), then after a
  // barrier reads its neighbour's element in the same block.
  KernelBuilder KB("own_elements");
  Buffer G = KB.buffer("G", DType::Int32, i32(257), true, true);
  Buffer Out = KB.buffer("Out", DType::Int32, i32(256), false, true);
  KB.grid(i32(8));
  KB.block(i32(32));
  Var Bx = makeVar("bx"), Tx = makeVar("tx"), Tx2 = makeVar("tx2");
  Expr Own = i32(1) + Bx * i32(32) + Tx;
  Stmt Update = makeStore(G, {Own}, makeLoad(G, {Own}) * i32(2) + makeLoad(G, {i32(0)}));
  Stmt Phase1 = bound(Tx, i32(32), "threadIdx.x", makeSeq({Update, Update}));
  Stmt Phase2 = bound(Tx2, i32(32), "threadIdx.x",
                      makeStore(Out, {Bx * i32(32) + Tx2},
                                makeLoad(G, {i32(1) + Bx * i32(32) + (Tx2 + i32(1)) % i32(32)})));
  LoweredKernel K = KB.done(bound(Bx, i32(8), "blockIdx.x", makeSeq({Phase1, syncthreads(), Phase2})));
  std::vector<int32_t> GData(257), OutData(256, 0);
  for (int I = 0; I < 257; ++I)
    GData[I] = I;
  EXPECT_EQ(runWithRaceDetector(K, {GData.data(), OutData.data()}), "");
  for (int B = 0; B < 8; ++B)
    for (int T = 0; T < 32; ++T) {
      int32_t Neighbour = 1 + B * 32 + (T + 1) % 32;
      EXPECT_EQ(OutData[B * 32 + T], Neighbour * 4) << "block " << B << " thread " << T;
    }
}

TEST(SimGlobalRaceTest, MoreBarrierPhasesThanTheDetectorTellsApartAreReported) {
  // The largest grid CUDA allows leaves no epoch bits for barrier phases:
  // the first barrier must be an error, not a silently shared epoch. (Block
  // 1 stores out of bounds, so a detector that misses it stops there.)
  KernelBuilder KB("huge_grid");
  Buffer Out = KB.buffer("Out", DType::Int32, i32(1), false, true);
  KB.grid(i32(2147483647), i32(65535));
  KB.K.Geometry.Grid[2] = i32(65535);
  Var Bx = makeVar("bx");
  Stmt Body = bound(Bx, i32(2147483647), "blockIdx.x",
                    makeSeq({syncthreads(), makeStore(Out, {Bx}, i32(1))}));
  LoweredKernel K = KB.done(Body);
  int32_t OutData = 0;
  std::string Error = runWithRaceDetector(K, {&OutData});
  EXPECT_EQ(Error.rfind("block (0,0,0) has more than 1 barrier phases, more than the race "
                        "detector and the initialization check tell apart",
                        0),
            0u)
      << Error;
}

//===----------------------------------------------------------------------===//
// Issue 7, case 5: a statement beside a threadIdx loop runs once per thread
//===----------------------------------------------------------------------===//

TEST(SimGlobalRaceTest, StatementBesideThreadLoopRunByEveryThreadRaces) {
  // The lowered form the compiler produced for
  //   for i bind(blockIdx.x) { for j bind(threadIdx.x) C[i*2+j] = A[i*2+j]*2; D[i] += 1 }
  // with 2 threads: D[i] = D[i] + 1 sits outside every thread loop.
  KernelBuilder KB("beside");
  Buffer A = KB.buffer("A", DType::Float32, i32(8), true, false);
  Buffer C = KB.buffer("C", DType::Float32, i32(8), false, true);
  Buffer D = KB.buffer("D", DType::Float32, i32(4), true, true);
  KB.grid(i32(4));
  KB.block(i32(2));
  Var I = makeVar("i"), J = makeVar("j");
  Stmt Inner = bound(J, i32(2), "threadIdx.x",
                     makeStore(C, {I * i32(2) + J}, makeLoad(A, {I * i32(2) + J}) * makeFloat(2)));
  Stmt Beside = makeStore(D, {I}, makeLoad(D, {I}) + makeFloat(1));
  LoweredKernel K = KB.done(bound(I, i32(4), "blockIdx.x", makeSeq({Inner, Beside})));
  std::vector<float> AData(8, 1), CData(8, 0), DData(4, 0);
  EXPECT_EQ(runWithRaceDetector(K, {AData.data(), CData.data(), DData.data()}),
            "race on global buffer 'D' at index 0 in kernel 'beside', block (0,0,0): "
            "thread (0,0,0) writes it (D[i] = (D[i] + 1.0f)) and thread (1,0,0) reads it "
            "(D[i] in `D[i] = (D[i] + 1.0f)`) with no barrier between them");
}

} // namespace
