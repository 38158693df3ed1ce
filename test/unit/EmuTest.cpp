//===- EmuTest.cpp - The CUDA emulation the emu backend runs kernels on ---===//
//
// Hand-written CUDA kernels compiled by the emu backend (emu/EmuBackend.h:
// clang++-19 against runtime/emu/sched_cuda_emu.h) and run on its fiber
// scheduler: barriers are real barriers, divergence is reported, shared
// memory and locals are poisoned per block, shuffles follow the CUDA guide,
// wmma and the PTX wrappers of the mma.sync path follow the PTX ISA's lane
// layouts (checked on elements the ISA's figures name), and every collective
// insists on uniform arguments.
//
//===----------------------------------------------------------------------===//

#include "emu/EmuBackend.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace sched;

namespace {

struct EmuRun {
  bool Ok = false;
  std::string Error;
  emu::EmuStats Stats;
};

/// Compiles Source (kernel `k`) and runs it on Grid x Block with Args.
EmuRun runEmu(const std::string &Source, unsigned Grid, unsigned Block, std::vector<void *> Args) {
  EmuRun R;
  std::shared_ptr<emu::CompiledKernel> K = emu::compileKernel(Source, "k");
  if (!emu::compileError(*K).empty()) {
    R.Error = emu::compileError(*K);
    ADD_FAILURE() << "compile: " << R.Error;
    return R;
  }
  unsigned G[3] = {Grid, 1, 1}, B[3] = {Block, 1, 1};
  R.Ok = emu::runKernel(*K, G, B, Args.data(), R.Stats, R.Error);
  return R;
}

bool contains(const std::string &S, const std::string &Part) {
  return S.find(Part) != std::string::npos;
}

TEST(Emu, BarrierIsARealBarrier) {
  // Each thread reads what its neighbour wrote before the barrier: without
  // a real barrier thread 0 would read the poison of s[1].
  const char *Src = R"(
extern "C" __global__ void k(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = 3 * threadIdx.x + 100 * blockIdx.x;
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
)";
  std::vector<int> Out(128, 0);
  int *P = Out.data();
  EmuRun R = runEmu(Src, 2, 64, {&P});
  ASSERT_TRUE(R.Ok) << R.Error;
  for (int B = 0; B < 2; ++B)
    for (int T = 0; T < 64; ++T)
      EXPECT_EQ(Out[B * 64 + T], 3 * ((T + 1) % 64) + 100 * B) << B << " " << T;
  EXPECT_EQ(R.Stats.Blocks, 2u);
  EXPECT_EQ(R.Stats.Threads, 128u);
  EXPECT_EQ(R.Stats.Barriers, 2u);
}

TEST(Emu, ThreadsAtDifferentBarriersAreAnError) {
  const char *Src = R"(
extern "C" __global__ void k(int *out) {
  if (threadIdx.x < 16)
    __syncthreads();
  else
    __syncthreads();
  out[threadIdx.x] = 1;
}
)";
  std::vector<int> Out(32);
  int *P = Out.data();
  EmuRun R = runEmu(Src, 1, 32, {&P});
  EXPECT_FALSE(R.Ok);
  EXPECT_TRUE(contains(R.Error, "threads wait at different barriers: thread (0,0,0) at line 4, "
                                "thread (16,0,0) at line 6"))
      << R.Error;
}

TEST(Emu, ThreadFinishingWhileOthersWaitAtABarrierIsAnError) {
  const char *Src = R"(
extern "C" __global__ void k(int *out) {
  if (threadIdx.x >= 8) {
    __syncthreads();
    out[threadIdx.x] = 1;
  }
}
)";
  std::vector<int> Out(32);
  int *P = Out.data();
  EmuRun R = runEmu(Src, 1, 32, {&P});
  EXPECT_FALSE(R.Ok);
  EXPECT_TRUE(contains(R.Error, "thread (0,0,0) finished while thread (8,0,0) waits at "
                                "__syncthreads (line 4)"))
      << R.Error;
}

TEST(Emu, SharedMemoryIsPoisonedBeforeEachBlock) {
  // Only block 0 writes s[0]; block 1 must read poison, not block 0's value.
  const char *Src = R"(
extern "C" __global__ void k(unsigned *out) {
  __shared__ unsigned s[4];
  if (blockIdx.x == 0)
    s[0] = 42u;
  out[blockIdx.x] = s[0];
}
)";
  std::vector<unsigned> Out(2, 0);
  unsigned *P = Out.data();
  EmuRun R = runEmu(Src, 2, 1, {&P});
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(Out[0], 42u);
  EXPECT_EQ(Out[1], 0xffffffffu);
}

