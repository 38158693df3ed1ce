// A GEMM tiled 16x16 straight onto the threads, with run-time sizes no tile
// divides, where A goes through a local stage Al into the shared stage As
// (cache_read(A, local, Al) after cache_read(A, shared, As): As's copy reads
// Al). The tile guards depend on the thread and enclose both stages; the
// block's threads fill As together, each from its own Al, so every thread,
// including those the tile guards exclude, must fill its Al.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void gemm(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu)
#pragma sched tile(i, j, io, jo, ii, ji, 16, 16) split(k, ko, ki, 16)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(A, local, Al) compute_at(Al, ko)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

static double checksum(const std::vector<float> &V) {
  double Sum = 0;
  for (size_t I = 0; I < V.size(); ++I)
    Sum += V[I] * double((I % 7) + 1);
  return Sum;
}

int main(int argc, char **argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 40;
  int N = argc > 2 ? std::atoi(argv[2]) : 21;
  int K = argc > 3 ? std::atoi(argv[3]) : 35;
  std::vector<float> A(M * K), B(K * N), C(M * N, -1.f);
  unsigned seed = 4242;
  auto next = [&] { seed = seed * 1103515245u + 12345u; return float((seed >> 16) % 9) - 4.f; };
  for (float &V : A) V = next();
  for (float &V : B) V = next();
  gemm(A.data(), B.data(), C.data(), M, N, K);
  std::printf("gemm %dx%dx%d\n", M, N, K);
  std::printf("checksum %.1f\n", checksum(C));
  for (size_t I = 0; I < C.size(); I += 37)
    std::printf("C[%zu] %.1f\n", I, C[I]);
  return 0;
}
