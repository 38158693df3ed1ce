//===- IRParserTest.cpp - Tests of reading the textual IR back ------------===//
//
// The parser must read everything the printer writes, resolve names to the
// objects in scope (identity survives), and report errors as line:col.
//
//===----------------------------------------------------------------------===//

#include "IRTestUtil.h"
#include "ir/Parser.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>

using namespace sched::ir;
using sched::irtest::Matmul;

namespace {

/// A scheduled matmul as lowering would produce it: split loops bound to
/// blocks and threads, a guard, an else branch, a let, a barrier.
const char *ScheduledMatmul =
    "func sched_mm_12(A: float32*[M, K] global noalias, B: float32*[K, N] global noalias, "
    "C: float32*[M, N] global, M: int32, N: int32, K: int32, alpha: float32) target=gpu {\n"
    "  for (io, 0, ((M + 63)/64)) bind(blockIdx.y) {\n"
    "    for (ii, 0, 64) bind(threadIdx.x) {\n"
    "      for (j, 0, N) unroll {\n"
    "        allocate acc: float32[1] local {\n"
    "          acc[0] = 0.0f\n"
    "          for (k, 0, K) reduce {\n"
    "            let row = ((io*64) + ii) {\n"
    "              if ((row < M)) {\n"
    "                acc[0] = (acc[0] + (A[row, k]*B[k, j]))\n"
    "              } else {\n"
    "                acc[0] = select(((k % 2) == 0), acc[0], -(1e-05f))\n"
    "              }\n"
    "            }\n"
    "          }\n"
    "          eval sched.syncthreads()\n"
    "          C[((io*64) + ii), j] = (alpha*float32(min(acc[0], 3.5f)))\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

std::string scheduledMatmulText() { return ScheduledMatmul; }

TEST(IRParserTest, RoundTripsAScheduledMatmul) {
  std::string Text = scheduledMatmulText();
  LoopNest Nest;
  std::string Error;
  ASSERT_TRUE(parseLoopNest(Text, Nest, Error)) << Error;
  EXPECT_EQ(print(Nest), Text);
}

TEST(IRParserTest, RoundTripsTheBuiltMatmul) {
  Matmul MM;
  std::string Text = print(MM.nest());
  LoopNest Nest;
  std::string Error;
  ASSERT_TRUE(parseLoopNest(Text, Nest, Error)) << Error;
  EXPECT_EQ(print(Nest), Text);
}

TEST(IRParserTest, ANestWithoutATargetClauseHasTheDefaultTarget) {
  // ir/ names no target: no `target=` clause reads as the empty name (the
  // default target, resolved in targets/), which prints no clause back.
  std::string Text = "func f(A: float32*[4] global) {\n"
                     "  for (i, 0, 4) {\n"
                     "    A[i] = 0.0f\n"
                     "  }\n"
                     "}\n";
  LoopNest Nest;
  std::string Error;
  ASSERT_TRUE(parseLoopNest(Text, Nest, Error)) << Error;
  EXPECT_EQ(Nest.Target, "");
  EXPECT_EQ(print(Nest), Text);
}

TEST(IRParserTest, AssumptionsReferToTheParameters) {
  std::string Text = "func f(C: float32*[M, ld] global, M: int32, N: int32, ld: int32) "
                     "target=gpu assume((N <= ld)) assume((0 <= M)) {\n"
                     "  for (i, 0, M) {\n"
                     "    C[i, 0] = 0.0f\n"
                     "  }\n"
                     "}\n";
  LoopNest Nest;
  std::string Error;
  ASSERT_TRUE(parseLoopNest(Text, Nest, Error)) << Error;
  ASSERT_EQ(Nest.Assumptions.size(), 2u);
  const auto *Le = as<BinaryNode>(Nest.Assumptions[0]);
  ASSERT_TRUE(Le);
  EXPECT_EQ(Le->A, Expr(Nest.Params[2].Scalar));
  EXPECT_EQ(Le->B, Expr(Nest.Params[3].Scalar));
  EXPECT_EQ(print(Nest), Text);
}

TEST(IRParserTest, NamesResolveToTheSameObjects) {
  LoopNest Nest;
  std::string Error;
  ASSERT_TRUE(parseLoopNest("func f(A: float32*[N] global, N: int32) target=gpu {\n"
                            "  for (i, 0, N) {\n"
                            "    A[i] = float32(i)\n"
                            "  }\n"
                            "}\n",
                            Nest, Error))
      << Error;
  const auto *Loop = as<ForNode>(Nest.Body);
  ASSERT_NE(Loop, nullptr);
  const auto *Store = as<StoreNode>(Loop->Body);
  ASSERT_NE(Store, nullptr);
  EXPECT_EQ(Store->Buf, Nest.Params[0].Buf);
  EXPECT_EQ(Store->Indices[0], Expr(Loop->LoopVar));
  EXPECT_EQ(Loop->Extent, Expr(Nest.Params[1].Scalar));
  EXPECT_EQ(Nest.Params[0].Buf->Shape[0], Expr(Nest.Params[1].Scalar));
}

TEST(IRParserTest, DistinctVariablesWithOneNameStayDistinct) {
  Var I1 = makeVar("i"), I2 = makeVar("i");
  Buffer Out = makeBuffer("out", DType::Int32, {makeInt(4), makeInt(4)});
  LoopNest Nest;
  Nest.Name = "f";
  Nest.Params.push_back({Param::Kind::Buffer, Out, nullptr});
  Nest.Body = makeFor(I1, makeInt(0), makeInt(4),
                      makeFor(I2, makeInt(0), makeInt(4), makeStore(Out, {I1, I2}, I1 + I2)));
  std::string Text = print(Nest);
  LoopNest Parsed;
  std::string Error;
  ASSERT_TRUE(parseLoopNest(Text, Parsed, Error)) << Error;
  const auto *Outer = as<ForNode>(Parsed.Body);
  const auto *Inner = as<ForNode>(Outer->Body);
  EXPECT_NE(Outer->LoopVar, Inner->LoopVar);
  EXPECT_EQ(print(Parsed), Text);
}

TEST(IRParserTest, LiteralsKeepTheirTypesAndValues) {
  LoopNest Nest;
  std::string Error;
  ASSERT_TRUE(parseLoopNest("func f(A: float64*[1] global, B: int64*[1] global) target=gpu {\n"
                            "  A[0] = ((0.1:float64 + float64(1.5:float16)) + float64(-inff))\n"
                            "  B[0] = (-7:int64 + int64(true))\n"
                            "}\n",
                            Nest, Error))
      << Error;
  const auto *Seq = as<SeqNode>(Nest.Body);
  ASSERT_NE(Seq, nullptr);
  const auto *StoreA = as<StoreNode>(Seq->Stmts[0]);
  const auto *Sum = as<BinaryNode>(as<BinaryNode>(StoreA->Value)->A);
  const auto *Tenth = as<FloatImmNode>(Sum->A);
  ASSERT_NE(Tenth, nullptr);
  EXPECT_EQ(Tenth->Type, DType::Float64);
  EXPECT_EQ(Tenth->Value, 0.1);
  const auto *StoreB = as<StoreNode>(Seq->Stmts[1]);
  const auto *Seven = as<IntImmNode>(as<BinaryNode>(StoreB->Value)->A);
  ASSERT_NE(Seven, nullptr);
  EXPECT_EQ(Seven->Value, -7);
  EXPECT_EQ(Seven->Type, DType::Int64);
}

TEST(IRParserTest, CallsTakeTheirTypeFromTheIntrinsicTable) {
  LoopNest Nest;
  std::string Error;
  ASSERT_TRUE(parseLoopNest("func f(A: float32*[1] global) target=gpu {\n"
                            "  A[0] = sqrtf(A[0])\n"
                            "}\n",
                            Nest, Error))
      << Error;
  const auto *Store = as<StoreNode>(Nest.Body);
  ASSERT_NE(Store, nullptr);
  EXPECT_EQ(Store->Value->Type, DType::Float32);
}

TEST(IRParserTest, ErrorsSayLineAndColumn) {
  LoopNest Nest;
  std::string Error;
  EXPECT_FALSE(parseLoopNest("func f(N: int32) target=gpu {\n"
                             "  for (i, 0, M) {\n"
                             "  }\n"
                             "}\n",
                             Nest, Error));
  EXPECT_EQ(Error, "2:14: unknown variable 'M'");
}

TEST(IRParserTest, RejectsTruncatedAndGarbageInputWithoutCrashing) {
  std::string Text = scheduledMatmulText();
  for (size_t Len = 0; Len < Text.size(); Len += 7) {
    LoopNest Nest;
    std::string Error;
    EXPECT_FALSE(parseLoopNest(Text.substr(0, Len), Nest, Error));
    EXPECT_FALSE(Error.empty());
  }
  LoopNest Nest;
  std::string Error;
  EXPECT_FALSE(parseLoopNest("func f() target=gpu { " + std::string(5000, '(') + " }", Nest,
                             Error));
  EXPECT_FALSE(parseLoopNest("func f() target=gpu { @ }", Nest, Error));
  EXPECT_EQ(Error, "1:23: unexpected character '@'");
}

TEST(IRParserTest, SkipsLineComments) {
  LoopNest Nest;
  std::string Error;
  EXPECT_TRUE(parseLoopNest("// input\nfunc f(N: int32) target=gpu { // body\n}\n", Nest, Error))
      << Error;
}

} // namespace
