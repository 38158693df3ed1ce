//===- IRAccessTest.cpp - Tests of the access analysis --------------------===//
//
// collectAccesses (order, loops, guards, intrinsic operands) and the
// parallel-loop test schedule legality relies on.
//
//===----------------------------------------------------------------------===//

#include "IRTestUtil.h"
#include "ir/Access.h"
#include "ir/Dependence.h"
#include "ir/Intrinsics.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>

#include <functional>

using namespace sched::ir;
using sched::irtest::Matmul;

namespace {

TEST(IRAccessTest, CollectsLoadsBeforeTheStoreWithEnclosingLoops) {
  Matmul MM;
  std::vector<Access> All = collectAccesses(MM.KLoop);
  ASSERT_EQ(All.size(), 4u);
  EXPECT_EQ(All[0].Buf, MM.Acc);
  EXPECT_EQ(All[1].Buf, MM.A);
  EXPECT_EQ(All[2].Buf, MM.B);
  EXPECT_EQ(All[3].Buf, MM.Acc);
  EXPECT_FALSE(All[2].IsWrite);
  EXPECT_TRUE(All[3].IsWrite);
  ASSERT_EQ(All[3].Loops.size(), 1u);
  EXPECT_EQ(All[3].Loops[0], as<ForNode>(MM.KLoop));
  EXPECT_EQ(All[3].Statement->Kind, StmtKind::Store);
}

TEST(IRAccessTest, RecordsGuardsNegatedInElse) {
  Var I = makeVar("i");
  Buffer Out = makeBuffer("out", DType::Int32, {makeInt(8)});
  Stmt S = makeIf(I < makeInt(4), makeStore(Out, {I}, I), makeStore(Out, {makeInt(0)}, I));
  std::vector<Access> All = collectAccesses(S);
  ASSERT_EQ(All.size(), 2u);
  ASSERT_EQ(All[0].Guards.size(), 1u);
  EXPECT_EQ(print(All[0].Guards[0]), "(i < 4)");
  EXPECT_EQ(print(All[1].Guards[0]), "!((i < 4))");
}

TEST(IRAccessTest, IntrinsicsContributeTheirDeclaredBufferOperands) {
  IntrinsicInfo Copy;
  Copy.Name = "test.copy";
  Copy.Operands = {OperandRole::WriteBuffer, OperandRole::ReadBuffer, OperandRole::Value};
  registerIntrinsic(Copy);
  Buffer Dst = makeBuffer("dst", DType::Float32, {makeInt(16)});
  Buffer Src = makeBuffer("src", DType::Float32, {makeInt(16)});
  Stmt S = makeEvaluate(makeCall("test.copy",
                                 {makeLoad(Dst, {makeInt(0)}), makeLoad(Src, {makeInt(4)}),
                                  makeInt(16)},
                                 DType::Int32));
  std::vector<Access> All = collectAccesses(S);
  ASSERT_EQ(All.size(), 2u);
  EXPECT_EQ(All[0].Buf, Dst);
  EXPECT_TRUE(All[0].IsWrite);
  EXPECT_EQ(All[1].Buf, Src);
  EXPECT_FALSE(All[1].IsWrite);
  EXPECT_EQ(All[1].Statement, S.get());
}

TEST(IRAccessTest, SpatialLoopsOfMatmulAreParallel) {
  Matmul MM;
  std::string Why;
  EXPECT_TRUE(isParallelLoop(as<ForNode>(MM.ILoop), &Why)) << Why;
  EXPECT_TRUE(isParallelLoop(as<ForNode>(MM.JLoop), &Why)) << Why;
}

TEST(IRAccessTest, ReductionLoopOfMatmulIsNotParallel) {
  Matmul MM;
  std::string Why;
  EXPECT_FALSE(isParallelLoop(as<ForNode>(MM.KLoop), &Why));
  EXPECT_EQ(Why, "'acc' is reduced over 'k'");
}

TEST(IRAccessTest, ShiftedSelfCopyCarriesADependence) {
  Var I = makeVar("i");
  Buffer A = makeBuffer("A", DType::Float32, {makeInt(101)});
  Stmt L = makeFor(I, makeInt(0), makeInt(100), makeStore(A, {I + makeInt(1)}, makeLoad(A, {I})));
  std::string Why;
  EXPECT_FALSE(isParallelLoop(as<ForNode>(L), &Why));
  EXPECT_EQ(Why, "loop-carried dependence on 'A': A[i] (read) and A[(i + 1)] (written)");
}

TEST(IRAccessTest, SplitOuterAndInnerOfASpatialLoopAreParallel) {
  Var Io = makeVar("io"), Ii = makeVar("ii");
  Buffer C = makeBuffer("C", DType::Float32, {makeInt(64)});
  Buffer A = makeBuffer("A", DType::Float32, {makeInt(64)});
  Expr Index = Io * makeInt(8) + Ii;
  Stmt Inner = makeFor(Ii, makeInt(0), makeInt(8), makeStore(C, {Index}, makeLoad(A, {Index})));
  Stmt Outer = makeFor(Io, makeInt(0), makeInt(8), Inner);
  std::string Why;
  EXPECT_TRUE(isParallelLoop(as<ForNode>(Outer), &Why)) << Why;
  EXPECT_TRUE(isParallelLoop(as<ForNode>(Inner), &Why)) << Why;
}

TEST(IRAccessTest, OverlappingStridesAreNotParallel) {
  // C[io*7 + ii] with ii in [0, 8): io=0,ii=7 and io=1,ii=0 both write C[7].
  Var Io = makeVar("io"), Ii = makeVar("ii");
  Buffer C = makeBuffer("C", DType::Float32, {makeInt(64)});
  Stmt Inner = makeFor(Ii, makeInt(0), makeInt(8),
                       makeStore(C, {Io * makeInt(7) + Ii}, makeFloat(1.0)));
  Stmt Outer = makeFor(Io, makeInt(0), makeInt(8), Inner);
  EXPECT_FALSE(isParallelLoop(as<ForNode>(Outer)));
}

TEST(IRAccessTest, BuffersAllocatedInsideTheLoopArePrivate) {
  Matmul MM;
  // The accumulator is allocated inside j's body: j stays parallel even
  // though every iteration writes acc[0].
  std::string Why;
  EXPECT_TRUE(isParallelLoop(as<ForNode>(MM.JLoop), &Why)) << Why;
  // Hoisting the allocation above i makes acc shared by all iterations.
  const auto *Alloc = as<AllocateNode>(as<ForNode>(MM.JLoop)->Body);
  Stmt ILoop = makeFor(MM.I, makeInt(0), MM.M, makeFor(MM.J, makeInt(0), MM.N, Alloc->Body));
  Stmt Hoisted = makeAllocate(MM.Acc, ILoop);
  const auto *I = as<ForNode>(as<AllocateNode>(Hoisted)->Body);
  EXPECT_FALSE(isParallelLoop(I, &Why));
  EXPECT_EQ(Why, "loop-carried dependence on 'acc': acc[0] (written) and acc[0] (written)");
}

TEST(IRAccessTest, LetBoundIndicesAreSeenThrough) {
  Var I = makeVar("i"), T = makeVar("t");
  Buffer A = makeBuffer("A", DType::Float32, {makeInt(8)});
  Stmt L = makeFor(I, makeInt(0), makeInt(8), makeLet(T, I, makeStore(A, {T}, makeFloat(0.0))));
  EXPECT_TRUE(isParallelLoop(as<ForNode>(L)));
  Stmt Constant = makeFor(I, makeInt(0), makeInt(8),
                          makeLet(T, makeInt(0), makeStore(A, {T}, makeFloat(0.0))));
  EXPECT_FALSE(isParallelLoop(as<ForNode>(Constant)));
}

TEST(IRAccessTest, UnknownCallsBlockParallelism) {
  Var I = makeVar("i");
  Stmt L = makeFor(I, makeInt(0), makeInt(8),
                   makeEvaluate(makeCall("mystery", {I}, DType::Int32)));
  std::string Why;
  EXPECT_FALSE(isParallelLoop(as<ForNode>(L), &Why));
  EXPECT_EQ(Why, "call to 'mystery' with unknown effects");
}

TEST(IRAccessTest, SplitOfAFusedLoopIsParallel) {
  // fuse(r, s, rs) then split(rs, b, t, 256): Out[(b*256+t)/40][(b*256+t)%40].
  Var B = makeVar("b"), T = makeVar("t");
  Buffer Out = makeBuffer("Out", DType::Float32, {makeInt(48), makeInt(40)});
  Expr Fused = B * makeInt(256) + T;
  Stmt Inner = makeFor(T, makeInt(0), makeInt(256),
                       makeIf(Fused < makeInt(1920),
                              makeStore(Out, {Fused / makeInt(40), Fused % makeInt(40)},
                                        makeFloat(1.0)),
                              nullptr));
  Stmt Outer = makeFor(B, makeInt(0), makeInt(8), Inner);
  std::string Why;
  EXPECT_TRUE(isParallelLoop(as<ForNode>(Outer), &Why)) << Why;
  EXPECT_TRUE(isParallelLoop(as<ForNode>(Inner), &Why)) << Why;
}

TEST(IRAccessTest, QuotientAloneDoesNotProveAFusedLoopParallel) {
  // Out[f / 4]: four consecutive iterations of f write the same element.
  Var F = makeVar("f");
  Buffer Out = makeBuffer("Out", DType::Float32, {makeInt(16)});
  Stmt L = makeFor(F, makeInt(0), makeInt(64), makeStore(Out, {F / makeInt(4)}, makeFloat(1.0)));
  EXPECT_FALSE(isParallelLoop(as<ForNode>(L)));
}

TEST(IRAccessTest, MismatchedDivisorsDoNotRecoverTheFusedIndex) {
  // Out[f / 8][f % 4]: f = 0 and f = 4 both write Out[0][0].
  Var F = makeVar("f");
  Buffer Out = makeBuffer("Out", DType::Float32, {makeInt(8), makeInt(4)});
  Stmt L = makeFor(F, makeInt(0), makeInt(64),
                   makeStore(Out, {F / makeInt(8), F % makeInt(4)}, makeFloat(1.0)));
  EXPECT_FALSE(isParallelLoop(as<ForNode>(L)));
}

TEST(IRAccessTest, ThreadLoopAroundAStridedSerialLoopIsParallel) {
  // for tx < 32 { for j < 4 { B[tx + j*32] = ... } }: each tx owns the
  // elements congruent to it mod 32, although j's stride exceeds tx's.
  Var Tx = makeVar("tx"), J = makeVar("j");
  Buffer B = makeBuffer("B", DType::Float32, {makeInt(128)});
  Expr Index = Tx + J * makeInt(32);
  Stmt Inner = makeFor(J, makeInt(0), makeInt(4), makeStore(B, {Index}, makeFloat(1.0)));
  Stmt Outer = makeFor(Tx, makeInt(0), makeInt(32), Inner);
  std::string Why;
  EXPECT_TRUE(isParallelLoop(as<ForNode>(Outer), &Why)) << Why;
}

TEST(IRAccessTest, OverlappingStridedSerialLoopIsNotParallel) {
  // B[tx + j*16] with tx < 32: tx = 16, j = 0 and tx = 0, j = 1 meet.
  Var Tx = makeVar("tx"), J = makeVar("j");
  Buffer B = makeBuffer("B", DType::Float32, {makeInt(128)});
  Stmt Inner = makeFor(J, makeInt(0), makeInt(4),
                       makeStore(B, {Tx + J * makeInt(16)}, makeFloat(1.0)));
  Stmt Outer = makeFor(Tx, makeInt(0), makeInt(32), Inner);
  EXPECT_FALSE(isParallelLoop(as<ForNode>(Outer)));
}

} // namespace

