// A triangular nest fused with its parent into one loop split over blocks and
// threads (issue 22, item 2): the lower triangle of a symmetric update (j <=
// i) and a strictly upper one starting at i + 1 (C89 counters). Run with n as
// argument.
#include <cstdio>
#include <cstdlib>

#define NMAX 30
static double A[NMAX][NMAX], C[NMAX][NMAX], U[NMAX][NMAX];

static void lower(int n) {
  int i, j;
#pragma sched target(gpu) fuse(i, j, f) split(f, fo, fi, 32) bind(fo, blockIdx.x) bind(fi, threadIdx.x)
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++)
      C[i][j] = C[i][j] * 0.5 + A[i][j] * A[j][i];
}

static void upper(int n) {
#pragma sched target(gpu) fuse(i, j, f) split(f, fo, fi, 16) bind(fo, blockIdx.x) bind(fi, threadIdx.x)
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      U[i][j] += A[i][j] - i;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : NMAX;
  for (int i = 0; i < NMAX; ++i)
    for (int j = 0; j < NMAX; ++j) {
      A[i][j] = (i * 3 + j * 7) % 11 - 5;
      C[i][j] = (i + j) % 4;
      U[i][j] = i - j;
    }
  lower(n);
  upper(n);
  double Sum = 0;
  for (int i = 0; i < NMAX; ++i)
    for (int j = 0; j < NMAX; ++j)
      Sum += C[i][j] * (i + 2 * j + 1) + U[i][j] * (2 * i + j + 1);
  std::printf("%.3f\n", Sum);
}