TEST(Emu, LocalsStartPoisoned) {
  // Locals nothing wrote read as 0xFF bytes (volatile keeps the reads), at
  // both ends of a frame larger than the fiber's first one.
  const char *Src = R"(
extern "C" __global__ void k(int *out) {
  volatile int x[64];
  if (blockIdx.x == 0)
    for (int i = 0; i < 64; ++i)
      x[i] = 7;
  out[blockIdx.x] = x[0];
  out[2 + blockIdx.x] = x[63];
}
)";
  std::vector<int> Out(4, 0);
  int *P = Out.data();
  EmuRun R = runEmu(Src, 2, 1, {&P});
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(Out[0], 7);
  EXPECT_EQ(Out[2], 7);
  EXPECT_EQ(Out[1], -1);
  EXPECT_EQ(Out[3], -1);
}

TEST(Emu, ShufflesFollowTheCudaGuide) {
  const char *Src = R"(
extern "C" __global__ void k(int *out) {
  int v = 100 + threadIdx.x;
  out[0 * 32 + threadIdx.x] = __shfl_sync(0xffffffffu, v, 31 - threadIdx.x);
  out[1 * 32 + threadIdx.x] = __shfl_up_sync(0xffffffffu, v, 3, 8);
  out[2 * 32 + threadIdx.x] = __shfl_down_sync(0xffffffffu, v, 5, 8);
  out[3 * 32 + threadIdx.x] = __shfl_xor_sync(0xffffffffu, v, 6, 4);
  out[4 * 32 + threadIdx.x] = (int)__shfl_sync(0xffffffffu, (float)v * 0.5f, 2, 16);
}
)";
  std::vector<int> Out(5 * 32);
  int *P = Out.data();
  EmuRun R = runEmu(Src, 1, 32, {&P});
  ASSERT_TRUE(R.Ok) << R.Error;
  for (int L = 0; L < 32; ++L) {
    EXPECT_EQ(Out[L], 100 + 31 - L) << L;
    EXPECT_EQ(Out[32 + L], 100 + (L % 8 < 3 ? L : L - 3)) << L;
    EXPECT_EQ(Out[64 + L], 100 + (L % 8 + 5 < 8 ? L + 5 : L)) << L;
    // xor 6 within groups of 4: lane ^ 6 lies in a later group for lanes
    // whose bit 2 is clear (own value), an earlier one otherwise.
    int X = L ^ 6;
    EXPECT_EQ(Out[96 + L], 100 + (X >= (L & ~3) + 4 ? L : X)) << L;
    EXPECT_EQ(Out[128 + L], (100 + (L & ~15) + 2) / 2) << L;
  }
}

TEST(Emu, ShuffleFromALaneOutsideTheMaskIsAnError) {
  const char *Src = R"(
extern "C" __global__ void k(int *out) {
  out[threadIdx.x] = __shfl_sync(0x0000ffffu, (int)threadIdx.x, 20);
}
)";
  std::vector<int> Out(16);
  int *P = Out.data();
  EmuRun R = runEmu(Src, 1, 16, {&P});
  EXPECT_FALSE(R.Ok);
  EXPECT_TRUE(contains(R.Error, "__shfl_sync: lane 0 reads lane 20, which is not in the mask "
                                "0x0000ffff"))
      << R.Error;
}

TEST(Emu, CollectiveWithNonUniformArgumentsIsAnError) {
  const char *Src = R"(
extern "C" __global__ void k(int *out) {
  out[threadIdx.x] = __shfl_sync(0xffffffffu, 1, 0, threadIdx.x < 16 ? 16 : 32);
}
)";
  std::vector<int> Out(32);
  int *P = Out.data();
  EmuRun R = runEmu(Src, 1, 32, {&P});
  EXPECT_FALSE(R.Ok);
  EXPECT_TRUE(contains(R.Error, "lanes 0 and 16 of warp 0 give __shfl_sync (line 3) different "
                                "width: 16 and 32"))
      << R.Error;
}

TEST(Emu, LanesAtDifferentCollectivesAreAnError) {
  const char *Src = R"(
extern "C" __global__ void k(int *out) {
  if (threadIdx.x % 2)
    __syncwarp();
  out[threadIdx.x] = 1;
}
)";
  std::vector<int> Out(32);
  int *P = Out.data();
  EmuRun R = runEmu(Src, 1, 32, {&P});
  EXPECT_FALSE(R.Ok);
  EXPECT_TRUE(contains(R.Error, "lane 1 of warp 0 waits at __syncwarp (line 4), but lane 0 "
                                "(thread (0,0,0)) has finished"))
      << R.Error;
}

