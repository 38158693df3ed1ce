// Each row of A is filled, then read back reversed: A[M*i + M - k - 1]
// (issue 7, fuzzer: the kernel was extracted under the assumption M <= 0 and
// never ran). Rows to blocks. Integer-valued data. Argument: M.
#include <cstdio>
#include <cstdlib>

void reverseRows(float *A, const float *B, float *C, int M) {
#pragma sched target(gpu) bind(i, blockIdx.x)
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < M; ++j)
      A[M * i + j] = B[M * i + j] * 2.f + 1.f;
    for (int k = 0; k < M; ++k)
      C[M * i + k] = A[M * i + M - k - 1] - static_cast<float>(k);
  }
}

int main(int argc, char **argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 7;
  static float A[1024], B[1024], C[1024];
  for (int i = 0; i < 1024; ++i) {
    A[i] = -1.f;
    B[i] = static_cast<float>(i * 5 % 9 - 4);
    C[i] = -2.f;
  }
  reverseRows(A, B, C, M);
  for (int i = 0; i < 4 * M + 2; ++i)
    std::printf("%g %g%c", A[i], C[i], i % 8 == 7 ? '\n' : ' ');
  std::printf("\n");
  return 0;
}
