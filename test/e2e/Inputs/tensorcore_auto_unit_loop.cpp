// tensorcore(auto) on a GEMM of run-time size whose warp box is 32 x 32:
// `split(jc, jr, lane, 32)` of 32 columns leaves a unit loop jr (one
// iteration). Unit loops run once and are dropped before the warp's tile is
// read (they were taken for the reduction loop, "runs 1 times"); the shapes
// below are full tiles, edge blocks, k remainders and 7 x 9 x 5.
#include <cstdio>
#include <vector>
static void gemm(int M, int N, int K, const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, 64, 64) split(k, ko, ki, 16)
#pragma sched split(ii, wy, ir, 32) split(ji, wz, jc, 32) split(jc, jr, lane, 32)
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
  const int Shapes[][3] = {{128, 64, 48}, {72, 120, 32}, {125, 69, 39}, {7, 9, 5}};
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
