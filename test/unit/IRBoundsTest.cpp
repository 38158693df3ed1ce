//===- IRBoundsTest.cpp - Tests of bound inference ------------------------===//
//
// boundsOf on affine and non-affine expressions, regionTouched on loop
// nests, and the questions bound inference asks of a cache stage's region
// (does a write cover its box, a constant size, is a <= b): the foundations
// of guards, launch regions and cache stages.
//
//===----------------------------------------------------------------------===//

#include "IRTestUtil.h"
#include "ir/Bounds.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"

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

// (i - 1)*K with K - 1 >= 0 (the k loop runs where the access happens):
// the size's sign is known, so the product is bounded; without the fact it
// is not.
TEST(IRBoundsTest, ProductsWithASizeOfKnownSignAreBounded) {
  Var I = makeVar("i"), K = makeVar("K"), M = makeVar("M");
  VarRanges R = {{I.get(), {makeInt(0), M - makeInt(1)}}};
  Expr E = (I - makeInt(1)) * K;
  EXPECT_EQ(show(boundsOf(E, R)), "[-inf, +inf]");
  Interval B = boundsOf(E, R, {K - makeInt(1)});
  ASSERT_TRUE(B.isBounded()) << show(B);
  EXPECT_EQ(print(simplify(B.Min + K)), "0");
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

TEST(IRBoundsTest, CoversBoxOfDenseMixedRadixIndex) {
  // [ty*8 + ii] with ty < 8, ii < 8 takes every value of [0, 63].
  Var Ty = makeVar("ty"), Ii = makeVar("ii");
  VarRanges R = {{Ty.get(), range(0, 7)}, {Ii.get(), range(0, 7)}};
  std::vector<Expr> Fixed;
  EXPECT_TRUE(coversBox({Ty * makeInt(8) + Ii}, {}, R, VarRanges(), Fixed));
  EXPECT_TRUE(Fixed.empty());
}

TEST(IRBoundsTest, CoversBoxRejectsStridesAndGaps) {
  Var J = makeVar("j"), K = makeVar("k");
  VarRanges R = {{J.get(), range(0, 7)}, {K.get(), range(0, 3)}};
  std::vector<Expr> Fixed;
  EXPECT_FALSE(coversBox({J * makeInt(2)}, {}, R, VarRanges(), Fixed)); // evens only
  EXPECT_FALSE(coversBox({K * makeInt(16) + J}, {}, R, VarRanges(), Fixed)); // 8..15 missing
  EXPECT_FALSE(coversBox({J, J}, {}, R, VarRanges(), Fixed)); // the diagonal
}

TEST(IRBoundsTest, CoversBoxWithAUnitLoopOfAnyStride) {
  // [i*64 + j] with i in [0, 0] (a batch loop of extent 1) is [0, 15] whole;
  // with i in [0, 1] it has a gap.
  Var I = makeVar("i"), J = makeVar("j");
  VarRanges R = {{I.get(), range(0, 0)}, {J.get(), range(0, 15)}};
  std::vector<Expr> Fixed;
  EXPECT_TRUE(coversBox({I * makeInt(64) + J}, {}, R, VarRanges(), Fixed));
  R[I.get()] = range(0, 1);
  EXPECT_FALSE(coversBox({I * makeInt(64) + J}, {}, R, VarRanges(), Fixed));
}

TEST(IRBoundsTest, CoversBoxNarrowedByAnIndexGuard) {
  // if (io*32 + ii < n) C[io*32 + ii]: a prefix of the tile, still dense; a
  // guard on the fixed io alone is handed back.
  Var Io = makeVar("io"), Ii = makeVar("ii"), N = makeVar("n");
  VarRanges R = {{Ii.get(), range(0, 31)}};
  Expr Idx = Io * makeInt(32) + Ii;
  std::vector<Expr> Fixed;
  EXPECT_TRUE(coversBox({Idx}, {Idx < Expr(N), Io < makeInt(3)}, R, VarRanges(), Fixed));
  ASSERT_EQ(Fixed.size(), 1u);
  EXPECT_EQ(print(Fixed[0]), "(io < 3)");
  // A guard on the index that is not a bound on it (every other element).
  Fixed.clear();
  EXPECT_FALSE(coversBox({Idx}, {makeBinary(BinOp::EQ, Ii % makeInt(2), makeInt(0))}, R,
                         VarRanges(), Fixed));
}

TEST(IRBoundsTest, CoversBoxOnlyWhereTheOtherLoopsRun) {
  // for (k, 0, K) C[i]: all of C[0..7] when K > 0, nothing when K == 0.
  Var I = makeVar("i"), K = makeVar("k"), Kn = makeVar("K");
  VarRanges R = {{I.get(), range(0, 7)}, {K.get(), {makeInt(0), Expr(Kn) - makeInt(1)}}};
  std::vector<Expr> Fixed;
  ASSERT_TRUE(coversBox({I}, {}, R, VarRanges(), Fixed));
  ASSERT_EQ(Fixed.size(), 1u);
  EXPECT_EQ(print(Fixed[0]), "(0 < K)");
  // An index loop that may not run leaves a hole: C[i, j] for j < K.
  Fixed.clear();
  EXPECT_FALSE(coversBox({I, K}, {}, R, VarRanges(), Fixed));
}

TEST(IRBoundsTest, ExistenceConditionOfASplitGuard) {
  // Some ko < (K + 7)/8, ki < 8 has ko*8 + ki < K exactly when K > 0.
  Var Ko = makeVar("ko"), Ki = makeVar("ki"), Kn = makeVar("K");
  VarRanges Free = {{Ko.get(), {makeInt(0), (Expr(Kn) + makeInt(7)) / makeInt(8) - makeInt(1)}},
                    {Ki.get(), range(0, 7)}};
  std::vector<Expr> Out;
  ASSERT_TRUE(existenceCondition({Ko * makeInt(8) + Ki < Expr(Kn)}, Free, Out));
  std::vector<std::string> Printed;
  for (const Expr &E : Out)
    Printed.push_back(print(simplify(E)));
  EXPECT_EQ(Printed, (std::vector<std::string>{"(0 < ((K + 7)/8))", "true", "(0 < K)"}));
  // (The loops' conditions come in the order of their text, whatever the
  // order of the variables' nodes in memory.)
  // Two conditions sharing ki are not independent: no answer.
  Out.clear();
  EXPECT_FALSE(existenceCondition({Expr(Ki) < Expr(Kn), Expr(Kn) < Expr(Ki)}, Free, Out));
}

TEST(IRBoundsTest, ConstantUpperBoundSplitsMin) {
  // The size of a tile clipped by n: min(io*64 + 63, n - 1) - io*64 + 1 <= 64.
  Var Io = makeVar("io"), N = makeVar("n");
  VarRanges R = {{Io.get(), {makeInt(0), (Expr(N) + makeInt(63)) / makeInt(64) - makeInt(1)}}};
  Expr Max = makeBinary(BinOp::Min, Io * makeInt(64) + makeInt(63), Expr(N) - makeInt(1));
  int64_t C = 0;
  ASSERT_TRUE(constantUpperBound(Max - Io * makeInt(64) + makeInt(1), R, C));
  EXPECT_EQ(C, 64);
  EXPECT_FALSE(constantUpperBound(Expr(N) - Io * makeInt(64), R, C));
}

TEST(IRBoundsTest, ProvablyLessEqArmByArm) {
  Var I = makeVar("i"), N = makeVar("n");
  VarRanges R = {{I.get(), range(0, 7)}};
  Expr Lo = makeBinary(BinOp::Min, Expr(I) + makeInt(3), Expr(N));
  EXPECT_TRUE(provablyLessEq(Lo, Expr(I) + makeInt(3), R));
  EXPECT_TRUE(provablyLessEq(Expr(I), makeBinary(BinOp::Max, Expr(N), Expr(I) + makeInt(1)), R));
  EXPECT_TRUE(provablyLessEq(Expr(I), makeInt(7), R));
  EXPECT_FALSE(provablyLessEq(Expr(I), makeInt(6), R));
  EXPECT_FALSE(provablyLessEq(Expr(I), Lo, R)); // i <= n is unknown
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

// A thread loop widened past its own extent keeps its body under a guard on
// its variable (`lo < 4` in 64 lanes): the region narrows the variable by it,
// so the launcher copies C[0, 63] and not from C[-960]. A guard that reads
// memory narrows nothing.
TEST(IRBoundsTest, RegionNarrowsALoopVariableByItsGuard) {
  Var Lo = makeVar("lo"), Li = makeVar("li");
  Buffer C = makeBuffer("C", DType::Float32, {makeInt(64)});
  Buffer G = makeBuffer("G", DType::Int32, {makeInt(1)});
  auto Nest = [&](Expr Guard) {
    Expr Index = makeInt(63) - Lo * makeInt(16) - Li;
    return makeFor(Lo, makeInt(0), makeInt(64),
                   makeIf(Guard, makeFor(Li, makeInt(0), makeInt(16),
                                         makeStore(C, {Index}, makeFloat(0.0))),
                          nullptr));
  };
  Region R;
  ASSERT_TRUE(regionTouched(Nest(Lo < makeInt(4)), C, false, VarRanges(), R, GuardUse::Tighten));
  EXPECT_EQ(show(R[0]), "[0, 63]");
  ASSERT_TRUE(regionTouched(Nest(Lo < makeInt(4)), C, false, VarRanges(), R, GuardUse::Ignore));
  EXPECT_EQ(show(R[0]), "[-960, 63]");
  ASSERT_TRUE(regionTouched(Nest(Lo < makeLoad(G, {makeInt(0)})), C, false, VarRanges(), R,
                            GuardUse::Tighten));
  EXPECT_EQ(show(R[0]), "[-960, 63]");
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
