// Rows of 2*n - 1 elements, every other one written: C[i*(2*n-1) + 2*j]
// (issue 7: "cannot bound the indices"). Rows to blocks, columns to threads;
// the odd elements keep their initial values. Integer data.
#include <cstdio>
#include <cstdlib>

void spread(int *C, const int *A, int m, int n) {
#pragma sched target(gpu) bind(i, blockIdx.x) bind(j, threadIdx.x)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      C[i * (2 * n - 1) + 2 * j] = A[i * n + j] * 3 + i;
}

int main(int argc, char **argv) {
  int m = 5, n = argc > 1 ? std::atoi(argv[1]) : 7;
  static int C[1024], A[1024];
  for (int i = 0; i < 1024; ++i) {
    C[i] = -i;
    A[i] = i * 7 % 11;
  }
  spread(C, A, m, n);
  int Shown = m * (2 * n - 1) + 2; // the rows and two past them
  if (Shown < 16)
    Shown = 16;
  for (int i = 0; i < Shown; ++i)
    std::printf("%d%c", C[i], i % 16 == 15 ? '\n' : ' ');
  std::printf("\n");
  return 0;
}
