// B[i*K + k] = A[(i - 1)*K + k] on A = a + 20 reads one row of K below the
// pointer, which is legal C++: the smallest index is a product with a size,
// (0 - 1)*K, and the copy region of A must start there (issue 8: the region
// started at the pointer; the simulator stopped with "out-of-bounds load at
// index -6", and on CUDA the kernel read below the copied region).
#include <cstdio>
#include <cstdlib>

static void up(const float *A, float *B, int M, int K) {
#pragma sched target(gpu) bind(i, blockIdx.x) bind(k, threadIdx.x)
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      B[i * K + k] = A[(i - 1) * K + k];
}

int main(int argc, char **argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 5;
  int K = argc > 2 ? std::atoi(argv[2]) : 6;
  float a[64], b[40];
  for (int i = 0; i < 64; ++i)
    a[i] = float(i);
  for (float &v : b)
    v = -1.f;
  up(a + 20, b, M, K);
  for (float v : b)
    std::printf("%g ", v);
  std::printf("M=%d K=%d\n", M, K);
  return 0;
}
