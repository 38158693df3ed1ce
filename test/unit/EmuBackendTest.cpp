//===- EmuBackendTest.cpp - SCHED_BACKEND=emu through the launcher --------===//
//
// The emu backend as generated code reaches it: a launch descriptor whose
// CUDA source is what the emitter prints, launched by runtime::launchKernel
// with the launcher's argument array. It runs the kernel with the
// descriptor's geometry on host pointers, fails naming what went wrong when
// the kernel cannot be compiled, and checks wmma alignment from the start of
// a buffer's region (where the cuda backend's aligned copy would start), not
// from wherever the host array happens to lie. A precompiled header it cannot
// use is built again.
//
//===----------------------------------------------------------------------===//

#include "emu/EmuBackend.h"
#include "Backend.h"
#include "SimTestUtil.h"
#include "codegen/CodeGenCUDA.h"
#include "ir/LaunchDescriptor.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace sched;
using namespace sched::ir;
using namespace sched::simtest;

namespace {

/// Out[i] = A[i] * 3 + n for i < n, blocks of 8 threads.
LoweredKernel scaleShift() {
  KernelBuilder KB("sched_scale_shift_7");
  KB.K.Kernel.SourceFile = "shift.cpp";
  KB.K.Kernel.SourceLine = 7;
  Var N = KB.scalar("n");
  Buffer A = KB.buffer("A", DType::Float32, N, true, false);
  Buffer Out = KB.buffer("Out", DType::Float32, N, false, true);
  Expr Blocks = (N + i32(7)) / i32(8);
  KB.grid(Blocks);
  KB.block(i32(8));
  Var Bx = makeVar("bx"), Tx = makeVar("tx"), I = makeVar("i");
  Stmt Compute = makeIf(
      I < N, makeStore(Out, {I}, makeLoad(A, {I}) * makeFloat(3.0) + makeCast(DType::Float32, N)));
  return KB.done(bound(Bx, Blocks, "blockIdx.x",
                       bound(Tx, i32(8), "threadIdx.x", makeLet(I, Bx * i32(8) + Tx, Compute))));
}

/// The descriptor text (args: n scalar, A and Out pointers), kept alive for
/// the process as a string literal is.
const char *descriptorFor(const LoweredKernel &K, const std::string &Source) {
  LaunchDescriptor D;
  D.Kernel = K;
  D.ArgKinds = {LaunchDescriptor::ArgKind::Scalar, LaunchDescriptor::ArgKind::Pointer,
                LaunchDescriptor::ArgKind::Pointer};
  D.Payload = Source;
  static std::vector<std::string> *Keep = new std::vector<std::string>();
  Keep->push_back(serializeDescriptor(D));
  return Keep->back().c_str();
}

TEST(EmuBackend, RunsTheEmittedCudaWithTheDescriptorsGeometry) {
  LoweredKernel K = scaleShift();
  const char *Desc = descriptorFor(K, emitCUDA(K));
  int32_t N = 21;
  std::vector<float> AStore(N), OutStore(N + 3, -1.0f);
  for (int I = 0; I < N; ++I)
    AStore[I] = 0.5f * I;
  float *A = AStore.data(), *Out = OutStore.data();
  void *Args[] = {&N, &A, &Out};
  std::string Where, Error;
  ASSERT_EQ(runtime::launchKernel(Desc, Args, runtime::BackendKind::Emu, Where, Error),
            runtime::LaunchResult::RanOnBackend)
      << Error;
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(Out[I], AStore[I] * 3.0f + 21.0f) << I;
  EXPECT_EQ(Out[N], -1.0f); // 24 threads, 21 elements: the guard holds
}

/// The launcher and emu read the descriptor's plan only (ir/LaunchPlan.h):
/// a descriptor whose IR section is unreadable still runs on emu, and the
/// simulator, which reads the IR, refuses it before touching anything.
TEST(EmuBackend, RunsFromThePlanWithoutReadingTheKernelsIR) {
  LoweredKernel K = scaleShift();
  std::string Text = descriptorFor(K, emitCUDA(K));
  size_t IR = Text.find("\nir ");
  ASSERT_NE(IR, std::string::npos);
  size_t Start = Text.find('\n', IR + 1) + 1;
  size_t Func = Text.find("func ", Start);
  ASSERT_EQ(Func, Start);
  Text.replace(Func, 4, "cnuf"); // not IR any more, same length
  static std::vector<std::string> *Keep = new std::vector<std::string>();
  Keep->push_back(Text);
  const char *Desc = Keep->back().c_str();
  int32_t N = 5;
  std::vector<float> AStore(N, 1.0f), OutStore(N, -1.0f);
  float *A = AStore.data(), *Out = OutStore.data();
  void *Args[] = {&N, &A, &Out};
  std::string Where, Error;
  ASSERT_EQ(runtime::launchKernel(Desc, Args, runtime::BackendKind::Emu, Where, Error),
            runtime::LaunchResult::RanOnBackend)
      << Error;
  EXPECT_EQ(Out[4], 3.0f + 5.0f);
  EXPECT_EQ(runtime::launchKernel(Desc, Args, runtime::BackendKind::Sim, Where, Error),
            runtime::LaunchResult::FailedUntouched);
  EXPECT_NE(Error.find("invalid launch descriptor: descriptor: in ir:"), std::string::npos)
      << Error;
}

/// Compiling comes before the kernel touches the program's arrays: the
/// launcher may still run the original loop.
TEST(EmuBackend, CompileFailureIsAnUntouchedLaunchFailureNamingTheKernel) {
  LoweredKernel K = scaleShift();
  const char *Desc = descriptorFor(K, emitCUDA(K) + "\nthis is not C++;\n");
  int32_t N = 4;
  float AStore[4] = {}, OutStore[4] = {};
  float *A = AStore, *Out = OutStore;
  void *Args[] = {&N, &A, &Out};
  std::string Where, Error;
  EXPECT_EQ(runtime::launchKernel(Desc, Args, runtime::BackendKind::Emu, Where, Error),
            runtime::LaunchResult::FailedUntouched);
  EXPECT_EQ(Where, "sched_scale_shift_7 (shift.cpp:7)");
  EXPECT_NE(Error.find("cannot compile the emitted CUDA ("), std::string::npos) << Error;
  EXPECT_NE(Error.find("this is not C++"), std::string::npos) << Error;
}

TEST(EmuBackend, WmmaAlignmentCountsFromTheBuffersRegion) {
  // A tile 16 bytes into its region is misaligned even where the host
  // address happens to be 32-byte aligned, and a tile at the region's start
  // is aligned wherever the host array lies.
  const char *Src = R"(
#include <mma.h>
extern "C" __global__ void k(const float *c, int offset) {
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> f;
  nvcuda::wmma::load_matrix_sync(f, c + offset, 16, nvcuda::wmma::mem_row_major);
}
)";
  std::shared_ptr<emu::CompiledKernel> K = emu::compileKernel(Src, "k");
  ASSERT_EQ(emu::compileError(*K), "");
  alignas(32) float Store[300] = {};
  unsigned G[3] = {1, 1, 1}, B[3] = {32, 1, 1};
  emu::EmuStats Stats;
  std::string Error;
  // Region from Store + 4: the tile at Store + 8 is 16 bytes into it.
  const float *C = Store + 4;
  int Offset = 4;
  void *Args[] = {&C, &Offset};
  const char *Begin = reinterpret_cast<const char *>(Store + 4);
  EXPECT_FALSE(emu::runKernel(*K, G, B, Args, Stats, Error, {{Begin, Begin + 290 * 4}}));
  EXPECT_NE(Error.find("the tile starts 16 bytes into its buffer's region, not a multiple of 32"),
            std::string::npos)
      << Error;
  Offset = 0;
  EXPECT_TRUE(emu::runKernel(*K, G, B, Args, Stats, Error, {{Begin, Begin + 290 * 4}})) << Error;
}