//===----------------------------------------------------------------------===//
// mayConflictAcrossThreads (thread sync's dependence test)
//===----------------------------------------------------------------------===//

/// The first write and the last read of S in `for tx bind(threadIdx.x)
/// [for k] { S[WriteIdx] = 1; Out[tx] = S[ReadIdx] }`, with full context.
Expr TxIdx(Expr T, Expr) { return T; }

struct ThreadPair {
  Var Tx = makeVar("tx"), Ty = makeVar("ty"), K = makeVar("k");
  Buffer S = makeBuffer("S", DType::Float32, {makeInt(256)}, Scope::Shared);
  Buffer Out = makeBuffer("Out", DType::Float32, {makeInt(64)});
  Stmt Root; // owns the loops the accesses point to
  Access Write, Read;
  std::map<std::string, int64_t> Block = {{"threadIdx.x", 64}};

  using IndexFn = std::function<Expr(Expr Tx, Expr K)>;
  ThreadPair(IndexFn WriteFn, IndexFn ReadFn, bool WithK = false) {
    Expr WriteIdx = WriteFn(Tx, K), ReadIdx = ReadFn(Tx, K);
    Stmt Body = makeSeq({makeStore(S, {WriteIdx}, makeFloat(1.0)),
                         makeStore(Out, {Tx}, makeLoad(S, {ReadIdx}))});
    if (WithK)
      Body = makeFor(K, makeInt(0), makeInt(4), Body);
    Root = makeFor(Tx, makeInt(0), makeInt(64), Body, ForKind::ThreadBound, "threadIdx.x");
    for (const Access &A : collectAccesses(Root)) {
      if (A.Buf != S)
        continue;
      (A.IsWrite ? Write : Read) = A;
    }
  }
  bool conflict() const { return mayConflictAcrossThreads(Write, Read, Block); }
};

