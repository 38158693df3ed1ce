//===- ThreadSyncMutationTest.cpp - Every inserted barrier is needed ------===//
//
// DESIGN 5, contract 4: the barriers InjectThreadSync inserts are exactly the
// ones the dependences need. Each kernel of the suite (textual IR, lowered by
// the real pipeline) must run under the simulator with the race detector on
// (shared and global memory) and report no race: none missing. Then each
// inserted barrier is deleted, one at a time, and the race detector must
// fire: a barrier whose deletion goes unnoticed would be redundant, and fails
// the test. Barriers the input already had (in one arm of an if, in a loop
// that may not run) stay.
//
//===----------------------------------------------------------------------===//

#include "Pipeline.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Intrinsics.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "schedule/DirectiveParser.h"
#include "schedule/Schedule.h"
#include "sim/Simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace sched;

namespace {

struct SuiteKernel {
  const char *Name;
  const char *Text;
  size_t ExpectedBarriers; // inserted by the pipeline
};

const SuiteKernel Suite[] = {
    {"reversed stage (RAW)",
     "func sched_rev(In: float32*[128] global, Out: float32*[128] global) target=gpu {\n"
     "  for (b, 0, 2) bind(blockIdx.x) {\n"
     "    allocate S: float32[64] shared {\n"
     "      for (tx, 0, 64) bind(threadIdx.x) {\n"
     "        S[tx] = In[((b*64) + tx)]\n"
     "        Out[((b*64) + tx)] = S[(63 - tx)]\n"
     "      }\n"
     "    }\n"
     "  }\n"
     "}\n",
     1},
    {"stage refilled at each ko (RAW + loop-carried WAR)",
     "func sched_ko(In: float32*[256] global, Out: float32*[64] global) target=gpu {\n"
     "  allocate S: float32[64] shared {\n"
     "    for (tx, 0, 64) bind(threadIdx.x) {\n"
     "      Out[tx] = 0.0f\n"
     "      for (ko, 0, 4) {\n"
     "        S[tx] = In[((ko*64) + tx)]\n"
     "        Out[tx] = (Out[tx] + S[(63 - tx)])\n"
     "      }\n"
     "    }\n"
     "  }\n"
     "}\n",
     2},
    {"two fills in different orders (WAW)",
     "func sched_waw(Out: float32*[64] global) target=gpu {\n"
     "  allocate S: float32[64] shared {\n"
     "    for (tx, 0, 64) bind(threadIdx.x) {\n"
     "      S[tx] = 1.0f\n"
     "      S[(63 - tx)] = float32(tx)\n"
     "      Out[tx] = S[(63 - tx)]\n"
     "    }\n"
     "  }\n"
     "}\n",
     1},
    {"fill over 64 threads feeding a compute over 32",
     "func sched_fill(A: float32*[64] global, C: float32*[32] global) target=gpu {\n"
     "  allocate S: float32[64] shared {\n"
     "    for (f, 0, 64) bind(threadIdx.x) {\n"
     "      S[f] = A[f]\n"
     "    }\n"
     "    for (c, 0, 32) bind(threadIdx.x) {\n"
     "      C[c] = (S[(c*2)]*S[((c*2) + 1)])\n"
     "    }\n"
     "  }\n"
     "}\n",
     1},
    {"2-D stage read along rows",
     "func sched_rows(In: float32*[64] global, Out: float32*[64] global) target=gpu {\n"
     "  allocate S: float32[8, 8] shared {\n"
     "    for (ty, 0, 8) bind(threadIdx.y) {\n"
     "      for (tx, 0, 8) bind(threadIdx.x) {\n"
     "        Out[((ty*8) + tx)] = 0.0f\n"
     "        S[ty, tx] = In[((ty*8) + tx)]\n"
     "        for (k, 0, 8) {\n"
     "          Out[((ty*8) + tx)] = (Out[((ty*8) + tx)] + S[ty, k])\n"
     "        }\n"
     "      }\n"
     "    }\n"
     "  }\n"
     "}\n",
     1},
    {"tiled matmul with two shared stages per ko",
     "func sched_mm(A: float32*[16, 16] global, B: float32*[16, 16] global, "
     "C: float32*[16, 16] global) target=gpu {\n"
     "  for (by, 0, 2) bind(blockIdx.y) {\n"
     "    for (bx, 0, 2) bind(blockIdx.x) {\n"
     "      allocate As: float32[8, 4] shared {\n"
     "        allocate Bs: float32[4, 8] shared {\n"
     "          for (ty, 0, 8) bind(threadIdx.y) {\n"
     "            for (tx, 0, 8) bind(threadIdx.x) {\n"
     "              C[((by*8) + ty), ((bx*8) + tx)] = 0.0f\n"
     "              for (ko, 0, 4) {\n"
     "                if ((tx < 4)) {\n"
     "                  As[ty, tx] = A[((by*8) + ty), ((ko*4) + tx)]\n"
     "                }\n"
     "                if ((ty < 4)) {\n"
     "                  Bs[ty, tx] = B[((ko*4) + ty), ((bx*8) + tx)]\n"
     "                }\n"
     "                for (ki, 0, 4) {\n"
     "                  C[((by*8) + ty), ((bx*8) + tx)] = (C[((by*8) + ty), ((bx*8) + tx)] + "
     "(As[ty, ki]*Bs[ki, tx]))\n"
     "                }\n"
     "              }\n"
     "            }\n"
     "          }\n"
     "        }\n"
     "      }\n"
     "    }\n"
     "  }\n"
     "}\n",
     2},
    {"cooperative fetch: an unbound stage distributed over 64 threads, two trips",
     "func sched_coop(A: float32*[8, 32] global, C: float32*[8, 8] global) target=gpu {\n"
     "  allocate As: float32[8, 16] shared {\n"
     "    for (ty, 0, 8) bind(threadIdx.y) {\n"
     "      for (tx, 0, 8) bind(threadIdx.x) {\n"
     "        C[ty, tx] = 0.0f\n"
     "        for (ko, 0, 2) {\n"
     "          for (As.ax0, 0, 8) {\n"
     "            for (As.ax1, 0, 16) {\n"
     "              As[As.ax0, As.ax1] = A[As.ax0, ((ko*16) + As.ax1)]\n"
     "            }\n"
     "          }\n"
     "          for (ki, 0, 16) {\n"
     "            C[ty, tx] = (C[ty, tx] + As[tx, ki])\n"
     "          }\n"
     "        }\n"
     "      }\n"
     "    }\n"
     "  }\n"
     "}\n",
     2},
    {"cooperative fetch: a stage loop bound to the compute's threadIdx.x",
     "func sched_same_tag(A: float32*[256] global, C: float32*[2, 64] global) target=gpu {\n"
     "  allocate As: float32[128] shared {\n"
     "    for (ty, 0, 2) bind(threadIdx.y) {\n"
     "      for (tx, 0, 64) bind(threadIdx.x) {\n"
     "        C[ty, tx] = 0.0f\n"
     "        for (ko, 0, 2) {\n"
     "          for (o, 0, 4) {\n"
     "            for (i, 0, 32) bind(threadIdx.x) {\n"
     "              As[((o*32) + i)] = A[(((ko*128) + (o*32)) + i)]\n"
     "            }\n"
     "          }\n"
     "          C[ty, tx] = (C[ty, tx] + As[(127 - tx)])\n"
     "        }\n"
     "      }\n"
     "    }\n"
     "  }\n"
     "}\n",
     2},
    {"a thread-invariant shared store done by thread 0",
     "func sched_zero(Out: float32*[2, 32] global) target=gpu {\n"
     "  allocate S: float32[1] shared {\n"
     "    for (ty, 0, 2) bind(threadIdx.y) {\n"
     "      for (tx, 0, 32) bind(threadIdx.x) {\n"
     "        S[0] = 3.0f\n"
     "        Out[ty, tx] = S[0]\n"
     "      }\n"
     "    }\n"
     "  }\n"
     "}\n",
     1},
    {"a fill whose trip count depends on the thread: the barrier after it",
     "func sched_divloop(Out: float32*[64] global) target=gpu {\n"
     "  allocate S: float32[256] shared {\n"
     "    for (tx, 0, 64) bind(threadIdx.x) {\n"
     "      for (k, 0, ((tx % 4) + 1)) {\n"
     "        S[((tx*4) + k)] = float32(k)\n"
     "      }\n"
     "      Out[tx] = S[((63 - tx)*4)]\n"
     "    }\n"
     "  }\n"
     "}\n",
     1},
    {"cooperative fetch of a stage computed outside the thread loops",
     "func sched_blocklevel(A: float32*[8, 16] global, C: float32*[8, 8] global) target=gpu {\n"
     "  allocate As: float32[8, 4] shared {\n"
     "    for (ko, 0, 4) {\n"
     "      for (As.ax0, 0, 8) {\n"
     "        for (As.ax1, 0, 4) {\n"
     "          As[As.ax0, As.ax1] = A[As.ax0, ((ko*4) + As.ax1)]\n"
     "        }\n"
     "      }\n"
     "      for (ty, 0, 8) bind(threadIdx.y) {\n"
     "        for (tx, 0, 8) bind(threadIdx.x) {\n"
     "          C[ty, tx] = (C[ty, tx] + As[ty, (tx % 4)])\n"
     "        }\n"
     "      }\n"
     "    }\n"
     "  }\n"
     "}\n",
     2},
    {"a barrier in an if without else (n = 0: it does not run)",
     "func sched_one_arm(In: float32*[64] global, Out: float32*[64] global, n: int32) "
     "target=gpu {\n"
     "  allocate S: float32[64] shared {\n"
     "    for (tx, 0, 64) bind(threadIdx.x) {\n"
     "      S[tx] = In[tx]\n"
     "      if ((n > 0)) {\n"
     "        eval sched.syncthreads()\n"
     "      }\n"
     "      Out[tx] = S[(63 - tx)]\n"
     "    }\n"
     "  }\n"
     "}\n",
     1},
    {"a barrier in a loop that may run zero times (n = 0)",
     "func sched_maybe_empty(In: float32*[64] global, Out: float32*[64] global, n: int32) "
     "target=gpu {\n"
     "  allocate S: float32[64] shared {\n"
     "    for (tx, 0, 64) bind(threadIdx.x) {\n"
     "      S[tx] = In[tx]\n"
     "      for (k, 0, n) {\n"
     "        eval sched.syncthreads()\n"
     "      }\n"
     "      Out[tx] = S[(63 - tx)]\n"
     "    }\n"
     "  }\n"
     "}\n",
     1},
    {"a stage inside threadIdx.x with a threadIdx.y loop below it",
     "func sched_x_then_y(A: float32*[4, 8] global, C: float32*[4, 8] global) target=gpu {\n"
     "  allocate As: float32[4, 8] shared {\n"
     "    for (tx, 0, 4) bind(threadIdx.x) {\n"
     "      for (As.ax0, 0, 4) {\n"
     "        for (As.ax1, 0, 8) {\n"
     "          As[As.ax0, As.ax1] = A[As.ax0, As.ax1]\n"
     "        }\n"
     "      }\n"
     "      for (ty, 0, 8) bind(threadIdx.y) {\n"
     "        C[tx, ty] = As[(3 - tx), (7 - ty)]\n"
     "      }\n"
     "    }\n"
     "  }\n"
     "}\n",
     1},
    {"a stage at an unbound loop beside a thread loop, read by an unbound loop",
     "func sched_sibling(A: float32*[32] global, B: float32*[128] global, "
     "C: float32*[256] global, D: float32*[256] global) target=gpu {\n"
     "  for (i, 0, 8) bind(blockIdx.x) {\n"
     "    for (j, 0, 32) bind(threadIdx.x) {\n"
     "      D[((i*32) + j)] = A[(i*4)]\n"
     "    }\n"
     "    for (k, 0, 4) {\n"
     "      allocate Bs: float32[32] shared {\n"
     "        for (Bs.ax0, 0, 32) {\n"
     "          Bs[Bs.ax0] = B[((k*32) + Bs.ax0)]\n"
     "        }\n"
     "        for (j2, 0, 32) {\n"
     "          C[((i*32) + j2)] = (C[((i*32) + j2)] + (A[((i*4) + k)]*Bs[(31 - j2)]))\n"
     "        }\n"
     "      }\n"
     "    }\n"
     "  }\n"
     "}\n",
     2},
    {"a stage under a tile guard that depends on the thread",
     "func sched_tile_guard(A: float32*[20] global, x: float32*[20] global, "
     "y: float32*[20] global) target=gpu {\n"
     "  for (io, 0, 3) bind(blockIdx.x) {\n"
     "    for (ii, 0, 8) bind(threadIdx.x) {\n"
     "      if ((((io*8) + ii) < 20)) {\n"
     "        y[((io*8) + ii)] = 0.0f\n"
     "        for (ko, 0, 3) {\n"
     "          allocate xs: float32[8] shared {\n"
     "            for (xs.ax0, 0, 8) {\n"
     "              if ((((ko*8) + xs.ax0) < 20)) {\n"
     "                xs[xs.ax0] = x[((ko*8) + xs.ax0)]\n"
     "              }\n"
     "            }\n"
     "            for (ki, 0, 8) {\n"
     "              if ((((ko*8) + ki) < 20)) {\n"
     "                y[((io*8) + ii)] = (y[((io*8) + ii)] + (A[((ko*8) + ki)]*xs[ki]))\n"
     "              }\n"
     "            }\n"
     "          }\n"
     "        }\n"
     "      }\n"
     "    }\n"
     "  }\n"
     "}\n",
     2},
    {"a global array filled by one thread distribution and read by another",
     "func sched_global_handoff(A: float32*[64] global, C: float32*[64] global, "
     "D: float32*[64] global) target=gpu {\n"
     "  for (k, 0, 64) bind(threadIdx.x) {\n"
     "    C[k] = (A[k]*2.0f)\n"
     "  }\n"
     "  for (lo, 0, 4) bind(threadIdx.x) {\n"
     "    for (li, 0, 16) {\n"
     "      D[((lo*16) + li)] = C[(63 - ((lo*16) + li))]\n"
     "    }\n"
     "  }\n"
     "}\n",
     1},
    {"a global element beside the thread loop (thread 0) reads what all threads wrote",
     "func sched_all_then_zero(C: float32*[8] global, D: float32*[4] global) target=gpu {\n"
     "  for (i, 0, 4) bind(blockIdx.x) {\n"
     "    for (t, 0, 2) bind(threadIdx.x) {\n"
     "      C[((i*2) + t)] = float32(t)\n"
     "    }\n"
     "    D[i] = (C[(i*2)] + C[((i*2) + 1)])\n"
     "  }\n"
     "}\n",
     1},
};

void PrintTo(const SuiteKernel &K, std::ostream *OS) { *OS << K.Name; }

/// The barriers of a kernel, in program order.
class BarrierCollector : public ir::IRVisitor {
public:
  std::vector<const ir::EvaluateNode *> Barriers;

protected:
  void visitEvaluate(const ir::EvaluateNode *N) override {
    const auto *C = ir::as<ir::CallNode>(N->Value);
    const ir::IntrinsicInfo *Info = C ? ir::lookupIntrinsic(C->Name) : nullptr;
    if (Info && Info->IsBarrier)
      Barriers.push_back(N);
  }
};

std::vector<const ir::EvaluateNode *> barriersOf(const ir::Stmt &S) {
  BarrierCollector C;
  C.visit(S);
  return C.Barriers;
}

/// Deletes one barrier (by identity) from the sequence holding it.
class DeleteBarrier : public ir::IRMutator {
public:
  explicit DeleteBarrier(const ir::EvaluateNode *Victim) : Victim(Victim) {}

protected:
  ir::Stmt mutateSeq(const ir::Stmt &S, const ir::SeqNode *N) override {
    std::vector<ir::Stmt> Kept;
    for (const ir::Stmt &Child : N->Stmts) {
      if (Child.get() == Victim)
        continue;
      Kept.push_back(mutate(Child));
    }
    return ir::makeSeq(Kept);
  }

private:
  const ir::EvaluateNode *Victim;
};

int64_t constantElements(const ir::Buffer &B) {
  int64_t N = 1;
  for (const ir::Expr &E : B->Shape) {
    int64_t D = 0;
    if (!ir::getConstInt(E, D))
      return -1;
    N *= D;
  }
  return N;
}

/// Runs K under the simulator on deterministic inputs (scalar parameters
/// 0) with the race detector on; returns the simulator's error (empty when
/// it ran clean).
std::string runWithRaceDetector(const LoweredKernel &K) {
  std::vector<std::vector<float>> Data;
  std::vector<int32_t> Scalars(K.Kernel.Params.size(), 0);
  std::vector<void *> Args;
  for (const ir::Param &P : K.Kernel.Params) {
    if (P.ParamKind == ir::Param::Kind::Scalar) {
      if (P.Scalar->Type != ir::DType::Int32)
        return "suite kernels take int32 scalars only";
      Data.emplace_back();
      continue;
    }
    int64_t N = constantElements(P.Buf);
    if (N < 0)
      return "suite kernels take constant-shaped float buffers only";
    Data.emplace_back(N);
    for (int64_t I = 0; I < N; ++I)
      Data.back()[I] = std::sin(0.25f * static_cast<float>(I + Data.size()));
  }
  for (size_t P = 0; P < Data.size(); ++P)
    Args.push_back(K.Kernel.Params[P].ParamKind == ir::Param::Kind::Scalar
                       ? static_cast<void *>(&Scalars[P])
                       : static_cast<void *>(Data[P].data()));
  sim::SimOptions Opts;
  Opts.DetectRaces = true;
  std::string Error;
  if (!sim::simulate(K, Args, Opts, Error) && Error.empty())
    Error = "simulation failed without a message";
  // Shared memory starts poisoned (NaN): a value that never reached it (an
  // element the distributed fill missed) shows up here.
  for (size_t P = 0; P < Data.size() && Error.empty(); ++P)
    for (float V : Data[P])
      if (!std::isfinite(V)) {
        Error = "non-finite result in '" + K.Kernel.Params[P].name() + "'";
        break;
      }
  return Error;
}

class ThreadSyncMutation : public ::testing::TestWithParam<SuiteKernel> {};

TEST_P(ThreadSyncMutation, EveryInsertedBarrierIsNeededAndTheyAreEnough) {
  const SuiteKernel &SK = GetParam();
  ir::LoopNest Nest;
  std::string Error;
  ASSERT_TRUE(ir::parseLoopNest(SK.Text, Nest, Error)) << Error;
  std::vector<const ir::EvaluateNode *> Written = barriersOf(Nest.Body);
  LoweredKernel K;
  std::vector<Diag> Diags;
  ASSERT_TRUE(lower(Nest, PipelineOptions(), K, Diags))
      << (Diags.empty() ? std::string() : Diags.front().Message);
  // Distinct barriers: the copies PartitionLoops makes for full blocks and
  // full k tiles share the barrier statements of the code they copy.
  std::vector<const ir::EvaluateNode *> Inserted;
  for (const ir::EvaluateNode *B : barriersOf(K.Kernel.Body))
    if (std::find(Written.begin(), Written.end(), B) == Written.end() &&
        std::find(Inserted.begin(), Inserted.end(), B) == Inserted.end())
      Inserted.push_back(B);
  EXPECT_EQ(Inserted.size(), SK.ExpectedBarriers) << ir::print(K.Kernel);
  ASSERT_GT(Inserted.size(), 0u) << "a suite kernel must need barriers";

  // None missing.
  std::string Clean = runWithRaceDetector(K);
  EXPECT_TRUE(Clean.empty()) << Clean << "\n" << ir::print(K.Kernel);

  // None redundant: deleting any one must let the detector see a race.
  for (size_t I = 0; I < Inserted.size(); ++I) {
    LoweredKernel Mutant = K;
    Mutant.Kernel.Body = DeleteBarrier(Inserted[I]).mutate(K.Kernel.Body);
    std::vector<const ir::EvaluateNode *> All = barriersOf(K.Kernel.Body);
    size_t Places = std::count(All.begin(), All.end(), Inserted[I]); // one per copy
    ASSERT_EQ(barriersOf(Mutant.Kernel.Body).size(), All.size() - Places);
    std::string Race = runWithRaceDetector(Mutant);
    EXPECT_NE(Race.find("race on"), std::string::npos) << "deleting inserted barrier #" << I
                         << " went unnoticed (redundant barrier): " << Race << "\n"
                         << ir::print(Mutant.Kernel);
  }
}

INSTANTIATE_TEST_SUITE_P(Suite, ThreadSyncMutation, ::testing::ValuesIn(Suite),
                         [](const ::testing::TestParamInfo<SuiteKernel> &Info) {
                           return "Kernel" + std::to_string(Info.index);
                         });

} // namespace

