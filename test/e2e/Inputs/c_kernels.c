/* Kernels written in C as C codes write them (issue 22, item 5): variable-
   length array parameters, counters and temporaries declared at the top of
   the function, a downward loop. Built as C (clang-19 -std=c99) and linked
   with the C driver and nothing but -lsched_runtime. Run with n. */
#include <stdio.h>
#include <stdlib.h>

static void gemver_like(int n, double A[n][n], const double u[n], const double v[n],
                        double x[n], const double y[n]) {
  int i, j;
  double t;
#pragma sched target(gpu) bind(i, blockIdx.x) bind(j, threadIdx.x)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = A[i][j] + u[i] * v[j];
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (i = 0; i < n; i++) {
    t = 0.0;
    for (j = 0; j < n; j++)
      t = t + 1.5 * A[j][i] * y[j];
    x[i] = x[i] + t;
  }
}

static void reverse_rows(int n, int m, float B[n][m]) {
  int i, j;
#pragma sched target(gpu) bind(i, blockIdx.x) bind(j, threadIdx.x)
  for (i = n - 1; i >= 0; i--)
    for (j = 0; j < m; j++)
      B[i][j] = B[i][j] * 2.0f - (float)(i * m + j);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 24, m = n + 3, i, j;
  double (*A)[n > 0 ? n : 1] = malloc(sizeof(double) * (n > 0 ? n * n : 1));
  double *u = malloc(sizeof(double) * (n + 1)), *v = malloc(sizeof(double) * (n + 1));
  double *x = malloc(sizeof(double) * (n + 1)), *y = malloc(sizeof(double) * (n + 1));
  float (*B)[m] = malloc(sizeof(float) * (n > 0 ? n * m : 1));
  double s = 0;
  for (i = 0; i < n; i++) {
    u[i] = i * 0.5;
    v[i] = 1.0 - i * 0.25;
    x[i] = i;
    y[i] = (i % 5) - 2.0;
    for (j = 0; j < n; j++)
      A[i][j] = (i * 3 + j) % 7 - 3.0;
    for (j = 0; j < m; j++)
      B[i][j] = (float)((i + 2 * j) % 9);
  }
  gemver_like(n, A, u, v, x, y);
  reverse_rows(n, m, B);
  for (i = 0; i < n; i++) {
    s += x[i] * (i + 1);
    for (j = 0; j < n; j++)
      s += A[i][j] * (j + 1);
    for (j = 0; j < m; j++)
      s += B[i][j] * (i + j + 1);
  }
  printf("%.4f\n", s);
  free(A); free(u); free(v); free(x); free(y); free(B);
  return 0;
}
