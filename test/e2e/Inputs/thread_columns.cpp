// Rows to blocks, columns to threads: with n = 0 the block has no thread.
// Integer data. Argument: n.
#include <cstdio>
#include <cstdlib>

void scale(int (*C)[16], const int (*A)[16], int m, int n) {
#pragma sched target(gpu) bind(i, blockIdx.x) bind(j, threadIdx.x)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      C[i][j] = A[i][j] * 3 + i;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 7;
  static int C[5][16], A[5][16];
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 16; ++j) {
      C[i][j] = -j;
      A[i][j] = (i * 16 + j) * 7 % 11;
    }
  scale(C, A, 5, n);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 16; ++j)
      std::printf("%d%c", C[i][j], j == 15 ? '\n' : ' ');
  return 0;
}
