// tensorcore(auto) on an fp16 GEMM of run-time size whose block is one
// warpgroup (2 x 2 warps of 32 lanes): on sm_90a the full tiles run wgmma.
// Macros: BM x BN the block tile, WM x WN a warp's box, KT the k tile; TA
// (A stored k-major), TB (B stored n-major). The shapes are full tiles, edge
// blocks, k remainders and 7 x 9 x 5.
#include <cstdio>
#include <vector>
#ifndef BM
#define BM 128
#define BN 128
#define WM 64
#define WN 64
#define KT 32
#endif
#if TA
#define AIDX(i, k) ((k) * M + (i))
#else
#define AIDX(i, k) ((i) * K + (k))
#endif
#if TB
#define BIDX(k, j) ((j) * K + (k))
#else
#define BIDX(k, j) ((k) * N + (j))
#endif
static void gemm(int M, int N, int K, const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, BM, BN) split(k, ko, ki, KT)
#pragma sched split(ii, wy, ir, WM) split(ji, wz, jc, WN) split(jc, jr, lane, 32)
#pragma sched reorder(io, jo, wy, wz, lane, ko, ki, ir, jr)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(wy, threadIdx.y) bind(wz, threadIdx.z)
#pragma sched bind(lane, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += (float)A[AIDX(i, k)] * (float)B[BIDX(k, j)];
      C[i * N + j] = acc;
    }
}
int main() {
  const int Shapes[][3] = {{2*BM, BN, 3*KT}, {BM + 8, 2*BN - 8, 2*KT + 8}, {BM+5, BN+3, KT+7}, {7, 9, 5}};
  for (const auto &S : Shapes) {
    int M = S[0], N = S[1], K = S[2];
    std::vector<_Float16> A(M * K), B(K * N);
    std::vector<float> C(M * N);
    for (int x = 0; x < M * K; ++x) A[x] = (_Float16)((x * 7 + 3) % 9 - 4);
    for (int x = 0; x < K * N; ++x) B[x] = (_Float16)((x * 5 + 1) % 7 - 3);
    gemm(M, N, K, A.data(), B.data(), C.data());
    double s = 0;
    for (int x = 0; x < M * N; ++x) s += C[x] * (x % 13 + 1);
    printf("%d %d %d %.1f\n", M, N, K, s);
  }
}