TEST(IRAccessTest, SameIndexInTheThreadIsNoCrossThreadConflict) {
  ThreadPair Q(TxIdx, TxIdx);
  EXPECT_FALSE(Q.conflict());
}

TEST(IRAccessTest, ReversedReadConflictsAcrossThreads) {
  ThreadPair Q(TxIdx, [](Expr T, Expr) { return makeInt(63) - T; });
  EXPECT_TRUE(Q.conflict());
}

TEST(IRAccessTest, NeighbourReadConflictsAcrossThreads) {
  ThreadPair Q(TxIdx, [](Expr T, Expr) { return T + makeInt(1); });
  EXPECT_TRUE(Q.conflict());
}

TEST(IRAccessTest, SerialOffsetsSmallerThanTheThreadStrideStayInTheThread) {
  // S[tx*4 + k] against S[tx*4 + 3 - k]: a thread's four elements.
  ThreadPair Q([](Expr T, Expr K) { return T * makeInt(4) + K; },
               [](Expr T, Expr K) { return T * makeInt(4) + (makeInt(3) - K); }, true);
  EXPECT_FALSE(Q.conflict());
}

TEST(IRAccessTest, SerialStrideLargerThanTheThreadSpanStaysInTheThread) {
  // S[k*64 + tx]: different iterations touch different rows.
  auto Rows = [](Expr T, Expr K) { return K * makeInt(64) + T; };
  ThreadPair Q(Rows, Rows, true);
  EXPECT_FALSE(Q.conflict());
}

