//===- IRBoundsTest.cpp - Tests of bound inference ------------------------===//
//
// boundsOf on affine and non-affine expressions, and regionTouched on loop
// nests: the foundations of guards, launch regions and cache stages.
//
//===----------------------------------------------------------------------===//

#include "IRTestUtil.h"
#include "ir/Bounds.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>

using namespace sched::ir;
using sched::irtest::Matmul;

namespace {

Interval range(int64_t Lo, int64_t Hi) { return {makeInt(Lo), makeInt(Hi)}; }

std::string show(const Interval &I) {
  return "[" + (I.Min ? print(I.Min) : std::string("-inf")) + ", " +
         (I.Max ? print(I.Max) : std::string("+inf")) + "]";
}

TEST(IRBoundsTest, AffineSplitIndexIsExact) {
  Var Io = makeVar("io"), Ii = makeVar("ii");
  VarRanges R = {{Io.get(), range(0, 3)}, {Ii.get(), range(0, 7)}};
  EXPECT_EQ(show(boundsOf(Io * makeInt(8) + Ii, R)), "[0, 31]");
}

TEST(IRBoundsTest, NegativeCoefficientsSwapEnds) {
  Var I = makeVar("i");
  VarRanges R = {{I.get(), range(2, 5)}};
  EXPECT_EQ(show(boundsOf(makeInt(10) - I * makeInt(2), R)), "[0, 6]");
  EXPECT_EQ(show(boundsOf(I * makeInt(-3), R)), "[-15, -6]");
  EXPECT_EQ(show(boundsOf(I / makeInt(-2), R)), "[-2, -1]");
}

TEST(IRBoundsTest, RepeatedVariableCancelsExactly) {
  Var I = makeVar("i"), J = makeVar("j");
  VarRanges R = {{I.get(), range(0, 100)}, {J.get(), range(0, 7)}};
  EXPECT_EQ(show(boundsOf((I * makeInt(8) + J) - I * makeInt(8), R)), "[0, 7]");
}

TEST(IRBoundsTest, SymbolicExtentsStaySymbolic) {
  Var I = makeVar("i"), M = makeVar("M");
  VarRanges R = {{I.get(), {makeInt(0), M - makeInt(1)}}};
  EXPECT_EQ(show(boundsOf(I + makeInt(1), R)), "[1, M]");
}

TEST(IRBoundsTest, UnrangedVariablesAreSymbols) {
  Var N = makeVar("N");
  EXPECT_EQ(show(boundsOf(N * makeInt(2), VarRanges())), "[(N*2), (N*2)]");
}

TEST(IRBoundsTest, DivAndModByPositiveConstants) {
  Var I = makeVar("i");
  VarRanges R = {{I.get(), range(0, 63)}};
  EXPECT_EQ(show(boundsOf(I / makeInt(8), R)), "[0, 7]");
  EXPECT_EQ(show(boundsOf(I % makeInt(8), R)), "[0, 7]");
  VarRanges Small = {{I.get(), range(2, 5)}};
  EXPECT_EQ(show(boundsOf(I % makeInt(8), Small)), "[2, 5]");
}

TEST(IRBoundsTest, MinMaxAndSelect) {
  Var I = makeVar("i");
  VarRanges R = {{I.get(), range(0, 9)}};
  EXPECT_EQ(show(boundsOf(makeBinary(BinOp::Min, I, makeInt(4)), R)), "[0, 4]");
  EXPECT_EQ(show(boundsOf(makeBinary(BinOp::Max, I, makeInt(4)), R)), "[4, 9]");
  EXPECT_EQ(show(boundsOf(makeSelect(I < makeInt(3), I, makeInt(20)), R)), "[0, 20]");
}

TEST(IRBoundsTest, ProductsOfUnknownSignAreUnbounded) {
  Var I = makeVar("i"), K = makeVar("K");
  VarRanges R = {{I.get(), range(0, 9)}};
  EXPECT_EQ(show(boundsOf(I * K, R)), "[-inf, +inf]");
}

TEST(IRBoundsTest, LoadsOfRangedIndicesAreUnbounded) {
  Var I = makeVar("i");
  Buffer Idx = makeBuffer("idx", DType::Int32, {makeInt(10)});
  VarRanges R = {{I.get(), range(0, 9)}};
  EXPECT_EQ(show(boundsOf(makeLoad(Idx, {I}), R)), "[-inf, +inf]");
}

TEST(IRBoundsTest, RangeEndpointsMentioningOuterLoopsAreRelaxed) {
  Var Io = makeVar("io"), Ii = makeVar("ii");
  VarRanges R = {{Io.get(), range(0, 3)}, {Ii.get(), {Io, Io + makeInt(2)}}};
  EXPECT_EQ(show(boundsOf(Ii, R)), "[0, 5]");
}

TEST(IRBoundsTest, RegionTouchedByMatmulCoversTheWholeOperands) {
  Matmul MM;
  Region Reads, Writes;
  ASSERT_TRUE(regionTouched(MM.ILoop, MM.A, /*Reads=*/true, VarRanges(), Reads));
  ASSERT_EQ(Reads.size(), 2u);
  EXPECT_EQ(show(Reads[0]), "[0, (M - 1)]");
  EXPECT_EQ(show(Reads[1]), "[0, (K - 1)]");
  ASSERT_TRUE(regionTouched(MM.ILoop, MM.C, /*Reads=*/false, VarRanges(), Writes));
  EXPECT_EQ(show(Writes[1]), "[0, (N - 1)]");
  Region None;
  EXPECT_FALSE(regionTouched(MM.ILoop, MM.C, /*Reads=*/true, VarRanges(), None));
}

TEST(IRBoundsTest, RegionTouchedKeepsOuterVariablesUnlessRelaxed) {
  Matmul MM;
  Region R;
  ASSERT_TRUE(regionTouched(MM.KLoop, MM.A, true, VarRanges(), R));
  EXPECT_EQ(show(R[0]), "[i, i]");
  VarRanges Outer = {{MM.I.get(), range(0, 15)}};
  ASSERT_TRUE(regionTouched(MM.KLoop, MM.A, true, Outer, R));
  EXPECT_EQ(show(R[0]), "[0, 15]");
}

TEST(IRBoundsTest, RegionUnionsSeveralAccessesAndSeesThroughLets) {
  Var I = makeVar("i"), T = makeVar("t");
  Buffer In = makeBuffer("in", DType::Float32, {makeInt(100)});
  Buffer Out = makeBuffer("out", DType::Float32, {makeInt(100)});
  Stmt S = makeFor(I, makeInt(0), makeInt(10),
                   makeLet(T, I + makeInt(5),
                           makeStore(Out, {I}, makeLoad(In, {I}) + makeLoad(In, {T}))));
  Region R;
  ASSERT_TRUE(regionTouched(S, In, true, VarRanges(), R));
  EXPECT_EQ(show(R[0]), "[0, 14]");
}

TEST(IRBoundsTest, RegionTightenedByAGuardOverParameters) {
  Var I = makeVar("i"), N = makeVar("n");
  Buffer A = makeBuffer("A", DType::Int32, {makeInt(100)});
  Stmt S = makeFor(I, makeInt(0), makeInt(100),
                   makeIf(I < N, makeStore(A, {I}, makeInt(0)), nullptr));
  Region R;
  ASSERT_TRUE(regionTouched(S, A, false, VarRanges(), R, GuardUse::Tighten));
  EXPECT_EQ(show(R[0]), "[0, min(99, (n - 1))]");
}

// Issue 7, case 12: `if (G[0] > 0) A[1] = ...` once bounded A's region by
// G[0], an expression that reads memory, which no region may.
TEST(IRBoundsTest, RegionIgnoresGuardsThatReadMemory) {
  Var I = makeVar("i");
  Buffer A = makeBuffer("A", DType::Int32, {makeInt(100)});
  Buffer G = makeBuffer("G", DType::Int32, {makeInt(2)});
  Expr Guard = makeBinary(BinOp::GT, makeLoad(G, {makeInt(0)}), makeInt(0));
  Stmt Point = makeIf(Guard, makeStore(A, {makeInt(1)}, makeInt(0)), nullptr);
  Region R;
  ASSERT_TRUE(regionTouched(Point, A, false, VarRanges(), R, GuardUse::Tighten));
  EXPECT_EQ(show(R[0]), "[1, 1]");
  Stmt Loop = makeFor(I, makeInt(0), makeInt(100),
                      makeIf(I < makeLoad(G, {makeInt(1)}), makeStore(A, {I}, makeInt(0)),
                             nullptr));
  ASSERT_TRUE(regionTouched(Loop, A, false, VarRanges(), R, GuardUse::Tighten));
  EXPECT_EQ(show(R[0]), "[0, 99]");
}

} // namespace
