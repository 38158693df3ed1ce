// Row sums with a scalar accumulator; reorder moves k outside i, which
// distributes i over the accumulator's init, update and store, and bind(i)
// must bind all three (issue 7 case 4). Integer-valued data: exact sums.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void rowsum(const float *A, float *C, int N, int K) {
#pragma sched target(gpu) split(i, bi, ti, 8) reorder(k, ti) bind(bi, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < N; ++i) {
    float acc = 0.f;
    for (int k = 0; k < K; ++k)
      acc += A[i * K + k];
    C[i] = acc;
  }
}

int main(int argc, char **argv) {
  int N = argc > 1 ? std::atoi(argv[1]) : 37;
  int K = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<float> A(N * K), C(N, -1.f);
  for (int i = 0; i < N * K; ++i)
    A[i] = float((i * 7) % 11) - 5.f;
  rowsum(A.data(), C.data(), N, K);
  for (int i = 0; i < N; ++i)
    std::printf("%g\n", C[i]);
  return 0;
}
