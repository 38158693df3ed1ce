//===- CodeGenDescriptorTest.cpp - Launch descriptor round trip -----------===//
//
// The runtime reads back exactly what the plugin wrote: every field of a
// LaunchDescriptor survives serialize/parse, launch expressions refer to the
// kernel's own parameter variables, and malformed text is an error, not a
// crash.
//
//===----------------------------------------------------------------------===//
#include "LoweringTestUtil.h"
#include "Pipeline.h"
#include "codegen/CodeGenCUDA.h"
#include "ir/LaunchDescriptor.h"
#include "ir/IRVisitor.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>

using namespace sched;
using namespace sched::lowertest;

namespace {

const char *Kernel =
    "func sched_mm_7(A: float32*[M, K] global noalias, C: float32*[M] global, M: int32, "
    "K: int32) target=gpu {\n"
    "  for (bx, 0, ((M + 31)/32)) bind(blockIdx.x) {\n"
    "    for (tx, 0, 32) bind(threadIdx.x) {\n"
    "      if ((((bx*32) + tx) < M)) {\n"
    "        allocate acc: float32[1] local {\n"
    "          acc[0] = 0.0f\n"
    "          for (k, 0, K) reduce {\n"
    "            acc[0] = (acc[0] + A[((bx*32) + tx), k])\n"
    "          }\n"
    "          C[((bx*32) + tx)] = acc[0]\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

LaunchDescriptor makeDescriptor() {
  LaunchDescriptor D;
  std::vector<Diag> Diags;
  EXPECT_TRUE(lower(parseNest(Kernel), PipelineOptions(), D.Kernel, Diags));
  D.Kernel.Kernel.SourceFile = "dir with space/mm kernel.cpp";
  D.Kernel.Kernel.SourceLine = 7;
  D.ArgKinds = {LaunchDescriptor::ArgKind::Pointer, LaunchDescriptor::ArgKind::Array,
                LaunchDescriptor::ArgKind::Scalar, LaunchDescriptor::ArgKind::Scalar};
  // The CUDA section must survive anything, including text that looks like
  // descriptor syntax.
  D.Payload = emitCUDA(D.Kernel) + "\nend\ncuda 3\nir 0\n\n";
  return D;
}

TEST(CodeGenDescriptorTest, RoundTripsEveryField) {
  LaunchDescriptor D = makeDescriptor();
  std::string Text = serializeDescriptor(D);
  LaunchDescriptor P;
  std::string Error;
  ASSERT_TRUE(parseDescriptor(Text, P, Error)) << Error << "\n" << Text;
  EXPECT_EQ(P.ArgKinds, D.ArgKinds);
  EXPECT_EQ(P.Payload, D.Payload);
  EXPECT_EQ(P.Kernel.Kernel.Name, "sched_mm_7");
  EXPECT_EQ(P.Kernel.Kernel.SourceFile, D.Kernel.Kernel.SourceFile);
  EXPECT_EQ(P.Kernel.Kernel.SourceLine, 7u);
  EXPECT_EQ(ir::print(P.Kernel.Kernel), ir::print(D.Kernel.Kernel));
  for (int I = 0; I < 3; ++I) {
    EXPECT_EQ(ir::print(P.Kernel.Geometry.Grid[I]), ir::print(D.Kernel.Geometry.Grid[I]));
    EXPECT_EQ(ir::print(P.Kernel.Geometry.Block[I]), ir::print(D.Kernel.Geometry.Block[I]));
  }
  ASSERT_EQ(P.Kernel.Regions.size(), D.Kernel.Regions.size());
  for (size_t I = 0; I < D.Kernel.Regions.size(); ++I) {
    EXPECT_EQ(P.Kernel.Regions[I].Param, D.Kernel.Regions[I].Param);
    EXPECT_EQ(P.Kernel.Regions[I].Read, D.Kernel.Regions[I].Read);
    EXPECT_EQ(P.Kernel.Regions[I].Written, D.Kernel.Regions[I].Written);
    EXPECT_EQ(ir::print(P.Kernel.Regions[I].Extent), ir::print(D.Kernel.Regions[I].Extent));
    EXPECT_EQ(P.Kernel.Regions[I].Min == nullptr, D.Kernel.Regions[I].Min == nullptr);
  }
  EXPECT_EQ(serializeDescriptor(P), Text);
}

/// A region that starts below its pointer keeps its first index, over the
/// kernel's own parameters; one that starts at 0 keeps none.
TEST(CodeGenDescriptorTest, RoundTripsRegionOrigins) {
  LaunchDescriptor D = makeDescriptor();
  ASSERT_EQ(D.Kernel.Regions.size(), 2u);
  ir::Var K = D.Kernel.Kernel.Params[3].Scalar;
  D.Kernel.Regions[0].Min = ir::makeBinary(ir::BinOp::Min, ir::makeInt(0), K - ir::makeInt(4));
  LaunchDescriptor P;
  std::string Error;
  ASSERT_TRUE(parseDescriptor(serializeDescriptor(D), P, Error)) << Error;
  ASSERT_TRUE(P.Kernel.Regions[0].Min);
  EXPECT_EQ(ir::print(P.Kernel.Regions[0].Min), ir::print(D.Kernel.Regions[0].Min));
  EXPECT_TRUE(ir::usesVar(P.Kernel.Regions[0].Min, P.Kernel.Kernel.Params[3].Scalar.get()));
  EXPECT_FALSE(P.Kernel.Regions[1].Min);
}

TEST(CodeGenDescriptorTest, LaunchExpressionsUseTheKernelsParameters) {
  LaunchDescriptor P;
  std::string Error;
  ASSERT_TRUE(parseDescriptor(serializeDescriptor(makeDescriptor()), P, Error)) << Error;
  // Binding the kernel's own M must fold the grid: (100 + 31)/32 = 4.
  EXPECT_EQ(evalAt(P.Kernel.Geometry.Grid[0], P.Kernel.Kernel, {{"M", 100}}), 4);
  EXPECT_EQ(evalAt(P.Kernel.Regions[0].Extent, P.Kernel.Kernel, {{"M", 100}, {"K", 3}}), 300);
}

/// The values a launch stores into counters declared outside the nest keep
/// their type, their condition (absent: always) and their parameters.
TEST(CodeGenDescriptorTest, FinalValuesRoundTripOverTheKernelsParameters) {
  LaunchDescriptor D = makeDescriptor();
  const ir::LoopNest &K = D.Kernel.Kernel;
  ir::Expr M = scalarParam(K, "M"), KK = scalarParam(K, "K");
  D.Finals.push_back({"i", ir::DType::Int32, nullptr,
                      ir::makeBinary(ir::BinOp::Max, M, ir::makeInt(0))});
  D.Finals.push_back({"k", ir::DType::Int64, ir::makeBinary(ir::BinOp::GT, M, ir::makeInt(0)),
                      ir::makeCast(ir::DType::Int64, KK + ir::makeInt(1))});
  std::string Text = serializeDescriptor(D);
  EXPECT_NE(Text.find("\nfinal int32 i\nfinal-when -\n"), std::string::npos) << Text;
  EXPECT_NE(Text.find("\nfinal int64 k\n"), std::string::npos) << Text;
  LaunchDescriptor P;
  std::string Error;
  ASSERT_TRUE(parseDescriptor(Text, P, Error)) << Error;
  ASSERT_EQ(P.Finals.size(), 2u);
  EXPECT_EQ(P.Finals[0].Name, "i");
  EXPECT_EQ(P.Finals[0].Type, ir::DType::Int32);
  EXPECT_FALSE(P.Finals[0].When);
  EXPECT_EQ(evalAt(P.Finals[0].Value, P.Kernel.Kernel, {{"M", -3}}), 0);
  EXPECT_EQ(evalAt(P.Finals[0].Value, P.Kernel.Kernel, {{"M", 9}}), 9);
  EXPECT_EQ(P.Finals[1].Type, ir::DType::Int64);
  EXPECT_EQ(evalAt(P.Finals[1].When, P.Kernel.Kernel, {{"M", 0}}), 0);
  EXPECT_EQ(evalAt(P.Finals[1].Value, P.Kernel.Kernel, {{"K", 41}}), 42);
  EXPECT_EQ(serializeDescriptor(P), Text);
  // A descriptor without finals has no finals line.
  EXPECT_EQ(serializeDescriptor(makeDescriptor()).find("finals"), std::string::npos);
}

TEST(CodeGenDescriptorTest, AssumptionsRoundTripOverTheKernelsParameters) {
  LaunchDescriptor D = makeDescriptor();
  ir::LoopNest &K = D.Kernel.Kernel;
  K.Assumptions.push_back(
      ir::makeBinary(ir::BinOp::LE, scalarParam(K, "M"), scalarParam(K, "K")));
  LaunchDescriptor P;
  std::string Error;
  ASSERT_TRUE(parseDescriptor(serializeDescriptor(D), P, Error)) << Error;
  ASSERT_EQ(P.Kernel.Kernel.Assumptions.size(), 1u);
  const ir::Expr &A = P.Kernel.Kernel.Assumptions[0];
  EXPECT_EQ(ir::print(A), "(M <= K)");
  EXPECT_EQ(evalAt(A, P.Kernel.Kernel, {{"M", 4}, {"K", 5}}), 1);
  EXPECT_EQ(evalAt(A, P.Kernel.Kernel, {{"M", 6}, {"K", 5}}), 0);
}

TEST(CodeGenDescriptorTest, LaunchExpressionsOverScalarParametersPassTheCheck) {
  LaunchDescriptor D = makeDescriptor();
  ir::LoopNest &K = D.Kernel.Kernel;
  K.Assumptions.push_back(
      ir::makeBinary(ir::BinOp::LE, scalarParam(K, "M"), scalarParam(K, "K")));
  std::string Error;
  EXPECT_TRUE(checkLaunchExprs(D.Kernel, Error)) << Error;
}

// Issue 7, case 12: a region that loads memory made every launch fail; the
// plugin now refuses such a kernel at compile time as an internal error.
TEST(CodeGenDescriptorTest, RegionThatReadsMemoryFailsTheCheck) {
  LaunchDescriptor D = makeDescriptor();
  ir::Buffer A = bufferParam(D.Kernel.Kernel, "A");
  ASSERT_TRUE(A);
  D.Kernel.Regions[0].Extent = ir::makeLoad(A, {ir::makeInt(0)});
  std::string Error;
  EXPECT_FALSE(checkLaunchExprs(D.Kernel, Error));
  EXPECT_NE(Error.find("copy region of 'A'"), std::string::npos) << Error;
}

TEST(CodeGenDescriptorTest, AssumptionOverANonParameterFailsTheCheck) {
  LaunchDescriptor D = makeDescriptor();
  D.Kernel.Kernel.Assumptions.push_back(
      ir::makeBinary(ir::BinOp::LE, ir::makeVar("tx"), scalarParam(D.Kernel.Kernel, "M")));
  std::string Error;
  EXPECT_FALSE(checkLaunchExprs(D.Kernel, Error));
  EXPECT_NE(Error.find("run-time assumption '(tx <= M)'"), std::string::npos) << Error;
}

TEST(CodeGenDescriptorTest, RejectsTruncatedText) {
  std::string Text = serializeDescriptor(makeDescriptor());
  for (size_t Cut : {size_t(0), size_t(10), Text.size() / 2, Text.size() - 5}) {
    LaunchDescriptor P;
    std::string Error;
    EXPECT_FALSE(parseDescriptor(Text.substr(0, Cut), P, Error)) << Cut;
    EXPECT_FALSE(Error.empty()) << Cut;
  }
}

TEST(CodeGenDescriptorTest, RejectsAnUnknownHeader) {
  std::string Text = serializeDescriptor(makeDescriptor());
  Text.replace(0, Text.find('\n'), "sched-launch-descriptor v9");
  LaunchDescriptor P;
  std::string Error;
  EXPECT_FALSE(parseDescriptor(Text, P, Error));
  EXPECT_NE(Error.find("not a sched launch descriptor"), std::string::npos) << Error;
}

/// The target architecture goes from PipelineOptions through lowering into
/// the descriptor and back; the runtime compiles for what it reads.
TEST(CodeGenDescriptorTest, RoundTripsTheTargetArchitecture) {
  for (const char *Name : {"sm_80", "sm_90a"}) {
    PipelineOptions Opts;
    ASSERT_TRUE(parseTargetArch(Name, Opts.Arch));
    LaunchDescriptor D;
    std::vector<Diag> Diags;
    ASSERT_TRUE(lower(parseNest(Kernel), Opts, D.Kernel, Diags));
    EXPECT_EQ(D.Kernel.Arch.name(), Name);
    D.ArgKinds.assign(D.Kernel.Kernel.Params.size(), LaunchDescriptor::ArgKind::Pointer);
    std::string Text = serializeDescriptor(D);
    EXPECT_NE(Text.find(std::string("\narch ") + Name + "\n"), std::string::npos) << Text;
    LaunchDescriptor P;
    std::string Error;
    ASSERT_TRUE(parseDescriptor(Text, P, Error)) << Error << "\n" << Text;
    EXPECT_EQ(P.Kernel.Arch.name(), Name);
    EXPECT_EQ(P.Kernel.Arch.Specific, D.Kernel.Arch.Specific);
  }
  // No architecture asked for: none written, none read.
  LaunchDescriptor P;
  std::string Error;
  std::string Text = serializeDescriptor(makeDescriptor());
  EXPECT_EQ(Text.find("\narch "), std::string::npos);
  ASSERT_TRUE(parseDescriptor(Text, P, Error)) << Error;
  EXPECT_FALSE(P.Kernel.Arch.isSet());
}

// The compute capability the payload needs is computed at compile time and
// travels as data (min-cc), so the runtime reads it without the IR.
TEST(CodeGenDescriptorTest, RoundTripsTheMinimumComputeCapability) {
  LaunchDescriptor D = makeDescriptor();
  std::string Error;
  LaunchDescriptor P;
  std::string Text = serializeDescriptor(D);
  EXPECT_EQ(Text.find("\nmin-cc "), std::string::npos) << Text;
  ASSERT_TRUE(parseDescriptor(Text, P, Error)) << Error;
  EXPECT_EQ(P.MinCapability, 0);
  D.MinCapability = 72;
  Text = serializeDescriptor(D);
  EXPECT_NE(Text.find("\nmin-cc 72\n"), std::string::npos) << Text;
  ASSERT_TRUE(parseDescriptor(Text, P, Error)) << Error << "\n" << Text;
  EXPECT_EQ(P.MinCapability, 72);
  size_t At = Text.find("min-cc 72");
  Text.replace(At, 9, "min-cc x");
  EXPECT_FALSE(parseDescriptor(Text, P, Error));
  EXPECT_NE(Error.find("expected 'min-cc <compute capability>'"), std::string::npos) << Error;
}

TEST(CodeGenDescriptorTest, RejectsAnUnknownTargetArchitecture) {
  std::string Text = serializeDescriptor(makeDescriptor());
  size_t Shared = Text.find("shared-bytes ");
  ASSERT_NE(Shared, std::string::npos);
  Text.insert(Shared, "arch sm_70\n");
  LaunchDescriptor P;
  std::string Error;
  EXPECT_FALSE(parseDescriptor(Text, P, Error));
  EXPECT_NE(Error.find("unknown target architecture 'sm_70'; valid: sm_75|"), std::string::npos)
      << Error;
}

TEST(CodeGenDescriptorTest, TargetArchitectureNamesParse) {
  TargetArch A;
  for (const char *Name : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"}) {
    ASSERT_TRUE(parseTargetArch(Name, A)) << Name;
    EXPECT_EQ(A.name(), Name);
  }
  ASSERT_TRUE(parseTargetArch("sm_90a", A));
  EXPECT_EQ(A.Number, 90);
  EXPECT_TRUE(A.Specific);
  for (const char *Bad : {"", "sm_70", "sm_80a", "80", "compute_80", "SM_80", "sm_90 "})
    EXPECT_FALSE(parseTargetArch(Bad, A)) << Bad;
  EXPECT_EQ(targetArchNames(), "sm_75|sm_80|sm_86|sm_89|sm_90|sm_90a");
}

} // namespace