namespace {

// The tiled tensor-core GEMM of examples/wmma_gemm.cpp (smaller): shared
// stages filled by all threads, then read by the warps' fragment loads. The
// barriers thread sync inserts between them are each needed: deleting one
// lets a stage's refill race a warp's wmma.load of it.
const char *const WmmaGemm =
    "func sched_wmma(A: float16*[128, 64] global, B: float16*[64, 64] global, "
    "C: float32*[128, 64] global) target=gpu {\n"
    "  for (i, 0, 128) {\n"
    "    for (j, 0, 64) {\n"
    "      allocate acc: float32[1] local {\n"
    "        acc[0] = 0.0f\n"
    "        for (k, 0, 64) reduce {\n"
    "          acc[0] = (acc[0] + (float32(A[i, k])*float32(B[k, j])))\n"
    "        }\n"
    "        C[i, j] = acc[0]\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

const char *const WmmaGemmSchedule =
    "cache_write(C, wmma.accumulator, Cf) tile(i, j, io, jo, ii, ji, 64, 64) "
    "split(k, ko, ki, 32) split(ki, kk, kt, 16) split(ii, wy, it, 32) split(ji, wz, jt, 32) "
    "split(it, ti, i16, 16) split(jt, tj, j16, 16) "
    "reorder(io, jo, wy, wz, ko, kk, ti, tj, i16, j16, kt) "
    "bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(wy, threadIdx.y) bind(wz, threadIdx.z) "
    "cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko) "
    "cache_read(As, wmma.matrix_a, Af) compute_at(Af, kk) "
    "cache_read(Bs, wmma.matrix_b, Bf) compute_at(Bf, kk) compute_at(Cf, wz) "
    "tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, wmma.load) "
    "tensorize(i16, wmma.mma) tensorize(Cf.ax0, wmma.store)";

std::string runWmmaGemm(const LoweredKernel &K) {
  std::vector<uint16_t> A(128 * 64), B(64 * 64);
  std::vector<float> C(128 * 64, 0.f);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = sim::floatToHalf(float(int(I * 7 + 3) % 9 - 4));
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = sim::floatToHalf(float(int(I * 5 + 1) % 7 - 3));
  std::vector<void *> Args = {A.data(), B.data(), C.data()};
  sim::SimOptions Opts;
  Opts.DetectRaces = true;
  std::string Error;
  if (!sim::simulate(K, Args, Opts, Error) && Error.empty())
    Error = "simulation failed without a message";
  return Error;
}

TEST(ThreadSyncMutation, TensorCoreGemmBarriersAroundSharedStagesAreEachNeeded) {
  ir::LoopNest Nest;
  std::string Error;
  ASSERT_TRUE(ir::parseLoopNest(WmmaGemm, Nest, Error)) << Error;
  std::vector<Directive> Dirs;
  std::vector<Diag> Diags;
  ASSERT_TRUE(parseDirectiveText(WmmaGemmSchedule, Dirs, Diags));
  ASSERT_TRUE(applySchedule(Nest, Dirs, Diags))
      << (Diags.empty() ? std::string() : Diags.front().Message);
  LoweredKernel K;
  ASSERT_TRUE(lower(Nest, PipelineOptions(), K, Diags))
      << (Diags.empty() ? std::string() : Diags.front().Message);
  std::vector<const ir::EvaluateNode *> Barriers = barriersOf(K.Kernel.Body);
  ASSERT_EQ(Barriers.size(), 2u) << ir::print(K.Kernel);
  std::string Clean = runWmmaGemm(K);
  EXPECT_TRUE(Clean.empty()) << Clean << "\n" << ir::print(K.Kernel);
  for (size_t I = 0; I < Barriers.size(); ++I) {
    LoweredKernel Mutant = K;
    Mutant.Kernel.Body = DeleteBarrier(Barriers[I]).mutate(K.Kernel.Body);
    std::string Race = runWmmaGemm(Mutant);
    EXPECT_NE(Race.find("race on"), std::string::npos)
        << "deleting barrier #" << I << " went unnoticed: " << Race << "\n"
        << ir::print(Mutant.Kernel);
  }
}

} // namespace