TEST(IRAccessTest, SerialOffsetThatReachesAnotherThreadConflicts) {
  // S[tx + k]: thread 1 at k = 0 meets thread 0 at k = 1.
  auto Shifted = [](Expr T, Expr K) { return T + K; };
  ThreadPair Q(Shifted, Shifted, true);
  EXPECT_TRUE(Q.conflict());
}

/// The loop k of a pair built WithK (the body's loop inside tx).
const ForNode *kLoop(const ThreadPair &Q) {
  return as<ForNode>(as<ForNode>(Q.Root)->Body);
}

TEST(IRAccessTest, TwoCopiesOfAdjacentStepsNeverMeetInTheNextIteration) {
  // S[(k % 2)*64 + (63 - tx)] read at k, S[(k % 2)*64 + tx] written at k + 1:
  // the other copy. Any two iterations may meet (k and k + 2 share a copy).
  ThreadPair Q([](Expr T, Expr K) { return (K % makeInt(2)) * makeInt(64) + T; },
               [](Expr T, Expr K) { return (K % makeInt(2)) * makeInt(64) + (makeInt(63) - T); },
               true);
  EXPECT_TRUE(mayConflictAcrossThreads(Q.Read, Q.Write, Q.Block));
  EXPECT_FALSE(mayConflictAcrossThreads(Q.Read, Q.Write, Q.Block, NextIteration{kLoop(Q)}));
}

TEST(IRAccessTest, OneCopyMeetsItsRefillInTheNextIteration) {
  auto Reversed = [](Expr T, Expr) { return makeInt(63) - T; };
  ThreadPair Q(TxIdx, Reversed, true);
  EXPECT_TRUE(mayConflictAcrossThreads(Q.Read, Q.Write, Q.Block, NextIteration{kLoop(Q)}));
}

TEST(IRAccessTest, ReadOfTheNextCopyMeetsTheNextIterationsFill) {
  // Read S[((k + 1) % 2)*64 + ...] at k; the fill at k + 1 writes that copy.
  ThreadPair Q([](Expr T, Expr K) { return (K % makeInt(2)) * makeInt(64) + T; },
               [](Expr T, Expr K) {
                 return ((K + makeInt(1)) % makeInt(2)) * makeInt(64) + (makeInt(63) - T);
               },
               true);
  EXPECT_TRUE(mayConflictAcrossThreads(Q.Read, Q.Write, Q.Block, NextIteration{kLoop(Q)}));
}

TEST(IRAccessTest, ThreadDimensionMissingFromTheIndexConflicts) {
  ThreadPair Q(TxIdx, TxIdx);
  Q.Block["threadIdx.y"] = 2; // threads (x, 0) and (x, 1) share S[x]
  EXPECT_TRUE(Q.conflict());
}

TEST(IRAccessTest, ReadsNeverConflict) {
  ThreadPair Q(TxIdx, [](Expr T, Expr) { return makeInt(63) - T; });
  EXPECT_FALSE(mayConflictAcrossThreads(Q.Read, Q.Read, Q.Block));
}

TEST(IRAccessTest, GuardToThreadZeroOnBothSidesIsNoCrossThreadConflict) {
  auto Zero = [](Expr, Expr) { return makeInt(0); };
  ThreadPair Q(Zero, Zero);
  Expr IsZero = makeBinary(BinOp::EQ, Q.Tx, makeInt(0));
  EXPECT_TRUE(Q.conflict());
  Q.Write.Guards.push_back(IsZero);
  EXPECT_TRUE(Q.conflict()); // the readers are every thread
  EXPECT_FALSE(mayConflictAcrossThreads(Q.Write, Q.Write, Q.Block));
}
