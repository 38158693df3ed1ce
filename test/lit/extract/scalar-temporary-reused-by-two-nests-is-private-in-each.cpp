// Two nests of one function reuse one temporary (atax as PolyBench writes it):
// the second nest assigns t before it reads it, so the first nest's last
// value is never read and both nests are scheduled.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics

void atax(int m, int n, const double *A, const double *x, double *y, double *tmp) {
  int i, j;
  double t;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < m; i++) {
    t = 0.0;
    for (j = 0; j < n; j++)
      t = t + A[i * n + j] * x[j];
    tmp[i] = t;
  }
#pragma sched target(gpu) bind(j, threadIdx.x)
  for (j = 0; j < n; j++) {
    t = 0.0;
    for (i = 0; i < m; i++)
      t = t + A[i * n + j] * tmp[i];
    y[j] = t;
  }
}
