//===- IntegerSemanticsTest.cpp - C's integer rules in the IR and simulator ---===//
//
// The usual arithmetic conversions (arithmeticType), the one integer
// evaluator (evalIntBinary: unsigned wrap, unsigned comparisons, shifts),
// the simplifier's folding through it, and the simulator computing a kernel
// of unsigned arithmetic, bitwise operators and truncating casts exactly as
// the C++ compiler running this test does.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtil.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "sim/Simulator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace sched;
using namespace sched::ir;
using namespace sched::simtest;

namespace {

TEST(IntegerSemanticsTest, UsualArithmeticConversions) {
  EXPECT_EQ(arithmeticType(DType::UInt8, DType::UInt16), DType::Int32); // both promote to int
  EXPECT_EQ(arithmeticType(DType::Int32, DType::UInt32), DType::UInt32);
  EXPECT_EQ(arithmeticType(DType::Int64, DType::UInt32), DType::Int64);
  EXPECT_EQ(arithmeticType(DType::Int64, DType::UInt64), DType::UInt64);
  EXPECT_EQ(arithmeticType(DType::UInt32, DType::Float32), DType::Float32);
  EXPECT_EQ(arithmeticType(DType::Bool, DType::UInt16), DType::Int32);
}

TEST(IntegerSemanticsTest, UnsignedArithmeticWraps) {
  int64_t R;
  ASSERT_TRUE(evalIntBinary(BinOp::Mul, DType::UInt32, 7, 2654435761LL, R));
  EXPECT_EQ(R, int64_t(uint32_t(7u * 2654435761u)));
  ASSERT_TRUE(evalIntBinary(BinOp::Sub, DType::UInt32, 0, 1, R));
  EXPECT_EQ(R, 4294967295LL);
  ASSERT_TRUE(evalIntBinary(BinOp::Sub, DType::UInt64, 0, 1, R));
  EXPECT_EQ(uint64_t(R), UINT64_MAX);
  EXPECT_FALSE(evalIntBinary(BinOp::Add, DType::Int32, INT32_MAX, 1, R)); // undefined
}

TEST(IntegerSemanticsTest, UnsignedComparisonsDivisionAndMinMax) {
  int64_t R, Big = int64_t(UINT64_MAX); // uint64 values are held as their bits
  ASSERT_TRUE(evalIntBinary(BinOp::LT, DType::UInt64, 1, Big, R));
  EXPECT_EQ(R, 1);
  ASSERT_TRUE(evalIntBinary(BinOp::Max, DType::UInt64, 1, Big, R));
  EXPECT_EQ(R, Big);
  ASSERT_TRUE(evalIntBinary(BinOp::Div, DType::UInt64, Big, 2, R));
  EXPECT_EQ(uint64_t(R), UINT64_MAX / 2);
}

TEST(IntegerSemanticsTest, ShiftsAndBitwiseOperators) {
  int64_t R;
  ASSERT_TRUE(evalIntBinary(BinOp::Shr, DType::Int32, -7, 1, R));
  EXPECT_EQ(R, -4); // arithmetic
  ASSERT_TRUE(evalIntBinary(BinOp::Shr, DType::UInt32, 4294967289LL, 1, R));
  EXPECT_EQ(R, 2147483644LL); // logical
  ASSERT_TRUE(evalIntBinary(BinOp::Shl, DType::UInt32, 0x80000001LL, 1, R));
  EXPECT_EQ(R, 2);
  EXPECT_FALSE(evalIntBinary(BinOp::Shl, DType::Int32, 1, 32, R)); // count out of range
  ASSERT_TRUE(evalIntBinary(BinOp::BitXor, DType::UInt8, 0xF0, 0xFF, R));
  EXPECT_EQ(R, 0x0F);
  EXPECT_EQ(wrapToType(-1, DType::UInt16), 65535);
}

TEST(IntegerSemanticsTest, SimplifierFoldsUnsignedConstantsWithWrap) {
  Expr E = makeBinary(BinOp::Sub, makeInt(0, DType::UInt32), makeInt(1, DType::UInt32));
  EXPECT_EQ(print(simplify(E)), "4294967295:uint32");
  Expr Cmp = makeBinary(BinOp::LT, makeInt(-1, DType::UInt64), makeInt(1, DType::UInt64));
  EXPECT_EQ(print(simplify(Cmp)), "false"); // UINT64_MAX < 1
  // x - 1u < x is not always true for unsigned x: no bounds reasoning.
  Var X = makeVar("x", DType::UInt32);
  Expr Wraps = makeBinary(BinOp::LT, makeBinary(BinOp::Sub, X, makeInt(1, DType::UInt32)), X);
  EXPECT_EQ(print(simplify(Wraps)), "((x - 1:uint32) < x)");
}

/// out[t] = f(in[t]) for 8 threads of one block, with f a mix of unsigned
/// wrap, bitwise operators, shifts and truncating casts.
TEST(IntegerSemanticsTest, SimulatorComputesLikeTheHostCompiler) {
  KernelBuilder KB("ints");
  Buffer In = KB.buffer("in", DType::UInt32, i32(8), true, false);
  Buffer Out64 = KB.buffer("out64", DType::UInt64, i32(8), false, true);
  Buffer Out16 = KB.buffer("out16", DType::Int16, i32(8), false, true);
  Buffer OutF = KB.buffer("outf", DType::Float64, i32(8), false, true);
  KB.grid(i32(1));
  KB.block(i32(8));
  Var Tx = makeVar("tx");
  Expr X = makeLoad(In, {Tx});
  Expr Hash = makeBinary(BinOp::Mul, X, makeInt(2654435761LL, DType::UInt32));
  Expr Mixed = makeBinary(
      BinOp::BitXor, makeCast(DType::UInt64, Hash),
      makeBinary(BinOp::Shl, makeCast(DType::UInt64, makeUnary(UnOp::BitNot, X)),
                 makeInt(31, DType::UInt64)));
  Expr Narrow = makeCast(DType::Int16, makeBinary(BinOp::Shr, X, makeInt(3, DType::UInt32)));
  Expr Big = makeCast(DType::Float64, makeBinary(BinOp::Sub, makeInt(0, DType::UInt64),
                                                 makeCast(DType::UInt64, X)));
  Stmt Body = makeSeq({makeStore(Out64, {Tx}, Mixed), makeStore(Out16, {Tx}, Narrow),
                       makeStore(OutF, {Tx}, Big)});
  LoweredKernel K = KB.done(bound(Tx, i32(8), "threadIdx.x", Body));

  std::vector<uint32_t> Input = {0, 1, 7, 0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu, 123456789, 42};
  std::vector<uint64_t> Got64(8);
  std::vector<int16_t> Got16(8);
  std::vector<double> GotF(8);
  std::string Error;
  ASSERT_TRUE(sim::simulate(K, {Input.data(), Got64.data(), Got16.data(), GotF.data()},
                            sim::SimOptions(), Error))
      << Error;
  for (int I = 0; I < 8; ++I) {
    uint32_t V = Input[I];
    EXPECT_EQ(Got64[I], uint64_t(V * 2654435761u) ^ (uint64_t(~V) << 31)) << I;
    EXPECT_EQ(Got16[I], int16_t(V >> 3)) << I;
    EXPECT_EQ(GotF[I], double(0ull - uint64_t(V))) << I;
  }
}

TEST(IntegerSemanticsTest, SimulatorReportsShiftCountOutOfRange) {
  KernelBuilder KB("shift");
  Buffer Out = KB.buffer("out", DType::Int32, i32(1), false, true);
  Var S = KB.scalar("s");
  KB.grid(i32(1));
  KB.block(i32(1));
  Var Tx = makeVar("tx");
  Stmt Body = makeStore(Out, {Tx}, makeBinary(BinOp::Shl, i32(1), S));
  LoweredKernel K = KB.done(bound(Tx, i32(1), "threadIdx.x", Body));
  int32_t Count = 40, Result = 0;
  std::string Error;
  EXPECT_FALSE(sim::simulate(K, {&Result, &Count}, sim::SimOptions(), Error));
  EXPECT_NE(Error.find("shift count 40 out of range for int32"), std::string::npos) << Error;
}

} // namespace