/// A 16x16x16 wmma product, one warp: A row-major, B column-major (ld 16).
const char *WmmaSrc = R"(
#include <mma.h>
extern "C" __global__ void k(const half *a, const half *b, float *c, int bad) {
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> fa;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half, nvcuda::wmma::col_major> fb;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> fc;
  nvcuda::wmma::fill_fragment(fc, 0.5f);
  nvcuda::wmma::load_matrix_sync(fa, a + (bad && threadIdx.x == 3 ? 16 : 0), 16);
  nvcuda::wmma::load_matrix_sync(fb, b, 16);
  nvcuda::wmma::mma_sync(fc, fa, fb, fc);
  nvcuda::wmma::store_matrix_sync(c, fc, 16, nvcuda::wmma::mem_row_major);
}
)";

TEST(Emu, WmmaComputesTheProductInAscendingK) {
  alignas(32) _Float16 A[256], B[256];
  alignas(32) float C[256];
  for (int I = 0; I < 256; ++I) {
    A[I] = (_Float16)((I * 37 % 101) / 64.0f - 0.7f);
    B[I] = (_Float16)((I * 53 % 97) / 32.0f - 1.3f);
  }
  const _Float16 *PA = A, *PB = B;
  float *PC = C;
  int Bad = 0;
  EmuRun R = runEmu(WmmaSrc, 1, 32, {&PA, &PB, &PC, &Bad});
  ASSERT_TRUE(R.Ok) << R.Error;
  for (int I = 0; I < 16; ++I)
    for (int J = 0; J < 16; ++J) {
      float Acc = 0.5f;
      for (int K = 0; K < 16; ++K)
        Acc = Acc + (float)A[I * 16 + K] * (float)B[J * 16 + K]; // B is column-major
      EXPECT_EQ(C[I * 16 + J], Acc) << I << " " << J;
    }
  EXPECT_EQ(R.Stats.Collectives, 5u);
}

TEST(Emu, WmmaWithAPointerThatDiffersBetweenLanesIsAnError) {
  alignas(32) _Float16 A[512] = {}, B[256] = {};
  alignas(32) float C[256];
  const _Float16 *PA = A, *PB = B;
  float *PC = C;
  int Bad = 1;
  EmuRun R = runEmu(WmmaSrc, 1, 32, {&PA, &PB, &PC, &Bad});
  EXPECT_FALSE(R.Ok);
  // Lane 31 ran the fill for the warp and went on first.
  EXPECT_TRUE(contains(R.Error, "lanes 31 and 3 of warp 0 give nvcuda::wmma::load_matrix_sync "
                                "(line 8) different pointer"))
      << R.Error;
}

TEST(Emu, WmmaInAPartialWarpIsAnError) {
  alignas(32) _Float16 A[256] = {}, B[256] = {};
  alignas(32) float C[256];
  const _Float16 *PA = A, *PB = B;
  float *PC = C;
  int Bad = 0;
  EmuRun R = runEmu(WmmaSrc, 1, 16, {&PA, &PB, &PC, &Bad});
  EXPECT_FALSE(R.Ok);
  EXPECT_TRUE(contains(R.Error, "nvcuda::wmma::fill_fragment (line 7) with mask 0xffffffff in "
                                "warp 0, which has 16 threads"))
      << R.Error;
}

/// One warp: ldmatrix.x4 of a 16x16 half matrix in shared memory (lane L
/// gives row L % 16, column 8 * (L / 16)), its .trans variant, ldmatrix.x2
/// of its first 8 rows (lane L < 16 gives row L % 8, column 8 * (L / 8)),
/// and one mma.sync m16n8k16 of those; every register is written out.
const char *PtxSrc = R"(
#include <cuda_fp16.h>
extern "C" __global__ void k(const half *m, unsigned *regs, float *d) {
  __shared__ __align__(16) half s[256];
  for (int i = threadIdx.x; i < 256; i += 32)
    s[i] = m[i];
  __syncthreads();
  unsigned L = sched_lane();
  unsigned A = (unsigned)__cvta_generic_to_shared(&s[(L % 16) * 16 + 8 * (L / 16)]);
  unsigned AB = (unsigned)__cvta_generic_to_shared(&s[(L % 8) * 16 + 8 * (L / 8 % 2)]);
  unsigned R[4], T[4], B[2];
  sched_ptx_ldmatrix_x4(R, A);
  sched_ptx_ldmatrix_x4_trans(T, A);
  sched_ptx_ldmatrix_x2(B, AB);
  for (int j = 0; j < 4; ++j) {
    regs[L * 8 + j] = R[j];
    regs[L * 8 + 4 + j] = T[j];
  }
  float C[4] = {0.f, 0.f, 0.f, 0.f}, D[4];
  sched_ptx_mma_m16n8k16(D, R, B, C);
  for (int i = 0; i < 4; ++i)
    d[L * 4 + i] = D[i];
}
)";