TEST(EmuBackend, AnUnusablePrecompiledHeaderIsBuiltAgain) {
  // A header precompiled by another build of the compiler (here: garbage
  // in its place) must not stop every later kernel from compiling.
  char Dir[] = "/tmp/sched-emu-pch-XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  const char *Saved = std::getenv("SCHED_EMU_CACHE");
  std::string SavedValue = Saved ? Saved : "";
  setenv("SCHED_EMU_CACHE", Dir, 1);
  const char *Src = "extern \"C\" __global__ void k(int *a) { a[0] = %d; }\n";
  char First[128], Second[128];
  std::snprintf(First, sizeof(First), Src, 1);
  std::snprintf(Second, sizeof(Second), Src, 2);
  EXPECT_EQ(emu::compileError(*emu::compileKernel(First, "k")), "");
  std::string Pch;
  FILE *Ls = popen((std::string("ls ") + Dir + "/*.pch").c_str(), "r");
  ASSERT_NE(Ls, nullptr);
  char Line[512] = {};
  if (std::fgets(Line, sizeof(Line), Ls))
    Pch = std::string(Line, std::strcspn(Line, "\n"));
  pclose(Ls);
  ASSERT_FALSE(Pch.empty());
  FILE *F = std::fopen(Pch.c_str(), "w");
  ASSERT_NE(F, nullptr);
  std::fputs("not a precompiled header", F);
  std::fclose(F);
  EXPECT_EQ(emu::compileError(*emu::compileKernel(Second, "k")), "");
  if (Saved)
    setenv("SCHED_EMU_CACHE", SavedValue.c_str(), 1);
  else
    unsetenv("SCHED_EMU_CACHE");
  std::system((std::string("rm -rf ") + Dir).c_str());
}

