//===- InjectVirtualThreadTest.cpp - Virtual-thread injection -------------===//
//
// DESIGN 5, contract 1: an opaque intrinsic whose operands name the vthread
// variable only through the buffer it writes (a wmma-like fragment passed as
// buffer + fragment index) must still get one call per virtual thread, and
// the fragment buffer one copy per virtual thread. The pass knows what a
// call writes only from its operand declaration (Intrinsics.h).
//
//===----------------------------------------------------------------------===//
#include "LoweringTestUtil.h"
#include "Pipeline.h"
#include "ir/Intrinsics.h"
#include "ir/Printer.h"
#include "passes/Passes.h"

#include <gtest/gtest.h>

using namespace sched;
using namespace sched::lowertest;

namespace {

void declare(const std::string &Name, std::vector<ir::OperandRole> Operands) {
  ir::IntrinsicInfo Info;
  Info.Name = Name;
  Info.Operands = std::move(Operands);
  ir::registerIntrinsic(Info);
}

/// Intrinsics shaped like wmma's: a fragment is a buffer plus an index.
void declareWmmaLikeIntrinsics() {
  using R = ir::OperandRole;
  declare("test.fill_fragment", {R::WriteBuffer, R::FragmentIndex, R::Value});
  declare("test.load_matrix", {R::WriteBuffer, R::FragmentIndex, R::ReadBuffer});
  declare("test.mma", {R::ReadWriteBuffer, R::FragmentIndex, R::ReadBuffer, R::FragmentIndex,
                       R::ReadBuffer});
  declare("test.store_matrix", {R::WriteBuffer, R::ReadBuffer, R::FragmentIndex});
}

ir::LoopNest inject(const std::string &Text, std::vector<Diag> &Diags) {
  declareWmmaLikeIntrinsics();
  return passes::injectVirtualThread(parseNest(Text), Diags);
}

size_t count(const std::string &Text, const std::string &Needle) {
  size_t N = 0;
  for (size_t At = Text.find(Needle); At != std::string::npos; At = Text.find(Needle, At + 1))
    ++N;
  return N;
}

bool hasError(const std::vector<Diag> &Diags) {
  for (const Diag &D : Diags)
    if (D.Severity == Diag::Level::Error)
      return true;
  return false;
}

// Only load_matrix mentions v (through the address it reads); mma reads the
// loaded fragment and writes acc; fill_fragment writes acc without any
// operand depending on v. Each virtual thread needs its own acc, fill and
// mma, or the second one accumulates into the first one's fragment.
const char *WmmaLikeKernel =
    "func f(A: float16*[512] global, B: float16*[256] global, C: float32*[512] global) "
    "target=gpu {\n"
    "  for (v, 0, 2) bind(vthread) {\n"
    "    allocate a_frag: float16[256] wmma.matrix_a {\n"
    "      allocate acc: float32[256] wmma.accumulator {\n"
    "        eval test.fill_fragment(acc[0], 0, 0.0f)\n"
    "        eval test.load_matrix(a_frag[0], 0, A[(v*256)])\n"
    "        eval test.mma(acc[0], 0, a_frag[0], 0, B[0])\n"
    "        eval test.store_matrix(C[(v*256)], acc[0], 0)\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

TEST(InjectVirtualThreadTest, FragmentWrittenByAnOpaqueIntrinsicIsPerVirtualThread) {
  std::vector<Diag> Diags;
  std::string Out = ir::print(inject(WmmaLikeKernel, Diags));
  EXPECT_FALSE(hasError(Diags));
  EXPECT_EQ(count(Out, "vthread"), 0u) << Out;
  // Both fragments are expanded by the virtual-thread count.
  EXPECT_NE(Out.find("allocate a_frag: float16[2, 256] wmma.matrix_a"), std::string::npos) << Out;
  EXPECT_NE(Out.find("allocate acc: float32[2, 256] wmma.accumulator"), std::string::npos) << Out;
  // Each virtual thread fills, loads, multiplies and stores its own fragment.
  EXPECT_NE(Out.find("test.fill_fragment(acc[0, 0], 0, 0.0f)"), std::string::npos) << Out;
  EXPECT_NE(Out.find("test.fill_fragment(acc[1, 0], 0, 0.0f)"), std::string::npos) << Out;
  EXPECT_NE(Out.find("test.mma(acc[0, 0], 0, a_frag[0, 0], 0, B[0])"), std::string::npos) << Out;
  EXPECT_NE(Out.find("test.mma(acc[1, 0], 0, a_frag[1, 0], 0, B[0])"), std::string::npos) << Out;
  EXPECT_NE(Out.find("test.load_matrix(a_frag[1, 0], 0, A[256])"), std::string::npos) << Out;
  EXPECT_NE(Out.find("test.store_matrix(C[256], acc[1, 0], 0)"), std::string::npos) << Out;
  EXPECT_EQ(count(Out, "test.fill_fragment("), 2u) << Out;
  EXPECT_EQ(count(Out, "test.mma("), 2u) << Out;
}

TEST(InjectVirtualThreadTest, ReadOnlyOperandDoesNotTouchItsBuffer) {
  // The fragment is only read by a dependent store, so the statement that
  // fills it is shared and the fragment is not expanded.
  std::vector<Diag> Diags;
  std::string Out = ir::print(inject(
      "func f(C: float32*[512] global) target=gpu {\n"
      "  allocate acc: float32[256] wmma.accumulator {\n"
      "    eval test.fill_fragment(acc[0], 0, 1.0f)\n"
      "    for (v, 0, 2) bind(vthread) {\n"
      "      eval test.store_matrix(C[(v*256)], acc[0], 0)\n"
      "    }\n"
      "  }\n"
      "}\n",
      Diags));
  EXPECT_FALSE(hasError(Diags));
  EXPECT_NE(Out.find("allocate acc: float32[256] wmma.accumulator"), std::string::npos) << Out;
  EXPECT_EQ(count(Out, "test.fill_fragment("), 1u) << Out;
  EXPECT_EQ(count(Out, "test.store_matrix("), 2u) << Out;
}

TEST(InjectVirtualThreadTest, UndeclaredCallIsCopiedPerVirtualThread) {
  std::vector<Diag> Diags;
  std::string Out = ir::print(inject("func f(A: float32*[4] global) target=gpu {\n"
                                     "  for (v, 0, 2) bind(vthread) {\n"
                                     "    allocate S: float32[4] local {\n"
                                     "      eval test.undeclared(S[0])\n"
                                     "    }\n"
                                     "  }\n"
                                     "}\n",
                                     Diags));
  EXPECT_FALSE(hasError(Diags));
  // Copied, and the array it may write is one per virtual thread.
  EXPECT_EQ(count(Out, "test.undeclared(S["), 2u) << Out;
  EXPECT_NE(Out.find("test.undeclared(S[1, 0])"), std::string::npos) << Out;
}

TEST(InjectVirtualThreadTest, ArrayAllocatedOutsideAndWrittenByEveryVirtualThreadIsAnError) {
  // t is allocated above the vthread loop, so it cannot be expanded; the
  // interleaved copies (t = A[0]; t = A[1]; A[0] = t; ...) would be wrong.
  std::vector<Diag> Diags;
  std::string Out = ir::print(inject("func f(A: float32*[2] global) target=gpu {\n"
                                     "  allocate t: float32[1] local {\n"
                                     "    for (v, 0, 2) bind(vthread) {\n"
                                     "      t[0] = A[v]\n"
                                     "      A[v] = (t[0] + 1.0f)\n"
                                     "    }\n"
                                     "  }\n"
                                     "}\n",
                                     Diags));
  EXPECT_TRUE(hasError(Diags)) << Out;
}

TEST(InjectVirtualThreadTest, BarrierIsNeverCopied) {
  std::vector<Diag> Diags;
  std::string Out = ir::print(inject("func f(A: float32*[64] global) target=gpu {\n"
                                     "  for (tx, 0, 32) bind(threadIdx.x) {\n"
                                     "    for (v, 0, 2) bind(vthread) {\n"
                                     "      A[((v*32) + tx)] = 1.0f\n"
                                     "      eval sched.syncthreads()\n"
                                     "    }\n"
                                     "  }\n"
                                     "}\n",
                                     Diags));
  EXPECT_FALSE(hasError(Diags));
  EXPECT_EQ(count(Out, "sched.syncthreads()"), 1u) << Out;
  EXPECT_EQ(count(Out, "= 1.0f"), 2u) << Out;
}

TEST(InjectVirtualThreadTest, BarrierUnderVirtualThreadDependentIfIsAnError) {
  std::vector<Diag> Diags;
  inject("func f(A: float32*[2] global) target=gpu {\n"
         "  for (v, 0, 2) bind(vthread) {\n"
         "    if ((v == 0)) {\n"
         "      A[v] = 1.0f\n"
         "      eval sched.syncthreads()\n"
         "    }\n"
         "  }\n"
         "}\n",
         Diags);
  EXPECT_TRUE(hasError(Diags));
}

TEST(InjectVirtualThreadTest, NonConstantExtentIsAnError) {
  std::vector<Diag> Diags;
  inject("func f(A: float32*[n] global, n: int32) target=gpu {\n"
         "  for (v, 0, n) bind(vthread) {\n"
         "    A[v] = 1.0f\n"
         "  }\n"
         "}\n",
         Diags);
  EXPECT_TRUE(hasError(Diags));
}

TEST(InjectVirtualThreadTest, LaunchGeometryDoesNotCountVirtualThreads) {
  ir::LoopNest Nest = parseNest("func f(A: float32*[256] global) target=gpu {\n"
                                "  for (bx, 0, 2) bind(blockIdx.x) {\n"
                                "    for (v, 0, 4) bind(vthread) {\n"
                                "      for (tx, 0, 32) bind(threadIdx.x) {\n"
                                "        A[(((bx*128) + (v*32)) + tx)] = 1.0f\n"
                                "      }\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  LoweredKernel K;
  std::vector<Diag> Diags;
  ASSERT_TRUE(lower(Nest, PipelineOptions(), K, Diags));
  EXPECT_EQ(ir::print(K.Geometry.Grid[0]), "2");
  EXPECT_EQ(ir::print(K.Geometry.Block[0]), "32");
  EXPECT_EQ(ir::print(K.Geometry.Block[1]), "1");
  std::string Out = ir::print(K.Kernel);
  EXPECT_EQ(count(Out, "vthread"), 0u) << Out;
  EXPECT_EQ(count(Out, "bind(threadIdx.x)"), 1u) << Out;
  EXPECT_EQ(count(Out, "= 1.0f"), 4u) << Out;
}

} // namespace
