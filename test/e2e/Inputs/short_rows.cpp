// An inner loop over n - 3 elements: with n < 3 it runs zero times, and the
// region of A the kernel reads is empty (it used to be a negative size the
// simulator refused: "buffer 'A' has negative size -3").
#include <cstdio>
#include <cstdlib>

void sumTail(float *C, const float *A, int M, int n) {
#pragma sched target(gpu) bind(i, blockIdx.x)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < n - 3; ++j)
      C[i] += A[j];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 8;
  static float C[4], A[64];
  for (int i = 0; i < 64; ++i)
    A[i] = static_cast<float>(i % 5);
  for (int i = 0; i < 4; ++i)
    C[i] = static_cast<float>(i);
  sumTail(C, A, 4, n);
  std::printf("%g %g %g %g\n", C[0], C[1], C[2], C[3]);
  return 0;
}
