//===- IRLoopRebuildTest.cpp - A loop rebuilt keeps what it is not told ---===//
//
// The loop rebuilders of ir/Rewrite.h (withBody, withBounds, withVar,
// withKind) are how every primitive and pass rebuilds an existing loop: each
// changes the fields it names and keeps the rest (variable, bounds, kind,
// thread tag, reduction mark), so a rewrite never drops a `reduce` flag or a
// binding by retyping a constructor call.
//
//===----------------------------------------------------------------------===//
#include "ir/IR.h"
#include "ir/Rewrite.h"

#include <gtest/gtest.h>

using namespace sched::ir;

namespace {

struct Loop {
  Var I = makeVar("i");
  Buffer A = makeBuffer("A", DType::Float32, {makeInt(64)});
  Stmt Body = makeStore(A, {I}, makeFloat(0.0));
  Stmt S = makeFor(I, makeInt(2), makeInt(30), Body, ForKind::Unrolled, "", /*IsReduction=*/true);
  const ForNode *N = as<ForNode>(S);
};

void expectKept(const ForNode *Old, const ForNode *New) {
  ASSERT_NE(New, nullptr);
  EXPECT_EQ(New->LoopKind, Old->LoopKind);
  EXPECT_EQ(New->ThreadTag, Old->ThreadTag);
  EXPECT_EQ(New->IsReduction, Old->IsReduction);
}

TEST(IRLoopRebuildTest, WithBodyChangesTheBodyOnly) {
  Loop L;
  Stmt Other = makeStore(L.A, {L.I}, makeFloat(1.0));
  Stmt Rebuilt = withBody(L.N, Other); // New points into it
  const auto *New = as<ForNode>(Rebuilt);
  expectKept(L.N, New);
  EXPECT_EQ(New->LoopVar, L.I);
  EXPECT_EQ(New->Min, L.N->Min);
  EXPECT_EQ(New->Extent, L.N->Extent);
  EXPECT_EQ(New->Body, Other);
}

TEST(IRLoopRebuildTest, WithBoundsChangesTheBoundsAndBody) {
  Loop L;
  Expr Min = makeInt(0), Extent = makeInt(32);
  Stmt Rebuilt = withBounds(L.N, Min, Extent, L.Body); // New points into it
  const auto *New = as<ForNode>(Rebuilt);
  expectKept(L.N, New);
  EXPECT_EQ(New->LoopVar, L.I);
  EXPECT_EQ(New->Min, Min);
  EXPECT_EQ(New->Extent, Extent);
}

TEST(IRLoopRebuildTest, WithVarPutsTheLoopOverANewVariable) {
  Loop L;
  Var J = makeVar("j");
  Stmt Body = makeStore(L.A, {J}, makeFloat(0.0));
  Expr Zero = makeInt(0);
  Stmt Rebuilt = withVar(L.N, J, Zero, L.N->Extent, Body); // New points into it
  const auto *New = as<ForNode>(Rebuilt);
  expectKept(L.N, New);
  EXPECT_EQ(New->LoopVar, J);
  EXPECT_EQ(New->Min, Zero);
  EXPECT_EQ(New->Body, Body);
}

TEST(IRLoopRebuildTest, WithKindChangesTheKindAndTagOnly) {
  Loop L;
  Stmt Rebuilt = withKind(L.N, ForKind::ThreadBound, "threadIdx.x"); // New points into it
  const auto *New = as<ForNode>(Rebuilt);
  ASSERT_NE(New, nullptr);
  EXPECT_EQ(New->LoopKind, ForKind::ThreadBound);
  EXPECT_EQ(New->ThreadTag, "threadIdx.x");
  EXPECT_TRUE(New->IsReduction);
  EXPECT_EQ(New->LoopVar, L.I);
  EXPECT_EQ(New->Min, L.N->Min);
  EXPECT_EQ(New->Extent, L.N->Extent);
  EXPECT_EQ(New->Body, L.Body);
}

} // namespace
