// A tiled fp16 GEMM on the mma.sync path (sm_80+): each block computes a
// 64x64 tile of C with 2x2 warps (threadIdx.y, threadIdx.z), each warp a
// 32x32 tile as 2x4 mma.m16n8k16 tiles of 16x8x16. k is staged through
// shared memory 32 at a time (As, Bs), from where ldmatrix (mma.load) loads
// the warps' fragments 16 at a time (Af, Bf); the accumulators (Cf) stay in
// registers across all of k and are stored once (mma.store).
// -DCOLA=1: A is stored k-major (ldmatrix .trans for A); -DCOLB=1: B is
// stored n-major (ldmatrix without .trans for B).
//
// Without the plugin this is ordinary C++ and its output is the reference.
#include <cstdio>
#include <vector>

#if COLA
#define AIDX(i, k) ((k) * M + (i))
#else
#define AIDX(i, k) ((i) * K + (k))
#endif
#if COLB
#define BIDX(k, j) ((j) * K + (k))
#else
#define BIDX(k, j) ((k) * N + (j))
#endif
#ifndef ROUGH
#define ROUGH 0
#endif

constexpr int M = 128, N = 128, K = 96;

static void gemm(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) cache_write(C, wmma.accumulator, Cf)
#pragma sched tile(i, j, io, jo, ii, ji, 64, 64) split(k, ko, ki, 32) split(ki, kk, kt, 16)
#pragma sched split(ii, wy, it, 32) split(ji, wz, jt, 32) split(it, ti, i16, 16) split(jt, tj, j8, 8)
#pragma sched reorder(io, jo, wy, wz, ko, kk, ti, tj, i16, j8, kt)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(wy, threadIdx.y) bind(wz, threadIdx.z)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
#pragma sched cache_read(As, wmma.matrix_a, Af) compute_at(Af, kk)
#pragma sched cache_read(Bs, wmma.matrix_b, Bf) compute_at(Bf, kk)
#pragma sched compute_at(Cf, wz)
#pragma sched tensorize(Af.ax0, mma.load) tensorize(Bf.ax0, mma.load)
#pragma sched tensorize(i16, mma.m16n8k16) tensorize(Cf.ax0, mma.store)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += (float)A[AIDX(i, k)] * (float)B[BIDX(k, j)];
      C[i * N + j] = acc;
    }
}

int main() {
  std::vector<_Float16> A(M * K), B(K * N);
  std::vector<float> C(M * N);
  for (int x = 0; x < M * K; ++x)
    A[x] = ROUGH ? (_Float16)((float)((x * 37 + 11) % 101) / (float)(1 << (x % 11)) - 0.3f)
                 : (_Float16)((x * 7 + 3) % 9 - 4);
  for (int x = 0; x < K * N; ++x)
    B[x] = ROUGH ? (_Float16)((float)((x * 53 + 5) % 97) / (float)(1 << (x % 13)) - 0.7f)
                 : (_Float16)((x * 5 + 1) % 7 - 3);
  gemm(A.data(), B.data(), C.data());
  double Checksum = 0;
  for (int x = 0; x < M * N; ++x)
    Checksum += C[x] * (x % 13 + 1);
  printf("checksum %.9g\n", Checksum);
  for (int x = 0; x < M * N; x += 331)
    printf("C[%d][%d] = %a\n", x / N, x % N, C[x]);
}
