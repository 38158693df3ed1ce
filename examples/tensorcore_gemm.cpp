// An fp16 GEMM of any size on tensor cores, scheduled the way fast
// tensor-core kernels are written: each block computes a 128 x 128 tile of C
// with 2 x 2 warps (threadIdx.y, threadIdx.z) of 64 x 64 outputs each;
// threadIdx.x is the 32 lanes of a warp, along the columns (a thread's
// outputs: 64 rows by 2 columns 32 apart). k is staged through shared
// memory 32 at a time (As, Bs: filled by all 128 threads together).
//
// tensorcore(auto) turns the per-thread multiply-add into warp-wide
// tensor-core operations; built with -fplugin-arg-sched-arch=sm_80 (or
// newer) it picks PTX mma.sync m16n8k16: per warp 4 x 8 tiles of 16 x 8,
// fragments loaded once per k step of 16 by ldmatrix and reused across the
// warp's box, the stages filled 16 bytes at a time by cp.async. M, N and K
// are known only at run time: blocks whose tile is full (and K a multiple
// of 32, the rows of A and B 16-byte aligned) run on tensor cores, the
// edge blocks run the ordinary kernel. The -Rpass=sched remark says which
// condition picks the tensor cores.
//
// Without the plugin this is ordinary C++ and its output is the reference.
#include <cstdio>
#include <vector>

static void gemm(int M, int N, int K, const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, 128, 128) split(k, ko, ki, 32)
#pragma sched split(ii, wy, ir, 64) split(ji, wz, jc, 64) split(jc, jr, lane, 32)
#pragma sched reorder(io, jo, wy, wz, lane, ko, ki, ir, jr)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(wy, threadIdx.y) bind(wz, threadIdx.z)
#pragma sched bind(lane, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += (float)A[i * K + k] * (float)B[k * N + j];
      C[i * N + j] = acc;
    }
}

int main() {
  // Two shapes: 256 x 128 x 96, all full tiles (every block on tensor
  // cores), and 192 x 136 x 64, one full tile and three edge blocks.
  // Small integers: every partial sum is exact in fp32, so any summation
  // order gives these numbers.
  const int Shapes[2][3] = {{256, 128, 96}, {192, 136, 64}};
  for (const auto &S : Shapes) {
    int M = S[0], N = S[1], K = S[2];
    std::vector<_Float16> A(M * K), B(K * N);
    std::vector<float> C(M * N);
    for (int x = 0; x < M * K; ++x)
      A[x] = (_Float16)((x * 7 + 3) % 9 - 4);
    for (int x = 0; x < K * N; ++x)
      B[x] = (_Float16)((x * 5 + 1) % 7 - 3);
    gemm(M, N, K, A.data(), B.data(), C.data());
    double Checksum = 0;
    for (int x = 0; x < M * N; ++x)
      Checksum += C[x] * (x % 13 + 1);
    printf("%d x %d x %d: checksum %.1f\n", M, N, K, Checksum);
    for (int x = 0; x < M * N; x += 1999)
      printf("C[%d][%d] = %.1f\n", x / N, x % N, C[x]);
  }
}
