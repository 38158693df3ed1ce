//===- SimPipelineTest.cpp - Simulating what the real pipeline produces ---===//
//
// The simulator's input in production is lower()'s output after a trip
// through the launch descriptor's text. These tests take that path - textual
// IR, schedule, lower, serialize, parse, simulate - and compare with the
// nest's meaning computed on the CPU.
//
//===----------------------------------------------------------------------===//

#include "Pipeline.h"
#include "ir/LaunchDescriptor.h"
#include "ir/Parser.h"
#include "schedule/DirectiveParser.h"
#include "sim/Simulator.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace sched;

namespace {

const char *MatmulNest =
    "func sched_mm_5(A: float32*[M, K] global noalias, B: float32*[K, N] global noalias, "
    "C: float32*[M, N] global noalias, M: int32, N: int32, K: int32) target=gpu {\n"
    "  for (i, 0, M) {\n"
    "    for (j, 0, N) {\n"
    "      allocate acc: float32[1] local {\n"
    "        acc[0] = 0.0f\n"
    "        for (k, 0, K) reduce {\n"
    "          acc[0] = (acc[0] + (A[i, k]*B[k, j]))\n"
    "        }\n"
    "        C[i, j] = acc[0]\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

/// Parses Nest, applies Schedule, lowers, and returns the kernel as the
/// runtime sees it (after the descriptor's text round trip).
bool lowerThroughDescriptor(const std::string &Nest, const std::string &Schedule,
                            LoweredKernel &Out, std::string &Error) {
  ir::LoopNest N;
  if (!ir::parseLoopNest(Nest, N, Error))
    return false;
  std::vector<Directive> Dirs;
  std::vector<Diag> Diags;
  if (!parseDirectiveText(Schedule, Dirs, Diags) || !applySchedule(N, Dirs, Diags) ||
      !lower(N, PipelineOptions(), Out, Diags)) {
    for (const Diag &D : Diags)
      Error += D.Message + "\n";
    return false;
  }
  LaunchDescriptor D;
  D.Kernel = Out;
  D.ArgKinds.assign(Out.Kernel.Params.size(), LaunchDescriptor::ArgKind::Pointer);
  LaunchDescriptor Parsed;
  if (!parseDescriptor(serializeDescriptor(D), Parsed, Error))
    return false;
  Out = Parsed.Kernel;
  return true;
}

void runMatmul(const std::string &Schedule, int32_t M, int32_t N, int32_t K) {
  LoweredKernel LK;
  std::string Error;
  ASSERT_TRUE(lowerThroughDescriptor(MatmulNest, Schedule, LK, Error)) << Error;
  std::vector<float> A(M * K), B(K * N), C(M * N, NAN), Ref(M * N);
  for (int I = 0; I < M * K; ++I)
    A[I] = std::sin(0.37f * I);
  for (int I = 0; I < K * N; ++I)
    B[I] = std::cos(0.11f * I);
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      float Acc = 0.0f;
      for (int L = 0; L < K; ++L)
        Acc += A[I * K + L] * B[L * N + J];
      Ref[I * N + J] = Acc;
    }
  ASSERT_TRUE(sim::simulate(LK, {A.data(), B.data(), C.data(), &M, &N, &K}, sim::SimOptions(),
                            Error))
      << Error;
  for (int I = 0; I < M * N; ++I)
    ASSERT_EQ(C[I], Ref[I]) << "at " << I;
}

TEST(SimPipelineTest, TiledMatmulWithNonDividingSplitsMatchesReference) {
  runMatmul("target(gpu) tile(i, j, io, jo, ii, ji, 8, 8) "
            "bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)",
            21, 19, 13);
}

TEST(SimPipelineTest, RegisterTiledMatmulWithLocalAccumulatorArrayMatchesReference) {
  // The reduction loop moves above ii2/ji2: acc becomes a per-thread array.
  runMatmul("target(gpu) tile(i, j, io, jo, ii, ji, 16, 16) split(k, ko, ki, 4) "
            "split(ii, ty, ii2, 2) split(ji, tx, ji2, 2) "
            "reorder(io, jo, ty, tx, ko, ki, ii2, ji2) "
            "bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ty, threadIdx.y) bind(tx, threadIdx.x)",
            37, 29, 18);
}

} // namespace