TEST(Emu, LdmatrixAndMmaSyncFollowThePtxLaneLayouts) {
  _Float16 M[256];
  for (int I = 0; I < 256; ++I)
    M[I] = (_Float16)I; // exact: the value says where the half came from
  std::vector<unsigned> Regs(32 * 8);
  std::vector<float> D(32 * 4);
  const _Float16 *PM = M;
  unsigned *PR = Regs.data();
  float *PD = D.data();
  EmuRun R = runEmu(PtxSrc, 1, 32, {&PM, &PR, &PD});
  ASSERT_TRUE(R.Ok) << R.Error;
  auto Half = [&](unsigned Reg, int Hi) {
    unsigned short Bits = static_cast<unsigned short>(Hi ? Reg >> 16 : Reg & 0xffff);
    _Float16 H;
    std::memcpy(&H, &Bits, 2);
    return static_cast<int>((float)H);
  };
  // ldmatrix (PTX ISA, "Matrix fragments for ldmatrix"): lane 5 holds row
  // 1, columns 2 and 3 of each 8x8 matrix; the matrices are those of the
  // addresses of lanes 0-7 (rows 0-7, columns 0-7), 8-15 (rows 8-15),
  // 16-23 (rows 0-7 at column 8) and 24-31.
  EXPECT_EQ(Half(Regs[5 * 8 + 0], 0), 1 * 16 + 2);
  EXPECT_EQ(Half(Regs[5 * 8 + 0], 1), 1 * 16 + 3);
  EXPECT_EQ(Half(Regs[5 * 8 + 1], 0), 9 * 16 + 2);
  EXPECT_EQ(Half(Regs[5 * 8 + 2], 0), 1 * 16 + 10);
  EXPECT_EQ(Half(Regs[5 * 8 + 3], 1), 9 * 16 + 11);
  // .trans: lane 5 holds row 1, columns 2 and 3 of the transposes.
  EXPECT_EQ(Half(Regs[5 * 8 + 4 + 0], 0), 2 * 16 + 1);
  EXPECT_EQ(Half(Regs[5 * 8 + 4 + 0], 1), 3 * 16 + 1);
  EXPECT_EQ(Half(Regs[5 * 8 + 4 + 3], 1), 11 * 16 + 9);
  // mma.sync m16n8k16 with A = M (a0..a7 are ldmatrix.x4's registers) and
  // B[k][n] = M[n][k] (b0..b3 are ldmatrix.x2's: k 0-7 and 8-15 of rows
  // n = 0-7 of M): d = sum_k M[row][k] * M[col][k]. Lane 5 (g = 1, t = 1)
  // holds c0 at (1, 2) and c3 at (9, 3).
  auto Dot = [&](int Row, int Col) {
    float Acc = 0.f;
    for (int K = 0; K < 16; ++K)
      Acc = Acc + (float)M[Row * 16 + K] * (float)M[Col * 16 + K];
    return Acc;
  };
  for (int L = 0; L < 32; ++L)
    for (int I = 0; I < 4; ++I)
      EXPECT_EQ(D[L * 4 + I], Dot(L / 4 + 8 * (I >= 2), 2 * (L % 4) + I % 2)) << L << " " << I;
  EXPECT_EQ(D[5 * 4 + 0], Dot(1, 2));
  EXPECT_EQ(D[5 * 4 + 3], Dot(9, 3));
}

TEST(Emu, CompileErrorNamesTheSource) {
  std::shared_ptr<emu::CompiledKernel> K =
      emu::compileKernel("extern \"C\" __global__ void k(int *a) { a[0] = undeclared; }\n", "k");
  EXPECT_TRUE(contains(emu::compileError(*K), "cannot compile the emitted CUDA"))
      << emu::compileError(*K);
  EXPECT_TRUE(contains(emu::compileError(*K), "undeclared")) << emu::compileError(*K);
}

} // namespace
