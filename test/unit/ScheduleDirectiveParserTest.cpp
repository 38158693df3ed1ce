//===- ScheduleDirectiveParserTest.cpp - Tests of the directive parser ---===//
//
// The #pragma sched directive language: what parses, the arguments as
// written, and every diagnostic with the byte offset of its token (the
// plugin turns offsets into carets, so they must point at the right token).
//
//===----------------------------------------------------------------------===//

#include "schedule/DirectiveParser.h"

#include <gtest/gtest.h>

using namespace sched;

namespace {

struct ParseResult {
  bool Ok;
  std::vector<Directive> Dirs;
  std::vector<Diag> Diags;
};

ParseResult parse(const std::string &Text) {
  ParseResult R;
  R.Ok = parseDirectiveText(Text, R.Dirs, R.Diags);
  return R;
}

/// The single diagnostic of a failed parse.
Diag onlyError(const std::string &Text) {
  ParseResult R = parse(Text);
  EXPECT_FALSE(R.Ok) << Text;
  EXPECT_EQ(R.Diags.size(), 1u) << Text;
  return R.Diags.empty() ? Diag{} : R.Diags.front();
}

TEST(ScheduleDirectiveParser, SplitArgumentsKeepTextAndOffsets) {
  ParseResult R = parse("split(i, io, ii, 4)");
  ASSERT_TRUE(R.Ok);
  ASSERT_EQ(R.Dirs.size(), 1u);
  const Directive &D = R.Dirs[0];
  EXPECT_EQ(D.Name, "split");
  EXPECT_EQ(D.Loc, 0);
  ASSERT_EQ(D.Args.size(), 4u);
  EXPECT_EQ(D.Args[0].Text, "i");
  EXPECT_EQ(D.Args[0].Loc, 6);
  EXPECT_EQ(D.Args[1].Text, "io");
  EXPECT_EQ(D.Args[1].Loc, 9);
  EXPECT_EQ(D.Args[3].Text, "4");
  EXPECT_EQ(D.Args[3].Loc, 17);
}

TEST(ScheduleDirectiveParser, SeveralDirectivesOnOneLineInOrder) {
  ParseResult R = parse("  target(gpu) bind(io, blockIdx.x)  unroll(ii)");
  ASSERT_TRUE(R.Ok);
  ASSERT_EQ(R.Dirs.size(), 3u);
  EXPECT_EQ(R.Dirs[0].Name, "target");
  EXPECT_EQ(R.Dirs[1].Name, "bind");
  EXPECT_EQ(R.Dirs[1].Loc, 14);
  EXPECT_EQ(R.Dirs[2].Name, "unroll");
}

TEST(ScheduleDirectiveParser, ThreadTagIsOneDottedArgument) {
  ParseResult R = parse("bind(tx, threadIdx.x)");
  ASSERT_TRUE(R.Ok);
  ASSERT_EQ(R.Dirs[0].Args.size(), 2u);
  EXPECT_EQ(R.Dirs[0].Args[1].Text, "threadIdx.x");
  EXPECT_EQ(R.Dirs[0].Args[1].Loc, 9);
}

TEST(ScheduleDirectiveParser, NPartsIsOneKeyValueArgument) {
  ParseResult R = parse("split(i, io, ii, nparts = 4)");
  ASSERT_TRUE(R.Ok);
  EXPECT_EQ(R.Dirs[0].Args[3].Text, "nparts=4");
  EXPECT_EQ(R.Dirs[0].Args[3].Loc, 17);
}

TEST(ScheduleDirectiveParser, DottedStageLoopNames) {
  ParseResult R = parse("fuse(As.ax0, As.ax1, As.f)");
  ASSERT_TRUE(R.Ok);
  EXPECT_EQ(R.Dirs[0].Args[0].Text, "As.ax0");
  EXPECT_EQ(R.Dirs[0].Args[2].Text, "As.f");
}

TEST(ScheduleDirectiveParser, ReorderTakesManyLoops) {
  ParseResult R = parse("reorder(io, jo, ty, tx, ko, ki, ii2, ji2)");
  ASSERT_TRUE(R.Ok);
  EXPECT_EQ(R.Dirs[0].Args.size(), 8u);
}

TEST(ScheduleDirectiveParser, LaterIssueDirectivesParse) {
  ParseResult R = parse("cache_read(A, shared, As) compute_at(As, ko) "
                        "cache_write(C, wmma.accumulator, Cl) set_scope(C, local) "
                        "storage_align(As, ax0, 32, 8) double_buffer(As) tensorize(ii, gemm) "
                        "tensorcore(auto) pragma(io, dma_copy)");
  ASSERT_TRUE(R.Ok) << (R.Diags.empty() ? "" : R.Diags[0].Message);
  EXPECT_EQ(R.Dirs.size(), 9u);
  EXPECT_EQ(R.Dirs[2].Args[1].Text, "wmma.accumulator");
}

TEST(ScheduleDirectiveParser, EmptyTextIsNoDirectives) {
  ParseResult R = parse("   ");
  EXPECT_TRUE(R.Ok);
  EXPECT_TRUE(R.Dirs.empty());
}

TEST(ScheduleDirectiveParser, UnknownDirectiveAtItsName) {
  Diag D = onlyError("target(gpu) splt(i, io, ii, 4)");
  EXPECT_EQ(D.Message, "unknown directive 'splt'; did you mean 'split'?");
  EXPECT_EQ(D.Loc, 12);
}

TEST(ScheduleDirectiveParser, TooFewArgumentsAtClosingParen) {
  Diag D = onlyError("split(i, io, 4)");
  EXPECT_EQ(D.Message, "'split' expects 4 arguments, got 3");
  EXPECT_EQ(D.Loc, 14);
}

TEST(ScheduleDirectiveParser, TooManyArgumentsAtFirstExtraOne) {
  Diag D = onlyError("bind(tx, threadIdx.x, 3)");
  EXPECT_EQ(D.Message, "'bind' expects 2 arguments, got 3");
  EXPECT_EQ(D.Loc, 22);
}

TEST(ScheduleDirectiveParser, ReorderOfOneLoopIsAnArityError) {
  Diag D = onlyError("reorder(i)");
  EXPECT_EQ(D.Message, "'reorder' expects at least 2 arguments, got 1");
}

TEST(ScheduleDirectiveParser, LaterIssueDirectiveArityChecked) {
  Diag D = onlyError("cache_read(A, shared)");
  EXPECT_EQ(D.Message, "'cache_read' expects 3 arguments, got 2");
}

TEST(ScheduleDirectiveParser, MissingCloseParen) {
  Diag D = onlyError("split(i, io, ii, 4 bind(io, blockIdx.x)");
  EXPECT_EQ(D.Message, "expected ')'");
  EXPECT_EQ(D.Loc, 19);
}

TEST(ScheduleDirectiveParser, MissingCommaIsExpectedComma) {
  ParseResult R = parse("split(i io, ii, 4)");
  EXPECT_FALSE(R.Ok);
  ASSERT_EQ(R.Diags.size(), 1u);
  EXPECT_EQ(R.Diags[0].Message, "expected ',' between the arguments of 'split'");
  EXPECT_EQ(R.Diags[0].Loc, 8);
}

TEST(ScheduleDirectiveParser, SyntaxErrorDoesNotHideLaterDirectivesErrors) {
  ParseResult R = parse("split(i, io ii, 4) unroll(ii)  splt(j, jo, ji, 2)");
  EXPECT_FALSE(R.Ok);
  ASSERT_EQ(R.Diags.size(), 2u);
  EXPECT_EQ(R.Diags[1].Message, "unknown directive 'splt'; did you mean 'split'?");
  ASSERT_EQ(R.Dirs.size(), 2u); // the split, read as if the comma were there, and unroll
  EXPECT_EQ(R.Dirs[1].Name, "unroll");
}

TEST(ScheduleDirectiveParser, NonASCIILoopNamesAreIdentifiers) {
  ParseResult R = parse("split(\u03b1, \u03b1o, \u03b1i, 4)");
  ASSERT_TRUE(R.Ok);
  ASSERT_EQ(R.Dirs.size(), 1u);
  EXPECT_EQ(R.Dirs[0].Args[1].Text, "\u03b1o");
}

TEST(ScheduleDirectiveParser, MissingOpenParen) {
  Diag D = onlyError("unroll ii");
  EXPECT_EQ(D.Message, "expected '(' after 'unroll'");
  EXPECT_EQ(D.Loc, 7);
}

TEST(ScheduleDirectiveParser, IntegerWhereLoopNameExpected) {
  Diag D = onlyError("split(i, 4, ii, 4)");
  EXPECT_EQ(D.Message, "expected a loop name");
  EXPECT_EQ(D.Loc, 9);
}

TEST(ScheduleDirectiveParser, ZeroSplitFactor) {
  Diag D = onlyError("split(i, io, ii, 0)");
  EXPECT_EQ(D.Message, "split factor must be a positive integer");
  EXPECT_EQ(D.Loc, 17);
}

TEST(ScheduleDirectiveParser, NameAsSplitFactor) {
  Diag D = onlyError("split(i, io, ii, four)");
  EXPECT_EQ(D.Message, "split factor must be a positive integer");
}

TEST(ScheduleDirectiveParser, ZeroNParts) {
  Diag D = onlyError("split(i, io, ii, nparts=0)");
  EXPECT_EQ(D.Message, "split nparts must be a positive integer");
  EXPECT_EQ(D.Loc, 17);
}

TEST(ScheduleDirectiveParser, TileFactorMustBePositive) {
  Diag D = onlyError("tile(i, j, io, jo, ii, ji, 64, 0)");
  EXPECT_EQ(D.Message, "tile factor must be a positive integer");
  EXPECT_EQ(D.Loc, 31);
}

TEST(ScheduleDirectiveParser, UnknownThreadTag) {
  Diag D = onlyError("bind(tx, threadIdx.w)");
  EXPECT_NE(D.Message.find("unknown thread tag 'threadIdx.w'"), std::string::npos) << D.Message;
  EXPECT_EQ(D.Loc, 9);
}

TEST(ScheduleDirectiveParser, UnknownTarget) {
  Diag D = onlyError("target(cpu)");
  EXPECT_EQ(D.Message, "unknown target 'cpu'; expected gpu or vta");
  EXPECT_EQ(D.Loc, 7);
}

TEST(ScheduleDirectiveParser, StrayCharacter) {
  Diag D = onlyError("split(i; io, ii, 4)");
  EXPECT_EQ(D.Message, "unexpected character ';' in directive");
  EXPECT_EQ(D.Loc, 7);
}

TEST(ScheduleDirectiveParser, SemanticErrorsDoNotStopParsing) {
  ParseResult R = parse("splt(i) split(i, io, ii, 0) unroll(ii)");
  EXPECT_FALSE(R.Ok);
  ASSERT_EQ(R.Diags.size(), 2u);
  EXPECT_EQ(R.Diags[0].Loc, 0);
  EXPECT_EQ(R.Diags[1].Loc, 25);
  // Only the directive without problems is kept.
  ASSERT_EQ(R.Dirs.size(), 1u);
  EXPECT_EQ(R.Dirs[0].Name, "unroll");
}

TEST(ScheduleDirectiveParser, KnownDirectiveTable) {
  EXPECT_TRUE(isKnownDirective("split"));
  EXPECT_TRUE(isKnownDirective("cache_read"));
  EXPECT_FALSE(isKnownDirective("splt"));
}

} // namespace

