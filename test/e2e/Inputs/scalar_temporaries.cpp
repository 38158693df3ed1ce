// Scalars declared at the top of the function (C89 style) that the nest uses
// as temporaries, assigned before every use (issue 22, item 4): each is
// private to the block that assigns it, so the loops around it can be bound
// to threads. Run with n as the argument.
#include <cstdio>
#include <cstdlib>

static double A[32][32], B[32][32], x[32], y[32];

// Row sums: `t = 0; for (j) t += ...; y[i] = t;` (atax, gemver, mvt).
static void rowSums(int n) {
  int i, j;
  double t;
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (i = 0; i < n; i++) {
    t = 0.0;
    for (j = 0; j < n; j++)
      t += A[i][j] * x[j];
    y[i] = t;
  }
}

// A temporary in the innermost body, written and read in every iteration.
static void scaleTwice(int n) {
  int i, j;
  double t;
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 4, 8)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      t = A[i][j] * 0.5 + 1.0;
      B[i][j] = t * t - A[j][i];
    }
}

// An integer temporary used as an index, and one under a branch.
static void shifted(int n) {
  int i, k;
  double s;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    k = n - 1 - i;
    if (k % 2 == 0) {
      s = x[k] + 1.0;
      y[i] = s * 3.0;
    } else {
      y[i] = -x[k];
    }
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 32;
  for (int i = 0; i < 32; i++) {
    x[i] = 0.25 * i - 3.0;
    for (int j = 0; j < 32; j++)
      A[i][j] = (i * 7 + j * 3) % 11 - 5.0;
  }
  double Sum = 0;
  rowSums(n);
  for (int i = 0; i < 32; i++)
    Sum += y[i] * (i + 1);
  std::printf("rowSums: %.6f\n", Sum);
  scaleTwice(n);
  Sum = 0;
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 32; j++)
      Sum += B[i][j] * (i + 2 * j + 1);
  std::printf("scaleTwice: %.6f\n", Sum);
  shifted(n);
  Sum = 0;
  for (int i = 0; i < 32; i++)
    Sum += y[i] * (i + 1);
  std::printf("shifted: %.6f\n", Sum);
}
