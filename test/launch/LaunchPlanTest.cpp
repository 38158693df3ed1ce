//===- LaunchPlanTest.cpp - The launch plan, without the IR ---------------===//
//
// Reading a descriptor's plan and evaluating its programs, as the launcher
// does. This binary links the sched_launch objects only (test/CMakeLists.txt):
// it would not link if reading a plan needed the IR library.
//
//===----------------------------------------------------------------------===//
#include "ir/LaunchPlan.h"

#include <gtest/gtest.h>

using namespace sched;

namespace {

ScalarProgram program(const std::string &Text) {
  ScalarProgram P;
  std::string Error;
  EXPECT_TRUE(ScalarProgram::parse(Text, P, Error)) << Error;
  return P;
}

int64_t eval(const std::string &Text, std::vector<int64_t> Values) {
  int64_t Out = -12345;
  std::string Error;
  EXPECT_TRUE(program(Text).eval(Values, Out, Error)) << Error;
  return Out;
}

/// A descriptor of a kernel C[i] = A[i] over n elements, blocks of 64.
LaunchPlan sample() {
  LaunchPlan P;
  P.Kernel = "sched_copy_3";
  P.SourceFile = "a file.cpp";
  P.SourceLine = 12;
  P.SharedBytes = 256;
  P.MinCapability = 70;
  LaunchPlan::Param A, C, N;
  A.Name = "A";
  A.Arg = LaunchPlan::ArgKind::Pointer;
  A.IsBuffer = true;
  A.Type = ir::DType::Float32;
  A.Alignment = 16;
  A.HasRegion = A.Read = true;
  A.Extent = program("$2");
  C = A;
  C.Name = "C";
  C.Arg = LaunchPlan::ArgKind::Array;
  C.Alignment = 0;
  C.Read = false;
  C.Written = true;
  C.Min = program("1");
  N.Name = "n";
  N.Type = ir::DType::Int32;
  P.Params = {A, C, N};
  P.Grid[0] = program("$2 63 add.int32 64 div.int32");
  P.GridText[0] = "((n + 63)/64)";
  P.Block[0] = program("64");
  P.BlockText[0] = "64";
  LaunchPlan::Assumption Holds;
  Holds.Holds = program("$2 1000 le.int32");
  Holds.Text = "(n <= 1000)";
  P.Assumptions.push_back(Holds);
  LaunchPlan::Final I;
  I.Name = "i";
  I.Type = ir::DType::Int64;
  I.When = program("$2 0 gt.int32");
  I.Value = program("$2 cast.int64");
  P.Finals.push_back(I);
  P.Payload = "extern \"C\" __global__ void sched_copy_3() {}\n";
  return P;
}

} // namespace

TEST(ScalarProgram, ComputesIntegerOperatorsAsC) {
  EXPECT_EQ(eval("$0 63 add.int32 64 div.int32", {130}), 3);
  EXPECT_EQ(eval("-7 2 div.int32", {}), -3); // truncates toward zero
  EXPECT_EQ(eval("-7 2 mod.int32", {}), -1);
  EXPECT_EQ(eval("$0 $1 min.int32", {4, -2}), -2);
  EXPECT_EQ(eval("0:uint32 1:uint32 sub.uint32", {}), 4294967295); // unsigned wraps
  EXPECT_EQ(eval("2147483647 cast.int64 1:int64 add.int64", {}), 2147483648);
  EXPECT_EQ(eval("$0 0 lt.int32 1 2 select", {-1}), 1);
  EXPECT_EQ(eval("$0 neg.int32", {5}), -5);
  EXPECT_EQ(eval("300 cast.uint8", {}), 44);
}

TEST(ScalarProgram, EmptyProgramIsTheDefault) {
  int64_t Out = 0;
  std::string Error;
  EXPECT_TRUE(program("-").eval({}, Out, Error, 7));
  EXPECT_EQ(Out, 7);
}

TEST(ScalarProgram, DivisionByZeroIsAnError) {
  int64_t Out;
  std::string Error;
  EXPECT_FALSE(program("$0 0 div.int32").eval({5}, Out, Error));
  EXPECT_NE(Error.find("division by zero"), std::string::npos) << Error;
}

TEST(ScalarProgram, MalformedProgramsAreRefused) {
  ScalarProgram P;
  std::string Error;
  EXPECT_FALSE(ScalarProgram::parse("1 frobnicate.int32", P, Error));
  EXPECT_FALSE(ScalarProgram::parse("", P, Error));
  int64_t Out;
  EXPECT_FALSE(program("1 add.int32").eval({}, Out, Error)); // one operand short
  EXPECT_FALSE(program("1 2").eval({}, Out, Error));         // two values left
  EXPECT_FALSE(program("$3").eval({1}, Out, Error));         // no parameter 3
}