TEST(EmuBackend, AHeaderPrecompiledFromAnotherCopyOfTheHeadersIsNotUsed) {
  // Two checkouts (or a build and an install) hold the same header text; a
  // precompiled header names the file it was made from, so one made from a
  // copy since removed must not serve the other (clang refuses it: "could
  // not find file ... referenced by AST file").
  char Dir[] = "/tmp/sched-emu-pch-XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  std::string Root = Dir, Copy = Root + "/copy";
  std::string Real = std::string(__FILE__).substr(0, std::string(__FILE__).rfind('/')) +
                     "/../../runtime/emu";
  ASSERT_EQ(std::system(("cp -r " + Real + " " + Copy).c_str()), 0);
  const char *SavedCache = std::getenv("SCHED_EMU_CACHE");
  const char *SavedInclude = std::getenv("SCHED_EMU_INCLUDE");
  std::string SavedCacheValue = SavedCache ? SavedCache : "";
  std::string SavedIncludeValue = SavedInclude ? SavedInclude : "";
  setenv("SCHED_EMU_CACHE", (Root + "/cache").c_str(), 1);
  setenv("SCHED_EMU_INCLUDE", Copy.c_str(), 1);
  const char *Src = "extern \"C\" __global__ void k(int *a) { a[0] = %d; }\n";
  char First[128], Second[128];
  std::snprintf(First, sizeof(First), Src, 3);
  std::snprintf(Second, sizeof(Second), Src, 4);
  EXPECT_EQ(emu::compileError(*emu::compileKernel(First, "k")), "");
  ASSERT_EQ(std::system(("rm -rf " + Copy).c_str()), 0);
  setenv("SCHED_EMU_INCLUDE", Real.c_str(), 1);
  EXPECT_EQ(emu::compileError(*emu::compileKernel(Second, "k")), "");
  if (SavedCache)
    setenv("SCHED_EMU_CACHE", SavedCacheValue.c_str(), 1);
  else
    unsetenv("SCHED_EMU_CACHE");
  if (SavedInclude)
    setenv("SCHED_EMU_INCLUDE", SavedIncludeValue.c_str(), 1);
  else
    unsetenv("SCHED_EMU_INCLUDE");
  std::system(("rm -rf " + Root).c_str());
}

} // namespace