namespace {

// Factor expressions: one of integers only is its value (sched-opt has no
// names to resolve); one with names keeps its source text for the plugin,
// whose offsets are the argument's.
TEST(ScheduleDirectiveParser, FactorExpressionOfIntegersIsItsValue) {
  ParseResult R = parse("split(i, io, ii, 2 * (3 + 1) - 10 / 4) split(io, a, b, nparts = 9 % 5)");
  ASSERT_TRUE(R.Ok);
  ASSERT_EQ(R.Dirs.size(), 2u);
  EXPECT_EQ(R.Dirs[0].Args[3].Text, "6");
  EXPECT_EQ(R.Dirs[0].Args[3].Loc, 17);
  EXPECT_EQ(R.Dirs[1].Args[3].Text, "nparts=4");
}

TEST(ScheduleDirectiveParser, FactorExpressionWithNamesKeepsItsText) {
  std::vector<Directive> Dirs;
  std::vector<Diag> Diags;
  ASSERT_TRUE(parseDirectiveText("split(i, io, ii, TS*2 - 1) split(io, a, b, nparts = (N+1))", Dirs,
                                 Diags, /*ConstantNames=*/true));
  EXPECT_EQ(Dirs[0].Args[3].Text, "TS*2 - 1");
  EXPECT_EQ(Dirs[1].Args[3].Text, "nparts = (N+1)");
  EXPECT_EQ(onlyError("split(i, io, ii, TS*2)").Message, "split factor must be a positive integer");
}

TEST(ScheduleDirectiveParser, FactorExpressionErrorsPointAtTheirToken) {
  Diag D = onlyError("split(i, io, ii, 8 / (4 - 4))");
  EXPECT_EQ(D.Message, "division by zero in the factor expression");
  EXPECT_EQ(D.Loc, 19);
  EXPECT_EQ(onlyError("split(i, io, ii, 4 - 8)").Message, "split factor must be a positive integer");
  EXPECT_EQ(onlyError("split(i, io, ii, 4 *)").Loc, 20);
  EXPECT_EQ(onlyError("bind(i + 1, threadIdx.x)").Message, "unexpected character '+' in directive");
}

TEST(ScheduleDirectiveParser, FactorExpressionEvaluatesNamesThroughLookup) {
  ExpressionError Err;
  NameValue Lookup = [](const std::string &Name, std::string &Why) -> std::optional<int64_t> {
    if (Name == "TS")
      return 64;
    Why = "unknown";
    return std::nullopt;
  };
  EXPECT_EQ(evaluateFactorExpression("2*TS-1", Lookup, Err), 127);
  EXPECT_EQ(evaluateFactorExpression("-TS/3", Lookup, Err), -21); // C truncates
  EXPECT_EQ(evaluateFactorExpression("0x10u + 010", Lookup, Err), 24);
  EXPECT_FALSE(evaluateFactorExpression("TS + ts", Lookup, Err));
  EXPECT_EQ(Err.Name, "ts");
  EXPECT_EQ(Err.Offset, 5u);
  ExpressionError Overflow;
  EXPECT_FALSE(evaluateFactorExpression("9223372036854775807 + TS", Lookup, Overflow));
  EXPECT_EQ(Overflow.Why, "the factor expression overflows");
}

} // namespace