TEST(ScalarProgram, TextRoundTrips) {
  for (const char *Text : {"$1 63 add.int32 64 div.int32", "-", "5:int64 $0 cast.int64 max.int64",
                           "$0 not.bool", "$0 1 lt.int32 $1 $2 select"})
    EXPECT_EQ(program(Text).str(), Text);
}

TEST(LaunchPlan, DescriptorTextRoundTrips) {
  LaunchPlan P = sample();
  std::string Text = writeDescriptorText(P, "func sched_copy_3() {\n}\n");
  LaunchPlan Q;
  std::string Error, IR;
  ASSERT_TRUE(parsePlan(Text, Q, Error, &IR)) << Error << "\n" << Text;
  EXPECT_EQ(writeDescriptorText(Q, IR), Text);
  EXPECT_EQ(Q.where(), "sched_copy_3 (a file.cpp:12)");
  EXPECT_EQ(IR, "func sched_copy_3() {\n}\n");
  ASSERT_EQ(Q.Params.size(), 3u);
  EXPECT_EQ(Q.Params[0].Alignment, 16);
  EXPECT_TRUE(Q.Params[1].Written);
  EXPECT_EQ(Q.Assumptions[0].Text, "(n <= 1000)");
}

TEST(LaunchPlan, EvaluatesGeometryAndRegionsFromArguments) {
  LaunchPlan P = sample();
  float A[200], C[200];
  int32_t N = 130;
  std::vector<void *> Data = {A, C, &N};
  std::vector<int64_t> Values = P.scalarValues(Data);
  int64_t Grid[3], Block[3], Min, Extent;
  bool Empty;
  std::string Error;
  ASSERT_TRUE(P.geometry(Values, Grid, Block, Empty, Error)) << Error;
  EXPECT_EQ(Grid[0], 3);
  EXPECT_EQ(Block[0], 64);
  EXPECT_EQ(Grid[1], 1); // an empty program is 1
  EXPECT_FALSE(Empty);
  ASSERT_TRUE(P.region(1, Values, C, Min, Extent, Error)) << Error;
  EXPECT_EQ(Min, 1);
  EXPECT_EQ(Extent, 130);
  // A null buffer is fine only where the kernel touches none of it.
  EXPECT_FALSE(P.region(0, Values, nullptr, Min, Extent, Error));
  EXPECT_NE(Error.find("'A' is null"), std::string::npos) << Error;
}

TEST(LaunchPlan, RefusesATruncatedDescriptor) {
  std::string Text = writeDescriptorText(sample(), "func sched_copy_3() {\n}\n");
  LaunchPlan Q;
  std::string Error;
  EXPECT_FALSE(parsePlan(Text.substr(0, Text.size() / 2), Q, Error));
  EXPECT_NE(Error.find("descriptor line"), std::string::npos) << Error;
}

TEST(LaunchPlan, PicksTheNewestEmbeddedImageTheDeviceRuns) {
  LaunchPlan P;
  P.Images = {{"compute_75", "a"}, {"compute_80", "b"}, {"compute_90a", "c"}};
  EXPECT_EQ(imageForDevice(P, 70), nullptr);          // older than every image
  EXPECT_EQ(imageForDevice(P, 75)->Ptx, "a");
  EXPECT_EQ(imageForDevice(P, 86)->Ptx, "b");         // the driver JITs compute_80 for sm_86
  EXPECT_EQ(imageForDevice(P, 90)->Ptx, "c");         // sm_90a code on an sm_90 device
  EXPECT_EQ(imageForDevice(P, 100)->Ptx, "b");        // but on no other
}

TEST(LaunchPlan, ImagesRoundTripAndAnUnknownArchitectureIsRefused) {
  LaunchPlan P = sample();
  P.Images = {{"compute_80", ".version 9.0\n.target sm_80\n"}};
  std::string Text = writeDescriptorText(P, "func sched_copy_3() {\n}\n");
  LaunchPlan Q;
  std::string Error;
  ASSERT_TRUE(parsePlan(Text, Q, Error)) << Error;
  ASSERT_EQ(Q.Images.size(), 1u);
  EXPECT_EQ(Q.Images[0].Arch, "compute_80");
  EXPECT_EQ(Q.Images[0].Ptx, P.Images[0].Ptx);
  size_t At = Text.find("image compute_80");
  Text.replace(At, 16, "image compute_12");
  EXPECT_FALSE(parsePlan(Text, Q, Error));
  EXPECT_NE(Error.find("image for an unknown architecture 'compute_12'"), std::string::npos)
      << Error;
}
