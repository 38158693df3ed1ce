// Blocks of K written in every other column of rows of 2*N - 1 blocks:
// A[2*K*N*i - K*i + 2*K*j + k] under `j % 2 == 0` (issue 7, fuzzer: "cannot
// bound the indices of 'A'"). Rows to blocks, the elements of a block to
// threads. Integer data. Arguments: M N K.
#include <cstdio>
#include <cstdlib>

void evenBlocks(int *A, const int *B, int M, int N, int K) {
#pragma sched target(gpu) bind(i, blockIdx.x) bind(k, threadIdx.x)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        if (j % 2 == 0)
          A[2 * K * N * i - K * i + 2 * K * j + k] = B[2 * j] * 3 + i - k;
}

int main(int argc, char **argv) {
  int M = argc > 3 ? std::atoi(argv[1]) : 3;
  int N = argc > 3 ? std::atoi(argv[2]) : 4;
  int K = argc > 3 ? std::atoi(argv[3]) : 5;
  static int A[4096], B[4096];
  for (int i = 0; i < 4096; ++i) {
    A[i] = -i;
    B[i] = i * 7 % 11;
  }
  evenBlocks(A, B, M, N, K);
  int Shown = M * (2 * N - 1) * K + 3;
  for (int i = 0; i < Shown; ++i)
    std::printf("%d%c", A[i], i % 16 == 15 ? '\n' : ' ');
  std::printf("\n");
  return 0;
}
