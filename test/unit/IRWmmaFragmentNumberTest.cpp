//===- IRWmmaFragmentNumberTest.cpp - ir::wmmaFragmentNumber -------------===//
//
// The fragment a wmma operand names is its element / (rows*cols): constant
// indices fold, symbolic ones simplify where the ranges allow and stay a
// division otherwise.
//
//===----------------------------------------------------------------------===//
#include "ir/Intrinsics.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>

using namespace sched;
using namespace sched::ir;

namespace {

TEST(IRWmmaFragmentNumberTest, ConstantIndexFolds) {
  EXPECT_EQ(print(wmmaFragmentNumber(makeInt(512), 256)), "2");
  EXPECT_EQ(print(wmmaFragmentNumber(makeInt(0), 256)), "0");
  EXPECT_EQ(print(wmmaFragmentNumber(makeInt(384), 128)), "3");
}

TEST(IRWmmaFragmentNumberTest, MultipleOfARangedVariableIsTheVariable) {
  Var V = makeVar("v");
  VarRanges Ranges;
  Ranges[V.get()] = {makeInt(0), makeInt(16)};
  EXPECT_EQ(print(wmmaFragmentNumber(V * makeInt(256), 256, &Ranges)), "v");
}

TEST(IRWmmaFragmentNumberTest, SumOfMultiplesDividesTermByTerm) {
  Var V = makeVar("v"), Ty = makeVar("ty");
  VarRanges Ranges;
  Ranges[V.get()] = {makeInt(0), makeInt(1)};
  Ranges[Ty.get()] = {makeInt(0), makeInt(3)};
  EXPECT_EQ(print(wmmaFragmentNumber(Ty * makeInt(512) + V * makeInt(256), 256, &Ranges)),
            "((ty*2) + v)");
}

TEST(IRWmmaFragmentNumberTest, UnrangedVariableStaysADivision) {
  // v may be negative as far as the simplifier knows: C's division rounds
  // toward zero there, so it is not rewritten.
  Var V = makeVar("v");
  EXPECT_EQ(print(wmmaFragmentNumber(V * makeInt(256), 256)), "((v*256)/256)");
}

} // namespace
