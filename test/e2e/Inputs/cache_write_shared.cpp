// A shared cache_write stage computed at a serial loop inside the thread
// loop: each thread writes one element of the stage, and the write-back,
// left unscheduled, must not have every thread store the whole stage (a
// race on C between the block's threads: the simulator's race detector
// reports it). Each thread writes back what it wrote.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void diff(const float *A, float *B, int M, int N) {
#pragma sched target(gpu) split(j, jo, ji, 8) reorder(ji, jo)
#pragma sched bind(i, blockIdx.x) bind(ji, threadIdx.x) cache_write(B, shared, Bs) compute_at(Bs, jo)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      B[N * i + j] = A[N * i + 2 * N + 2 * i + j + 4] - A[N * i + 2 * i + j + 2];
}

int main(int argc, char **argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 5;
  int N = argc > 2 ? std::atoi(argv[2]) : 21;
  std::vector<float> A((M + 2) * (N + 2) + 8), B(M * N + 1);
  for (size_t i = 0; i < A.size(); ++i)
    A[i] = float((i * 7) % 13) - 6.f;
  for (size_t i = 0; i < B.size(); ++i)
    B[i] = -1.f;
  diff(A.data(), B.data(), M, N);
  double sum = 0;
  for (size_t i = 0; i < B.size(); ++i)
    sum += B[i] * double((i % 5) + 1);
  std::printf("diff %dx%d\n", M, N);
  std::printf("checksum %.6f\n", sum);
  for (size_t i = 0; i < B.size(); i += 11)
    std::printf("B[%zu] %.6f\n", i, B[i]);
  return 0;
}
