//===- IRSimplifyTest.cpp - Tests of the simplifier -----------------------===//
//
// Each test pins one rewrite: folding, identities, affine canonicalization,
// range-based division/modulo and comparison decisions, and statement-level
// branch folding.
//
//===----------------------------------------------------------------------===//

#include "ir/Printer.h"
#include "ir/Simplify.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace sched::ir;

namespace {

Interval range(int64_t Lo, int64_t Hi) { return {makeInt(Lo), makeInt(Hi)}; }

TEST(IRSimplifyTest, FoldsIntegerConstants) {
  EXPECT_EQ(print(simplify((makeInt(3) + makeInt(4)) * makeInt(2))), "14");
  EXPECT_EQ(print(simplify(makeInt(-7) / makeInt(2))), "-3");
  EXPECT_EQ(print(simplify(makeInt(-7) % makeInt(2))), "-1");
}

TEST(IRSimplifyTest, DivisionByZeroIsLeftAlone) {
  EXPECT_EQ(print(simplify(makeInt(1) / makeInt(0))), "(1/0)");
}

TEST(IRSimplifyTest, RemovesIdentities) {
  Var X = makeVar("x");
  EXPECT_EQ(print(simplify((X * makeInt(1)) + makeInt(0))), "x");
  EXPECT_EQ(print(simplify(X * makeInt(0))), "0");
  EXPECT_EQ(print(simplify(X / makeInt(1))), "x");
}

TEST(IRSimplifyTest, CollectsConstantsAndLikeTerms) {
  Var A = makeVar("a"), I = makeVar("i");
  EXPECT_EQ(print(simplify((A + makeInt(3)) + makeInt(4))), "(a + 7)");
  EXPECT_EQ(print(simplify((I + makeInt(1)) + I * makeInt(2))), "((i*3) + 1)");
  EXPECT_EQ(print(simplify((I + A) - I)), "a");
}

TEST(IRSimplifyTest, SplitIndexStaysReadable) {
  Var Io = makeVar("io"), Ii = makeVar("ii");
  EXPECT_EQ(print(simplify(Io * makeInt(8) + Ii)), "((io*8) + ii)");
  EXPECT_EQ(print(simplify((Io + makeInt(1)) * makeInt(8))), "((io*8) + 8)");
}

TEST(IRSimplifyTest, NegativeTermsBecomeSubtractions) {
  Var M = makeVar("M"), I = makeVar("i");
  EXPECT_EQ(print(simplify(makeInt(0) - I + M)), "(M - i)");
  EXPECT_EQ(print(simplify(makeInt(7) - I)), "(7 - i)");
  EXPECT_EQ(print(simplify(I - makeInt(1))), "(i - 1)");
}

TEST(IRSimplifyTest, FusedIndexDividesBackWhenInnerIsInRange) {
  Var I = makeVar("i"), J = makeVar("j");
  VarRanges R = {{I.get(), range(0, 15)}, {J.get(), range(0, 7)}};
  Expr Fused = I * makeInt(8) + J;
  EXPECT_EQ(print(simplify(Fused / makeInt(8), &R)), "i");
  EXPECT_EQ(print(simplify(Fused % makeInt(8), &R)), "j");
}

TEST(IRSimplifyTest, DivisionIsKeptWhenTheRemainderMayNotFit) {
  Var I = makeVar("i"), J = makeVar("j");
  VarRanges R = {{I.get(), range(0, 15)}, {J.get(), range(0, 8)}};
  EXPECT_EQ(print(simplify((I * makeInt(8) + J) / makeInt(8), &R)), "(i + (j/8))");
  VarRanges Unknown;
  EXPECT_EQ(print(simplify((I * makeInt(8) + J) / makeInt(8), &Unknown)), "(((i*8) + j)/8)");
}

TEST(IRSimplifyTest, DecidesComparisonsFromBounds) {
  Var I = makeVar("i"), M = makeVar("M");
  VarRanges R = {{I.get(), {makeInt(0), M - makeInt(1)}}};
  EXPECT_EQ(print(simplify(I < M, &R)), "true");
  EXPECT_EQ(print(simplify(makeBinary(BinOp::GE, I, M), &R)), "false");
  VarRanges Small = {{I.get(), range(0, 7)}};
  EXPECT_EQ(print(simplify(I < makeInt(8), &Small)), "true");
  EXPECT_EQ(print(simplify(I < makeInt(7), &Small)), "(i < 7)");
}

TEST(IRSimplifyTest, MinMaxPickTheArmBoundsProve) {
  Var I = makeVar("i");
  VarRanges R = {{I.get(), range(0, 7)}};
  EXPECT_EQ(print(simplify(makeBinary(BinOp::Min, I, makeInt(8)), &R)), "i");
  EXPECT_EQ(print(simplify(makeBinary(BinOp::Max, I, makeInt(8)), &R)), "8");
  EXPECT_EQ(print(simplify(makeBinary(BinOp::Min, I, makeInt(4)), &R)), "min(i, 4)");
}

TEST(IRSimplifyTest, FoldsFloatConstantsAtTheirPrecision) {
  EXPECT_EQ(print(simplify(makeFloat(0.5) + makeFloat(1.0))), "1.5f");
  Var X = makeVar("x", DType::Float32);
  EXPECT_EQ(print(simplify(X * makeFloat(1.0))), "x");
  EXPECT_EQ(print(simplify(X + makeFloat(0.0))), "(x + 0.0f)"); // -0.0 + 0.0 is +0.0
}

TEST(IRSimplifyTest, StatementSimplifyUsesLoopRangesAndFoldsIfs) {
  Var I = makeVar("i");
  Buffer Out = makeBuffer("out", DType::Int32, {makeInt(8)});
  Stmt S = makeFor(I, makeInt(0), makeInt(8),
                   makeIf(I < makeInt(8), makeStore(Out, {(I * makeInt(4) + makeInt(3)) / makeInt(4)}, I),
                          makeStore(Out, {I}, makeInt(0))));
  EXPECT_EQ(print(simplify(S)), "for (i, 0, 8) {\n  out[i] = i\n}\n");
}

TEST(IRSimplifyTest, FalseBranchWithoutElseDisappearsButLoopStays) {
  Var I = makeVar("i");
  Buffer Out = makeBuffer("out", DType::Int32, {makeInt(1)});
  Stmt S = makeFor(I, makeInt(0), makeInt(1), makeIf(I < makeInt(0), makeStore(Out, {I}, I)));
  EXPECT_EQ(print(simplify(S)), "for (i, 0, 1) {\n}\n");
}

TEST(IRSimplifyTest, IsIdempotentOnCanonicalForms) {
  Var Io = makeVar("io"), Ii = makeVar("ii"), K = makeVar("K");
  Expr E = simplify((Io * makeInt(8) + Ii) * K - makeInt(3));
  EXPECT_EQ(print(simplify(E)), print(E));
}


// canonicalize remembers its answers by the expression's structure (issue
// 24): a twin built apart gets the same answer, with its own variables, and
// comes back itself where canonicalize leaves it unchanged.
TEST(IRSimplifyTest, CanonicalizeRemembersByStructureExactly) {
  Var X = makeVar("x"), OtherX = makeVar("x");
  Expr First = canonicalize((X + makeInt(1)) + makeInt(1));
  Expr Second = canonicalize((OtherX + makeInt(1)) + makeInt(1));
  EXPECT_TRUE(structurallyEqual(First, X + makeInt(2)));
  EXPECT_TRUE(structurallyEqual(Second, OtherX + makeInt(2)));   // variables by identity
  EXPECT_FALSE(structurallyEqual(Second, X + makeInt(2)));

  Expr Canonical = X * makeInt(3) + makeInt(1);
  EXPECT_EQ(canonicalize(Canonical), Canonical);
  Expr Twin = X * makeInt(3) + makeInt(1);
  EXPECT_EQ(canonicalize(Twin), Twin); // itself, not the remembered first one

  // 0.0 and -0.0 are equal values but fold differently: remembered apart.
  Expr Zero = canonicalize(makeFloat(0.0) * makeFloat(2.0));
  Expr NegZero = canonicalize(makeFloat(-0.0) * makeFloat(2.0));
  ASSERT_TRUE(as<FloatImmNode>(Zero) && as<FloatImmNode>(NegZero));
  EXPECT_FALSE(std::signbit(as<FloatImmNode>(Zero)->Value));
  EXPECT_TRUE(std::signbit(as<FloatImmNode>(NegZero)->Value));
}

} // namespace
