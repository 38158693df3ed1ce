//===- TargetRegistryTest.cpp - A target is a description -----------------===//
//
// A target is added by describing it, never by editing a driver: a throwaway
// target with one pass and one emitter is registered here and goes through
// the schedule (target(...)), compileNest and the launch descriptor as the
// built-in ones do. The built-in descriptions carry what the drivers used to
// decide by the target's name (the descriptor's runner and payload, the
// schedule's vocabulary).
//
//===----------------------------------------------------------------------===//
#include "Compile.h"
#include "LoweringTestUtil.h"
#include "ir/Printer.h"
#include "passes/Pass.h"
#include "schedule/DirectiveParser.h"
#include "schedule/Schedule.h"
#include "targets/Target.h"

#include <gtest/gtest.h>

using namespace sched;
using namespace sched::lowertest;

namespace {

const char *Copy = "func sched_copy(A: float32*[4] global, B: float32*[4] global) target=gpu {\n"
                   "  for (i, 0, 4) {\n"
                   "    B[i] = A[i]\n"
                   "  }\n"
                   "}\n";

/// The throwaway target's one pass: says how many stores the nest has.
bool countStores(passes::LoweringState &S) {
  Diag D;
  D.Severity = Diag::Level::Remark;
  D.Message = "toy: " + std::to_string(storesOf(S.Nest.Body).size()) + " store(s)";
  S.Diags.push_back(D);
  return true;
}

/// Its emitter: the kernel's name and body, as comments.
bool emitToy(const LoweredKernel &K, std::string &Out, std::vector<Diag> &) {
  Out = "// toy kernel " + K.Kernel.Name + "\n// " + ir::print(K.Kernel.Body);
  return true;
}

/// Registers the throwaway target and its pass for the test's lifetime.
class ToyTarget {
public:
  ToyTarget() {
    EXPECT_TRUE(passes::registerPass({"ToyCountStores", 0, 0, countStores}));
    TargetDescription T;
    T.Name = "toy";
    T.Passes = {"ToyCountStores"};
    T.Emit = emitToy;
    T.EmitKind = "toy";
    T.Language = "toy text";
    T.FileExtension = ".toy";
    EXPECT_TRUE(registerTarget(T));
  }
  ~ToyTarget() {
    unregisterTarget("toy");
    passes::unregisterPass("ToyCountStores");
  }
};

TEST(TargetRegistryTest, AThrowawayTargetCompilesThroughTheDriver) {
  ToyTarget Toy;
  // The schedule takes the target by its registered name ...
  ir::LoopNest Nest = parseNest(Copy);
  std::vector<Directive> Dirs;
  std::vector<Diag> Diags;
  ASSERT_TRUE(parseDirectiveText("target(toy)", Dirs, Diags));
  ASSERT_TRUE(applySchedule(Nest, Dirs, Diags)) << (Diags.empty() ? "" : Diags[0].Message);
  EXPECT_EQ(Nest.Target, "toy");
  // ... and compileNest runs its pipeline, its emitter and the descriptor.
  CompiledNest C;
  ASSERT_TRUE(compileNest(Nest, CompileOptions(), C))
      << (C.Failure.empty() ? "" : C.Failure[0].Message);
  ASSERT_NE(C.Target, nullptr);
  EXPECT_EQ(C.Target->Name, "toy");
  ASSERT_EQ(C.Notes.size(), 1u);
  EXPECT_EQ(C.Notes[0].Message, "toy: 1 store(s)");
  EXPECT_EQ(C.Source, "// toy kernel sched_copy\n// for (i, 0, 4) {\n  B[i] = A[i]\n}\n");
  EXPECT_EQ(C.Descriptor.Runner, RunnerKind::Kernel);
  EXPECT_TRUE(C.Descriptor.Payload.empty()); // not its payload
  std::string Error;
  LaunchDescriptor Back;
  ASSERT_TRUE(parseDescriptor(serializeDescriptor(C.Descriptor), Back, Error)) << Error;
  EXPECT_EQ(Back.Kernel.Kernel.Target, "toy");
}

TEST(TargetRegistryTest, AnEmptyTargetNameIsTheDefaultTarget) {
  // A nest that names no target (ir::LoopNest::Target empty) is the
  // registry's default: the first built-in target, which the plugin's
  // extractor names in every nest it makes.
  EXPECT_EQ(findTarget(""), &defaultTarget());
  EXPECT_EQ(&defaultTarget(), registeredTargets().front());
  EXPECT_EQ(findTarget(defaultTarget().Name), &defaultTarget());
  // Its vocabulary is the nest's: tensorize with its intrinsic is accepted
  // without a target(...) directive.
  ir::LoopNest Nest = parseNest("func f(A: float32*[4] global) {\n"
                                "  for (i, 0, 4) {\n"
                                "    A[i] = 0.0f\n"
                                "  }\n"
                                "}\n");
  ASSERT_EQ(Nest.Target, "");
  const std::string &Intrinsic = defaultTarget().TensorIntrinsics.front();
  std::vector<Directive> Dirs;
  std::vector<Diag> Diags;
  ASSERT_TRUE(parseDirectiveText("tensorize(i, " + Intrinsic + ")", Dirs, Diags));
  applySchedule(Nest, Dirs, Diags);
  for (const Diag &D : Diags)
    EXPECT_EQ(D.Message.find("needs target("), std::string::npos) << D.Message;
}

TEST(TargetRegistryTest, ATargetNameIsRegisteredOnce) {
  TargetDescription T;
  T.Name = "gpu";
  EXPECT_FALSE(registerTarget(T));
  EXPECT_FALSE(unregisterTarget("gpu"));
  EXPECT_EQ(targetNameList(), "gpu or vta");
}

TEST(TargetRegistryTest, AnUnknownTargetNamesTheRegisteredOnes) {
  ToyTarget Toy;
  std::vector<Directive> Dirs;
  std::vector<Diag> Diags;
  EXPECT_FALSE(parseDirectiveText("target(cpu)", Dirs, Diags));
  ASSERT_EQ(Diags.size(), 1u);
  EXPECT_EQ(Diags[0].Message, "unknown target 'cpu'; expected gpu, vta or toy");
}

// What the runtime and the descriptor used to learn from the target's name
// is in the descriptions.
TEST(TargetRegistryTest, BuiltinTargetsNameTheirRunnerAndPayload) {
  const TargetDescription *GPU = findTarget("gpu"), *VTA = findTarget("vta");
  ASSERT_TRUE(GPU && VTA);
  EXPECT_EQ(GPU->Runner, RunnerKind::Kernel);
  EXPECT_TRUE(GPU->SourceInDescriptor);
  EXPECT_EQ(GPU->FileExtension, ".cu");
  EXPECT_EQ(VTA->Runner, RunnerKind::VtaProgram);
  EXPECT_FALSE(VTA->SourceInDescriptor);
  EXPECT_EQ(VTA->FileExtension, ".vta.cpp");
  EXPECT_EQ(targetWithScope(ir::Scope::VtaAcc), VTA);
  EXPECT_EQ(targetWithScope(ir::Scope::Shared), nullptr); // every target has it
  EXPECT_EQ(targetWithTensorIntrinsic("wmma.mma"), GPU);
  EXPECT_EQ(targetWithLoopPragma("dma_copy"), VTA);
  EXPECT_EQ(targetWithEmitKind("cuda"), GPU);
}

// A VTA nest's descriptor names the VTA runner; the runtime reads that, not
// the target's name.
TEST(TargetRegistryTest, VtaDescriptorCarriesItsRunner) {
  ir::LoopNest Nest = parseNest("func f(A: int8*[16] global) target=vta {\n}\n");
  CompiledNest C;
  ASSERT_TRUE(compileNest(Nest, CompileOptions(), C))
      << (C.Failure.empty() ? "" : C.Failure[0].Message);
  std::string Text = serializeDescriptor(C.Descriptor);
  EXPECT_NE(Text.find("\nrunner vta-program\n"), std::string::npos) << Text;
  LaunchDescriptor Back;
  std::string Error;
  ASSERT_TRUE(parseDescriptor(Text, Back, Error)) << Error;
  EXPECT_EQ(Back.Runner, RunnerKind::VtaProgram);
}

} // namespace
