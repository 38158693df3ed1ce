// Reductions as C writes them, with their loops reordered (issue 22, item
// 7): `acc -= x`, under a guard, into a `short` (promoted to int and
// truncated back), into a float with a double operand, and a guarded scalar
// accumulator. Data are integer-valued, so any order gives the same sums.
// Run with n as argument.
#include <cstdio>
#include <cstdlib>

#define NMAX 24
static float X[NMAX * NMAX], Acc[4], Out[NMAX];
static double D[NMAX * NMAX];
static short S[NMAX * NMAX], SAcc[4];

static void minusEq(int n, int m) {
#pragma sched target(gpu) bind(b, blockIdx.x) reorder(j, i)
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        if (X[i * m + j] > b)
          Acc[b] -= X[i * m + j] * (b + 1);
}

static void narrow(int n, int m) {
#pragma sched target(gpu) bind(b, blockIdx.x) reorder(j, i)
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        SAcc[b] -= S[i * m + j] * (b + 3);
}

static void mixed(int n, int m) {
#pragma sched target(gpu) bind(b, blockIdx.x) reorder(j, i)
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        Acc[b] += D[i * m + j] * 0.5;
}

static void guardedScalar(int n) {
#pragma sched target(gpu) bind(i, threadIdx.x) reorder(k, j)
  for (int i = 0; i < n; ++i) {
    float acc = 0;
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        if (j > k + i)
          acc -= X[j * n + k];
    Out[i] = acc;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : NMAX;
  for (int i = 0; i < NMAX * NMAX; ++i) {
    X[i] = (i * 7) % 5 - 1;
    D[i] = (i * 3) % 7;
    S[i] = (short)((i * 13) % 301 - 150);
  }
  minusEq(n, n);
  narrow(n, n > 3 ? n - 3 : n);
  mixed(n, n);
  guardedScalar(n);
  double Sum = 0;
  for (int b = 0; b < 4; ++b)
    Sum += Acc[b] * (b + 1) + SAcc[b] * (2 * b + 1);
  for (int i = 0; i < NMAX; ++i)
    Sum += Out[i] * (i + 1);
  std::printf("%.3f %d\n", Sum, SAcc[3]);
}
