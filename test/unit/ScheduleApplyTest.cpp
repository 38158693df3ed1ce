//===- ScheduleApplyTest.cpp - Tests of applySchedule through its API ---===//
//
// What the plugin relies on beyond the printed IR (which the lit tests in
// test/lit/schedule check): errors carry the location id of the offending
// argument, directives built by hand with wrong arity are diagnosed rather
// than crash, and target() sets the nest's target.
//
//===----------------------------------------------------------------------===//

#include "ir/IR.h"
#include "schedule/DirectiveParser.h"
#include "schedule/Schedule.h"

#include <gtest/gtest.h>

using namespace sched;
using namespace sched::ir;

namespace {

/// for (i, 0, 16) { for (j, 0, 8) { B[i, j] = A[i, j] } }
LoopNest makeCopyNest() {
  Buffer A = makeBuffer("A", DType::Float32, {makeInt(16), makeInt(8)});
  Buffer B = makeBuffer("B", DType::Float32, {makeInt(16), makeInt(8)});
  Var I = makeVar("i"), J = makeVar("j");
  Stmt Store = makeStore(B, {I, J}, makeLoad(A, {I, J}));
  LoopNest Nest;
  Nest.Name = "copy";
  Nest.Params = {{Param::Kind::Buffer, A, nullptr}, {Param::Kind::Buffer, B, nullptr}};
  Nest.Body = makeFor(I, makeInt(0), makeInt(16), makeFor(J, makeInt(0), makeInt(8), Store));
  return Nest;
}

std::vector<Directive> parseOrFail(const std::string &Text) {
  std::vector<Directive> Dirs;
  std::vector<Diag> Diags;
  EXPECT_TRUE(parseDirectiveText(Text, Dirs, Diags)) << Text;
  return Dirs;
}

TEST(ScheduleApply, UnknownLoopErrorAtArgumentLocation) {
  LoopNest Nest = makeCopyNest();
  std::vector<Diag> Diags;
  EXPECT_FALSE(applySchedule(Nest, parseOrFail("unroll(i) split(q, qo, qi, 2)"), Diags));
  ASSERT_EQ(Diags.size(), 1u);
  EXPECT_EQ(Diags[0].Loc, 16);
  EXPECT_EQ(Diags[0].Message, "no loop named 'q'; loops are: i, j");
}

TEST(ScheduleApply, HandBuiltDirectiveWithWrongArityIsDiagnosed) {
  LoopNest Nest = makeCopyNest();
  Directive D;
  D.Name = "split";
  D.Loc = 3;
  D.Args = {{"i", 9}};
  std::vector<Diag> Diags;
  EXPECT_FALSE(applySchedule(Nest, {D}, Diags));
  ASSERT_EQ(Diags.size(), 1u);
  EXPECT_EQ(Diags[0].Loc, 3);
}

TEST(ScheduleApply, TargetDirectiveSetsNestTarget) {
  LoopNest Nest = makeCopyNest();
  std::vector<Diag> Diags;
  EXPECT_TRUE(applySchedule(Nest, parseOrFail("target(vta)"), Diags));
  EXPECT_EQ(Nest.Target, "vta");
}

TEST(ScheduleApply, SplitReplacesLoopByTwoNamedLoops) {
  LoopNest Nest = makeCopyNest();
  std::vector<Diag> Diags;
  ASSERT_TRUE(applySchedule(Nest, parseOrFail("split(i, io, ii, 4)"), Diags));
  const auto *Outer = as<ForNode>(Nest.Body);
  ASSERT_NE(Outer, nullptr);
  EXPECT_EQ(Outer->LoopVar->Name, "io");
  int64_t Extent = 0;
  EXPECT_TRUE(getConstInt(Outer->Extent, Extent));
  EXPECT_EQ(Extent, 4);
  const auto *Inner = as<ForNode>(Outer->Body);
  ASSERT_NE(Inner, nullptr);
  EXPECT_EQ(Inner->LoopVar->Name, "ii");
}

TEST(ScheduleApply, EveryFailedDirectiveIsReported) {
  LoopNest Nest = makeCopyNest();
  std::vector<Diag> Diags;
  EXPECT_FALSE(applySchedule(Nest, parseOrFail("unroll(x) unroll(y)"), Diags));
  ASSERT_EQ(Diags.size(), 2u);
  EXPECT_EQ(Diags[1].Message, "no loop named 'y'; loops are: i, j");
}

TEST(ScheduleApply, NamesOfAFailedDirectiveSkipLaterOnesSilently) {
  LoopNest Nest = makeCopyNest();
  std::vector<Diag> Diags;
  // qo never exists because the split failed: only the split's error.
  EXPECT_FALSE(applySchedule(
      Nest, parseOrFail("split(q, qo, qi, 2) unroll(qo) split(j, jo, ji, 2) unroll(z)"), Diags));
  ASSERT_EQ(Diags.size(), 2u);
  EXPECT_EQ(Diags[0].Message, "no loop named 'q'; loops are: i, j");
  EXPECT_EQ(Diags[1].Message, "no loop named 'z'; loops are: i, jo, ji");
}

TEST(ScheduleApply, MisspeltLoopNameSuggestsTheClosest) {
  LoopNest Nest = makeCopyNest();
  std::vector<Diag> Diags;
  EXPECT_FALSE(applySchedule(Nest, parseOrFail("split(i, io, ii, 2) unroll(iii)"), Diags));
  ASSERT_EQ(Diags.size(), 1u);
  EXPECT_EQ(Diags[0].Message, "no loop named 'iii'; did you mean 'ii'?");
}

} // namespace
