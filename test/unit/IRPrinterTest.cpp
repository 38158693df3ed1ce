//===- IRPrinterTest.cpp - Tests of the textual IR printer ----------------===//
//
// The printed form is the contract lit tests and the parser depend on: each
// test pins one rule of the format specified in IR.h.
//
//===----------------------------------------------------------------------===//

#include "IRTestUtil.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>

using namespace sched::ir;
using sched::irtest::Matmul;

namespace {

TEST(IRPrinterTest, PrintsMatmulNestInTheSpecifiedFormat) {
  Matmul MM;
  LoopNest Nest = MM.nest();
  const_cast<BufferNode *>(MM.A.get())->NoAlias = true;
  EXPECT_EQ(print(Nest),
            "func sched_mm_10(A: float32*[M, K] global noalias, B: float32*[K, N] global, "
            "C: float32*[M, N] global, M: int32, N: int32, K: int32) target=gpu {\n"
            "  for (i, 0, M) {\n"
            "    for (j, 0, N) {\n"
            "      allocate acc: float32[1] local {\n"
            "        acc[0] = 0.0f\n"
            "        for (k, 0, K) reduce {\n"
            "          acc[0] = (acc[0] + (A[i, k]*B[k, j]))\n"
            "        }\n"
            "        C[i, j] = acc[0]\n"
            "      }\n"
            "    }\n"
            "  }\n"
            "}\n");
}

TEST(IRPrinterTest, BinaryOperatorsAreParenthesizedAndMulHasNoSpaces) {
  Var X = makeVar("x"), Y = makeVar("y");
  EXPECT_EQ(print((X + Y) * X), "((x + y)*x)");
  EXPECT_EQ(print(X / Y), "(x/y)");
  EXPECT_EQ(print(X % Y), "(x % y)");
  EXPECT_EQ(print(makeBinary(BinOp::Min, X, Y)), "min(x, y)");
  EXPECT_EQ(print(makeBinary(BinOp::Max, X, Y)), "max(x, y)");
  EXPECT_EQ(print(makeBinary(BinOp::LE, X, Y)), "(x <= y)");
  EXPECT_EQ(print(makeBinary(BinOp::And, X < Y, Y < X)), "((x < y) && (y < x))");
}

TEST(IRPrinterTest, UnaryCastSelectAndCallForms) {
  Var X = makeVar("x");
  EXPECT_EQ(print(makeUnary(UnOp::Neg, X)), "-(x)");
  EXPECT_EQ(print(makeUnary(UnOp::Not, X < X)), "!((x < x))");
  EXPECT_EQ(print(makeCast(DType::Float32, X)), "float32(x)");
  EXPECT_EQ(print(makeSelect(X < X, X, X)), "select((x < x), x, x)");
  EXPECT_EQ(print(makeCall("sqrtf", {makeFloat(2.0)}, DType::Float32)), "sqrtf(2.0f)");
}

TEST(IRPrinterTest, CallWithNonDefaultTypeSaysItsType) {
  EXPECT_EQ(print(makeCall("sqrtf", {makeFloat(2.0)}, DType::Float64)), "sqrtf(2.0f):float64");
  EXPECT_EQ(print(makeCall("sched.syncthreads", {}, DType::Int32)), "sched.syncthreads()");
}

TEST(IRPrinterTest, LiteralsCarryTheirTypeUnlessInt32) {
  EXPECT_EQ(print(makeInt(42)), "42");
  EXPECT_EQ(print(makeInt(-3)), "-3");
  EXPECT_EQ(print(makeInt(42, DType::Int64)), "42:int64");
  EXPECT_EQ(print(makeBool(true)), "true");
  EXPECT_EQ(print(makeFloat(1.5, DType::Float16)), "1.5:float16");
  EXPECT_EQ(print(makeFloat(0.1, DType::Float64)), "0.1:float64");
}

TEST(IRPrinterTest, Float32LiteralsAreShortestRoundTripWithADotOrExponent) {
  EXPECT_EQ(print(makeFloat(0.0)), "0.0f");
  EXPECT_EQ(print(makeFloat(1.5)), "1.5f");
  EXPECT_EQ(print(makeFloat(1e-05)), "1e-05f");
  EXPECT_EQ(print(makeFloat(0.1f)), "0.1f");
  EXPECT_EQ(print(makeFloat(100.0)), "100.0f");
}

TEST(IRPrinterTest, DistinctVariablesSharingANameGetSuffixes) {
  Var I1 = makeVar("i"), I2 = makeVar("i"), I3 = makeVar("i");
  EXPECT_EQ(print(I1 + I2 + I1 + I3), "(((i + i_1) + i) + i_2)");
}

TEST(IRPrinterTest, SuffixAvoidsNamesAlreadyTaken) {
  Var I = makeVar("i"), I1 = makeVar("i_1"), Other = makeVar("i");
  EXPECT_EQ(print(I + I1 + Other), "((i + i_1) + i_2)");
}

TEST(IRPrinterTest, LoopKindsPrintBeforeReduceFlag) {
  Var T = makeVar("tx"), U = makeVar("u"), V = makeVar("v");
  Buffer Out = makeBuffer("out", DType::Float32, {makeInt(8)});
  Stmt Inner = makeStore(Out, {T}, makeFloat(1.0));
  EXPECT_EQ(print(makeFor(T, makeInt(0), makeInt(8), Inner, ForKind::ThreadBound, "threadIdx.x",
                          true)),
            "for (tx, 0, 8) bind(threadIdx.x) reduce {\n  out[tx] = 1.0f\n}\n");
  EXPECT_EQ(print(makeFor(U, makeInt(0), makeInt(4), makeSeq({}), ForKind::Unrolled)),
            "for (u, 0, 4) unroll {\n}\n");
  EXPECT_EQ(print(makeFor(V, makeInt(0), makeInt(4), makeSeq({}), ForKind::Vectorized)),
            "for (v, 0, 4) vectorize {\n}\n");
}

TEST(IRPrinterTest, IfElseLetAndEvalStatements) {
  Var X = makeVar("x"), T = makeVar("t");
  Buffer Out = makeBuffer("out", DType::Int32, {makeInt(8)});
  Stmt S = makeLet(T, X * makeInt(8),
                   makeIf(T < makeInt(4), makeStore(Out, {T}, T),
                          makeEvaluate(makeCall("sched.syncthreads", {}, DType::Int32))));
  EXPECT_EQ(print(S, 1), "  let t = (x*8) {\n"
                         "    if ((t < 4)) {\n"
                         "      out[t] = t\n"
                         "    } else {\n"
                         "      eval sched.syncthreads()\n"
                         "    }\n"
                         "  }\n");
}

} // namespace
