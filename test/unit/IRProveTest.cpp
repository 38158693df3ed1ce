//===- IRProveTest.cpp - What ir/Prove.h proves about expressions ---------===//
//
// knownDivisor and provablyMultipleOf: the alignment facts tensorize and
// vectorize rely on (a tile start `w*64 + (t/4)*32 + (t*8)%32` is a multiple
// of 8 though it is not affine).
//
//===----------------------------------------------------------------------===//

#include "ir/Prove.h"

#include <gtest/gtest.h>

using namespace sched::ir;

namespace {

TEST(IRProveTest, ModuloOfAMultipleByAMultipleKeepsTheFactor) {
  Var T = makeVar("t"), W = makeVar("w");
  Expr Start = W * makeInt(64) + (T / makeInt(4)) * makeInt(32) + (T * makeInt(8)) % makeInt(32);
  EXPECT_EQ(knownDivisor(Start), 8);
  EXPECT_TRUE(provablyMultipleOf(Start, 8));
  EXPECT_FALSE(provablyMultipleOf(Start, 16));
}

TEST(IRProveTest, UnknownFactorsAreOne) {
  Var T = makeVar("t");
  EXPECT_EQ(knownDivisor(T), 1);
  EXPECT_EQ(knownDivisor((T * makeInt(8)) % makeInt(12)), 4);
  EXPECT_EQ(knownDivisor(T / makeInt(4)), 1);
  EXPECT_FALSE(provablyMultipleOf(T * makeInt(8) + makeInt(4), 8));
}

TEST(IRProveTest, ExactDivisionDividesTheFactor) {
  Var T = makeVar("t");
  EXPECT_EQ(knownDivisor((T * makeInt(32)) / makeInt(4)), 8);
  EXPECT_EQ(knownDivisor((T * makeInt(6)) / makeInt(4)), 1);
  EXPECT_EQ(knownDivisor(makeInt(0)), 0);
  EXPECT_TRUE(provablyMultipleOf(makeInt(0), 16));
}

TEST(IRProveTest, ConditionsStateDivisorsOfVariables) {
  Var K = makeVar("K"), N = makeVar("N"), I = makeVar("i");
  DivisorFacts Facts;
  addDivisorFacts(makeBinary(BinOp::And, makeBinary(BinOp::EQ, K % makeInt(8), makeInt(0)),
                             makeBinary(BinOp::LT, I, N)),
                  Facts);
  addDivisorFacts(makeBinary(BinOp::EQ, K % makeInt(4), makeInt(0)), Facts);
  addDivisorFacts(makeBinary(BinOp::EQ, N % makeInt(8), makeInt(1)), Facts); // not a divisor
  ASSERT_EQ(Facts.size(), 1u);
  EXPECT_EQ(Facts.begin()->second.second, 8);
  std::vector<Expr> Shape = withDivisorFacts({Expr(N), Expr(K)}, Facts);
  EXPECT_TRUE(provablyMultipleOf(I * Shape[1] + makeInt(16), 8));
  EXPECT_FALSE(provablyMultipleOf(I * Shape[0], 8));
}

} // namespace
