// A shared-memory GEMM whose 16x16 tiles do not divide the run-time sizes:
// the tile guards (i < M, j < N) enclose the k loop and its shared stages.
// Bound inference moves the stages out of those thread-divergent guards (all
// threads fill them, only the guarded ones compute), so the barriers around
// them are reached by every thread.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void gemm(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 16, 16) split(k, ko, ki, 16)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

int main(int argc, char **argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 37;
  int N = argc > 2 ? std::atoi(argv[2]) : 45;
  int K = argc > 3 ? std::atoi(argv[3]) : 21;
  std::vector<float> A(M * K + 1), B(K * N + 1), C(M * N + 1, -1.f);
  for (int i = 0; i < M * K; ++i)
    A[i] = float((i * 7) % 13) - 6.f;
  for (int i = 0; i < K * N; ++i)
    B[i] = float((i * 5) % 11) - 5.f;
  gemm(A.data(), B.data(), C.data(), M, N, K);
  double sum = 0;
  for (int i = 0; i < M * N; ++i)
    sum += C[i] * double((i % 5) + 1);
  std::printf("gemm %dx%dx%d\n", M, N, K);
  std::printf("checksum %.6f\n", sum);
  for (int i = 0; i < M * N; i += (M * N) / 7 + 1)
    std::printf("C[%d] %.6f\n", i, C[i]);
  return 0;
}
