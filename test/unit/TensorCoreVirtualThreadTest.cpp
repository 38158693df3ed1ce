//===- TensorCoreVirtualThreadTest.cpp - vthread + wmma, and its mutation -===//
//
// DESIGN 5, contract 1, on the real wmma intrinsics: a vthread loop over the
// fragments gives each virtual thread its own loads, fill, mma and store.
// The mutation re-registers the wmma intrinsics with their fragment
// operands declared as plain values (what TVM's virtual-thread pass saw of
// a fragment): the fragments are then not known to be written, not
// expanded, and TVM's wrong code returns - two loads into one fragment,
// one mma. This proves virtual-thread injection reads the declarations.
//
//===----------------------------------------------------------------------===//
#include "LoweringTestUtil.h"
#include "Pipeline.h"
#include "ir/Intrinsics.h"
#include "ir/Printer.h"
#include "schedule/DirectiveParser.h"
#include "schedule/Schedule.h"

#include <gtest/gtest.h>

using namespace sched;
using namespace sched::lowertest;

namespace {

const char *const SeedNest =
    "func tc(A: float16*[2, 16, 16] global, B: float16*[16, 16] global, "
    "C: float32*[2, 16, 16] global) target=gpu {\n"
    "  for (v, 0, 2) {\n"
    "    for (i, 0, 16) {\n"
    "      for (j, 0, 16) {\n"
    "        allocate acc: float32[1] local {\n"
    "          acc[0] = 0.0f\n"
    "          for (k, 0, 16) reduce {\n"
    "            acc[0] = (acc[0] + (float32(A[v, i, k])*float32(B[k, j])))\n"
    "          }\n"
    "          C[v, i, j] = acc[0]\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

const char *const SeedSchedule =
    "bind(v, vthread) cache_read(A, wmma.matrix_a, Af) cache_read(B, wmma.matrix_b, Bf) "
    "cache_write(C, wmma.accumulator, Cf) compute_at(Cf, v) compute_at(Af, v) "
    "compute_at(Bf, v) tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, wmma.load) "
    "tensorize(Cf.i, wmma.mma) tensorize(i, wmma.store)";

/// The nest after InjectVirtualThread, printed.
std::string afterVirtualThreads() {
  ir::LoopNest Nest = parseNest(SeedNest);
  std::vector<Directive> Dirs;
  std::vector<Diag> Diags;
  EXPECT_TRUE(parseDirectiveText(SeedSchedule, Dirs, Diags));
  EXPECT_TRUE(applySchedule(Nest, Dirs, Diags));
  std::string Out;
  PipelineOptions Opts;
  Opts.AfterPass = [&](const std::string &Pass, const ir::LoopNest &N, bool) {
    if (Pass == "InjectVirtualThread")
      Out = ir::print(N);
  };
  LoweredKernel K;
  lower(Nest, Opts, K, Diags);
  return Out;
}

size_t count(const std::string &Text, const std::string &Needle) {
  size_t N = 0;
  for (size_t At = Text.find(Needle); At != std::string::npos; At = Text.find(Needle, At + 1))
    ++N;
  return N;
}

TEST(TensorCoreVirtualThreadTest, EachVirtualThreadGetsItsOwnFragmentsAndMma) {
  std::string Out = afterVirtualThreads();
  EXPECT_EQ(count(Out, "eval wmma.load_a("), 2u) << Out;
  EXPECT_EQ(count(Out, "eval wmma.load_b("), 1u) << Out;
  EXPECT_EQ(count(Out, "eval wmma.fill("), 2u) << Out;
  EXPECT_EQ(count(Out, "eval wmma.mma("), 2u) << Out;
  EXPECT_EQ(count(Out, "eval wmma.store("), 2u) << Out;
  EXPECT_NE(Out.find("wmma.mma(Cf[1, 0, 0, 0, 0, 0], Af[1, 0, 0, 0, 0, 0]"), std::string::npos)
      << Out;
}

TEST(TensorCoreVirtualThreadTest, FragmentsDeclaredAsValuesBringBackTvmsWrongCode) {
  std::vector<ir::IntrinsicInfo> Saved;
  for (ir::WmmaOp Op : {ir::WmmaOp::Fill, ir::WmmaOp::LoadA, ir::WmmaOp::LoadB, ir::WmmaOp::Mma,
                        ir::WmmaOp::Store}) {
    const ir::IntrinsicInfo *Info = ir::lookupIntrinsic(ir::wmmaIntrinsicName(Op));
    ASSERT_TRUE(Info);
    Saved.push_back(*Info);
    ir::IntrinsicInfo Mutated = *Info;
    for (size_t I = 0; I < Mutated.Operands.size(); ++I)
      if (Mutated.tile(I).IsFragment) {
        Mutated.Operands[I] = ir::OperandRole::Value;
        Mutated.Tiles[I] = ir::TileDecl();
      }
    ir::registerIntrinsic(Mutated);
  }
  std::string Out = afterVirtualThreads();
  for (const ir::IntrinsicInfo &Info : Saved)
    ir::registerIntrinsic(Info);
  // TVM's result: both loads write the one A fragment, one mma, and the
  // accumulator is shared by the stores.
  EXPECT_EQ(count(Out, "eval wmma.load_a("), 2u) << Out;
  EXPECT_EQ(count(Out, "eval wmma.mma("), 1u) << Out;
  EXPECT_EQ(count(Out, "Af[1,"), 0u) << Out;
  // And with the declarations back, the right code returns.
  EXPECT_EQ(count(afterVirtualThreads(), "eval wmma.mma("), 2u);
}

} // namespace
