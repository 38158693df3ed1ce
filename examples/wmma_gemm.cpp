// A tiled fp16 GEMM on tensor cores: each block computes a 64x64 tile of C
// with 2x2 warps (threadIdx.y, threadIdx.z; threadIdx.x is the 32 lanes of a
// warp), each warp a 32x32 tile as 2x2 wmma tiles of 16x16x16. k is staged
// through shared memory 32 at a time (As, Bs: filled by all 128 threads of
// the block), and from there into fragments 16 at a time (Af, Bf); the
// accumulators (Cf) stay in fragments across all of k and are stored once.
// The barriers between the shared stages and the warps' fragment loads are
// found by thread sync; none is written here.
//
// Without the plugin this is ordinary C++ and its output is the reference.
#include <cstdio>
#include <vector>

constexpr int M = 256, N = 128, K = 96;

static void gemm(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) cache_write(C, wmma.accumulator, Cf)
#pragma sched tile(i, j, io, jo, ii, ji, 64, 64) split(k, ko, ki, 32) split(ki, kk, kt, 16)
#pragma sched split(ii, wy, it, 32) split(ji, wz, jt, 32) split(it, ti, i16, 16) split(jt, tj, j16, 16)
#pragma sched reorder(io, jo, wy, wz, ko, kk, ti, tj, i16, j16, kt)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(wy, threadIdx.y) bind(wz, threadIdx.z)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
#pragma sched cache_read(As, wmma.matrix_a, Af) compute_at(Af, kk)
#pragma sched cache_read(Bs, wmma.matrix_b, Bf) compute_at(Bf, kk)
#pragma sched compute_at(Cf, wz)
#pragma sched tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, wmma.load)
#pragma sched tensorize(i16, wmma.mma) tensorize(Cf.ax0, wmma.store)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += (float)A[i * K + k] * (float)B[k * N + j];
      C[i * N + j] = acc;
    }
}

int main() {
  // Small integers: every partial sum is exact, so any GPU's summation
  // order gives these numbers too.
  std::vector<_Float16> A(M * K), B(K * N);
  std::vector<float> C(M * N);
  for (int x = 0; x < M * K; ++x)
    A[x] = (_Float16)((x * 7 + 3) % 9 - 4);
  for (int x = 0; x < K * N; ++x)
    B[x] = (_Float16)((x * 5 + 1) % 7 - 3);
  gemm(A.data(), B.data(), C.data());
  double Checksum = 0;
  for (int x = 0; x < M * N; ++x)
    Checksum += C[x] * (x % 13 + 1);
  printf("checksum %.1f\n", Checksum);
  for (int x = 0; x < M * N; x += 1021)
    printf("C[%d][%d] = %.1f\n", x / N, x % N, C[x]);
}
