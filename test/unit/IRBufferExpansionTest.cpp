//===- IRBufferExpansionTest.cpp - One buffer becomes one per copy --------===//
//
// Buffer expansion (ir/Rewrite.h: expandBuffer, expandAccesses) is the one
// mechanism behind reorder's loop distribution (a hoisted accumulator gets an
// element per iteration), InjectVirtualThread (a buffer per virtual thread)
// and InjectVtaContexts (one per VTA context). Each test pins one rule: the
// new leading dimension, the dropped unit shape, the lead index in front of
// every access and allocation, and buffers outside the expansion untouched.
//
//===----------------------------------------------------------------------===//
#include "ir/IR.h"
#include "ir/Printer.h"
#include "ir/Rewrite.h"

#include <gtest/gtest.h>

using namespace sched::ir;

namespace {

TEST(IRBufferExpansionTest, TheCountBecomesANewLeadingDimension) {
  Buffer T = makeBuffer("t", DType::Float16, {makeInt(2), makeInt(8)}, Scope::Shared);
  ExpandedBuffer X = expandBuffer(T, 4);
  ASSERT_TRUE(X.Wide);
  EXPECT_NE(X.Wide, T); // a new buffer: accesses say which one they mean
  EXPECT_EQ(X.Wide->Name, "t");
  EXPECT_EQ(X.Wide->Type, DType::Float16);
  EXPECT_EQ(X.Wide->MemScope, Scope::Shared);
  ASSERT_EQ(X.Wide->Shape.size(), 3u);
  EXPECT_EQ(print(X.Wide->Shape[0]), "4");
  EXPECT_EQ(X.Wide->Shape[1], T->Shape[0]);
  EXPECT_EQ(X.Wide->Shape[2], T->Shape[1]);
  EXPECT_FALSE(X.DropsIndices);
}

TEST(IRBufferExpansionTest, ASingleElementDropsItsShapeOnlyWhenAsked) {
  Buffer Acc = makeBuffer("acc", DType::Float32, {makeInt(1), makeInt(1)}, Scope::Local);
  ExpandedBuffer Kept = expandBuffer(Acc, 8);
  EXPECT_EQ(Kept.Wide->Shape.size(), 3u);
  EXPECT_FALSE(Kept.DropsIndices);
  ExpandedBuffer Dropped = expandBuffer(Acc, 8, /*DropUnitShape=*/true);
  ASSERT_EQ(Dropped.Wide->Shape.size(), 1u);
  EXPECT_EQ(print(Dropped.Wide->Shape[0]), "8");
  EXPECT_TRUE(Dropped.DropsIndices);
  // More than one element keeps its shape even when asked.
  Buffer Row = makeBuffer("row", DType::Float32, {makeInt(4)}, Scope::Local);
  EXPECT_FALSE(expandBuffer(Row, 8, /*DropUnitShape=*/true).DropsIndices);
}

TEST(IRBufferExpansionTest, EveryAccessAndTheAllocationTakeTheLeadIndexFirst) {
  Var I = makeVar("i"), V = makeVar("v");
  Buffer A = makeBuffer("A", DType::Float32, {makeInt(16)});
  Buffer T = makeBuffer("t", DType::Float32, {makeInt(4)}, Scope::Local);
  Buffer Idx = makeBuffer("idx", DType::Int32, {makeInt(4)}, Scope::Local);
  // allocate t { allocate idx { t[i] = A[idx[i]] + t[idx[i]] } }
  Stmt S = makeAllocate(
      T, makeAllocate(Idx, makeStore(T, {I}, makeLoad(A, {makeLoad(Idx, {I})}) +
                                                 makeLoad(T, {makeLoad(Idx, {I})}))));
  BufferExpansions X;
  X[T.get()] = expandBuffer(T, 2);
  X[Idx.get()] = expandBuffer(Idx, 2);
  Stmt Out = expandAccesses(S, X, V);
  EXPECT_EQ(print(Out), "allocate t: float32[2, 4] local {\n"
                        "  allocate idx: int32[2, 4] local {\n"
                        "    t[v, i] = (A[idx[v, i]] + t[v, idx[v, i]])\n"
                        "  }\n"
                        "}\n");
  const auto *Outer = as<AllocateNode>(Out);
  ASSERT_NE(Outer, nullptr);
  EXPECT_EQ(Outer->Buf, X[T.get()].Wide);
}

TEST(IRBufferExpansionTest, ADroppedShapeIsIndexedByTheLeadAlone) {
  Var I = makeVar("i");
  Buffer Acc = makeBuffer("acc", DType::Float32, {makeInt(1)}, Scope::Local);
  Stmt S = makeStore(Acc, {makeInt(0)}, makeLoad(Acc, {makeInt(0)}) + makeFloat(1.0));
  BufferExpansions X;
  X[Acc.get()] = expandBuffer(Acc, 8, /*DropUnitShape=*/true);
  EXPECT_EQ(print(expandAccesses(S, X, I)), "acc[i] = (acc[i] + 1.0f)\n");
}

TEST(IRBufferExpansionTest, WhatTouchesNoExpandedBufferKeepsItsIdentity) {
  Var I = makeVar("i"), V = makeVar("v");
  Buffer A = makeBuffer("A", DType::Float32, {makeInt(16)});
  Buffer T = makeBuffer("t", DType::Float32, {makeInt(4)}, Scope::Local);
  Stmt Other = makeStore(A, {I}, makeFloat(0.0));
  Stmt S = makeSeq({Other, makeStore(T, {I}, makeFloat(1.0))});
  BufferExpansions X;
  X[T.get()] = expandBuffer(T, 2);
  Stmt Out = expandAccesses(S, X, V);
  const auto *Seq = as<SeqNode>(Out);
  ASSERT_NE(Seq, nullptr);
  ASSERT_EQ(Seq->Stmts.size(), 2u);
  EXPECT_EQ(Seq->Stmts[0], Other);
  EXPECT_EQ(expandAccesses(Other, X, V), Other);
}

} // namespace
