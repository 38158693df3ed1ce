// Rows of 2*n - 1 elements, every other one written, rows to blocks and the
// columns serial: with n = 0 the shape [m, 2*n - 1] has a negative size, and
// the launcher, copying the whole buffer (its indices have no interval
// bound), stopped with "buffer 'C' has negative size -5". Called with n = 0,
// then n = 5. Integer data.
#include <cstdio>

void spread(int *C, const int *A, int m, int n) {
#pragma sched target(gpu) bind(i, blockIdx.x)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      C[i * (2 * n - 1) + 2 * j] = A[i * n + j] * 3 + i;
}

int main() {
  static int C[256], A[256];
  for (int i = 0; i < 256; ++i) {
    C[i] = -i;
    A[i] = i * 7 % 11;
  }
  spread(C, A, 5, 0);
  spread(C, A, 5, 5);
  for (int i = 0; i < 5 * 9 + 2; ++i)
    std::printf("%d%c", C[i], i % 16 == 15 ? '\n' : ' ');
  std::printf("\n");
  return 0;
}
