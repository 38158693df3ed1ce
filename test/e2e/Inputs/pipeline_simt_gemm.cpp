// A float GEMM of run-time size scheduled for CUDA cores, its shared stages
// pipelined three deep: pipeline(ko, stages=3).
#include <cstdio>
#include <vector>
void mm(int M, int N, int K, const float *A, const float *B, float *C) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 32, 32) split(k, ko, ki, 16)
#pragma sched split(ii, ty, ir, 4) reorder(io, jo, ty, ji, ko, ki, ir)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ty, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
#pragma sched pipeline(ko, stages=3)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}
int main() {
  const int Shapes[][3] = {{128, 128, 64}, {70, 45, 37}, {32, 32, 16}, {1, 1, 1}};
  for (const auto &S : Shapes) {
    int M = S[0], N = S[1], K = S[2];
    std::vector<float> A(M * K), B(K * N), C(M * N);
    for (int x = 0; x < M * K; ++x) A[x] = (x * 7 + 3) % 9 - 4;
    for (int x = 0; x < K * N; ++x) B[x] = (x * 5 + 1) % 7 - 3;
    mm(M, N, K, A.data(), B.data(), C.data());
    double s = 0;
    for (int x = 0; x < M * N; ++x) s += C[x] * (x % 13 + 1);
    printf("%d x %d x %d: %.1f\n", M, N, K, s);
  }
}
