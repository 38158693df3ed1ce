//===- PassDriverTest.cpp - The pass contract, as the driver enforces it --===//
//
// Every pass declares the form it requires, and the driver (Pipeline.cpp)
// checks it in every build: a pass given IR in an earlier form is an error
// naming the pass, never a crash, and a nest lowered that way falls back. A
// failed SCHED_CHECK inside a pass is one too. verify-each runs every
// target's verifier, VTA's included; AfterPass learns whether a pass changed
// the nest; runPasses names the registered passes when asked for another.
//
//===----------------------------------------------------------------------===//
#include "Compile.h"
#include "LoweringTestUtil.h"
#include "Pipeline.h"
#include "ir/Check.h"
#include "ir/Printer.h"
#include "passes/Pass.h"
#include "targets/Target.h"

#include <gtest/gtest.h>

using namespace sched;
using namespace sched::lowertest;

namespace {

/// Two loops bound to threadIdx.x of different extents: WidenThreadLoops
/// has not run, so the second is not over the launch extent.
const char *NotWidened = "func sched_two(A: float32*[64] global, B: float32*[32] global) "
                         "target=gpu {\n"
                         "  for (a, 0, 64) bind(threadIdx.x) {\n"
                         "    A[a] = 0.0f\n"
                         "  }\n"
                         "  for (b, 0, 32) bind(threadIdx.x) {\n"
                         "    B[b] = 1.0f\n"
                         "  }\n"
                         "}\n";

std::string messages(const std::vector<Diag> &Diags) {
  std::string Out;
  for (const Diag &D : Diags)
    Out += D.Message + "\n";
  return Out;
}

TEST(PassDriverTest, AnInputNotInTheRequiredFormIsAnErrorNamingThePass) {
  LoweredKernel Out;
  std::vector<Diag> Diags;
  EXPECT_FALSE(runPasses(parseNest(NotWidened), {"InjectThreadSync"}, PipelineOptions(), Out,
                         Diags));
  EXPECT_NE(messages(Diags).find("the input of InjectThreadSync is not in the form it requires: "
                                 "malformed kernel: loop 'b' bound to threadIdx.x does not run "
                                 "over the launch extent of its tag"),
            std::string::npos)
      << messages(Diags);
}

// The same through compileNest, the plugin's driver: lowering fails, so the
// plugin keeps the loop with a warning.
TEST(PassDriverTest, ANestWhosePassInputIsInAnEarlierFormFallsBack) {
  TargetDescription T = *findTarget("gpu");
  T.Name = "gpu-late-pass";
  T.EmitKind = "";
  T.Passes = {"InjectThreadSync"};
  ASSERT_TRUE(registerTarget(T));
  ir::LoopNest Nest = parseNest(NotWidened);
  Nest.Target = "gpu-late-pass";
  CompiledNest C;
  EXPECT_FALSE(compileNest(Nest, CompileOptions(), C));
  unregisterTarget("gpu-late-pass");
  EXPECT_EQ(C.Failed, CompileStage::Lower);
  EXPECT_EQ(compileFailureHeading(C), "cannot lower nest");
  EXPECT_NE(messages(C.Failure).find("the input of InjectThreadSync is not in the form"),
            std::string::npos)
      << messages(C.Failure);
}

bool failACheck(passes::LoweringState &S) {
  SCHED_CHECK(S.Nest.Params.empty(), "this pass expects a nest without parameters");
  return true;
}

TEST(PassDriverTest, AFailedCheckInAPassIsAnErrorNamingThePass) {
  ASSERT_TRUE(passes::registerPass({"ToyFailsACheck", 0, 0, failACheck}));
  LoweredKernel Out;
  std::vector<Diag> Diags;
  bool Ok = runPasses(parseNest(NotWidened), {"ToyFailsACheck"}, PipelineOptions(), Out, Diags);
  passes::unregisterPass("ToyFailsACheck");
  EXPECT_FALSE(Ok);
  ASSERT_EQ(Diags.size(), 1u);
  EXPECT_EQ(Diags[0].Message.rfind("internal error in ToyFailsACheck: check failed at ", 0), 0u)
      << Diags[0].Message;
  EXPECT_NE(Diags[0].Message.find(
                ": S.Nest.Params.empty(): this pass expects a nest without parameters"),
            std::string::npos)
      << Diags[0].Message;
}

/// Drops the program's last statement (its vta.synchronize()).
bool dropLastStatement(passes::LoweringState &S) {
  const auto *Seq = ir::as<ir::SeqNode>(S.Nest.Body);
  if (!Seq)
    return S.error("expected a sequence");
  std::vector<ir::Stmt> Stmts(Seq->Stmts.begin(), Seq->Stmts.end() - 1);
  S.Nest.Body = ir::makeSeq(Stmts);
  return true;
}

// A VTA pass that breaks a form the passes before it established is named
// by verify-each (the VTA verifier, verifyVtaForm).
TEST(PassDriverTest, VerifyEachChecksTheFormsOfAVtaProgram) {
  ASSERT_TRUE(passes::registerPass({"ToyDropLastStatement", 0, 0, dropLastStatement}));
  ir::LoopNest Nest = parseNest("func f(C: int8*[4, 1, 16] global) target=vta {\n"
                                "  allocate Cb: int32[4, 1, 16] vta.acc {\n"
                                "    for (i, 0, 4) {\n"
                                "      eval vta.uop_gemm_reset(Cb[i, 0, 0])\n"
                                "    }\n"
                                "    eval vta.store_2d(C[0, 0, 0], Cb[0, 0, 0], 4, 1, 4)\n"
                                "  }\n"
                                "}\n");
  PipelineOptions Opts;
  Opts.VerifyEach = true;
  LoweredKernel Out;
  std::vector<Diag> Diags;
  bool Ok = runPasses(Nest, {"FoldUopLoops", "InjectCoprocSync", "ToyDropLastStatement"}, Opts,
                      Out, Diags);
  passes::unregisterPass("ToyDropLastStatement");
  EXPECT_FALSE(Ok);
  EXPECT_EQ(messages(Diags), "after ToyDropLastStatement: malformed VTA program: it does not end "
                             "with vta.synchronize()\n");
  // Without the toy pass the same passes verify cleanly.
  Diags.clear();
  EXPECT_TRUE(runPasses(Nest, {"FoldUopLoops", "InjectCoprocSync"}, Opts, Out, Diags))
      << messages(Diags);
}

TEST(PassDriverTest, AfterPassSaysWhetherThePassChangedTheNest) {
  std::map<std::string, bool> Changed;
  PipelineOptions Opts;
  Opts.AfterPass = [&](const std::string &Pass, const ir::LoopNest &, bool C) {
    Changed[Pass] = C;
  };
  LoweredKernel K;
  std::vector<Diag> Diags;
  ASSERT_TRUE(lower(parseNest(NotWidened), Opts, K, Diags)) << messages(Diags);
  EXPECT_FALSE(Changed.at("NormalizeLoops"));       // every loop starts at 0 already
  EXPECT_FALSE(Changed.at("VerifyThreadBindings")); // a check
  EXPECT_FALSE(Changed.at("ComputeLaunchGeometry")); // an analysis
  EXPECT_TRUE(Changed.at("WidenThreadLoops"));      // b runs over 64, behind a guard
}

TEST(PassDriverTest, AnUnknownPassNameListsTheRegisteredOnes) {
  LoweredKernel Out;
  std::vector<Diag> Diags;
  EXPECT_FALSE(runPasses(parseNest(NotWidened), {"NoSuchPass"}, PipelineOptions(), Out, Diags));
  ASSERT_EQ(Diags.size(), 1u);
  EXPECT_EQ(Diags[0].Message.rfind("unknown pass 'NoSuchPass'; registered passes: "
                                   "AutoTensorCore, BoundInference, ",
                                   0),
            0u)
      << Diags[0].Message;
}

} // namespace
