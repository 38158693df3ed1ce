// A scalar temporary of the nest that is read after it would need the last
// iteration's value, which the kernel does not give back: the nest stays as
// written, and the warning says why, on the assignment.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

double lastRow(const double *A, double *y, int n) {
  int i, j;
  double t = 0;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    t = 0; // expected-warning {{cannot schedule this nest: scalar 't' is declared outside the nest and may be read after it; its value there would be the last iteration's, which the kernel does not give back; the loop stays as written}}
    for (j = 0; j < n; j++)
      t += A[i * n + j];
    y[i] = t;
  }
  return t;
}

// A later loop that reads t before assigning it, or a read after a later
// block that may not run, sees the nest's value: refused.
void readBeforeReassigned(const double *x, double *y, int m) {
  int i;
  double t = 1;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < m; i++) {
    t = x[i]; // expected-warning {{cannot schedule this nest: scalar 't' is declared outside the nest and may be read after it}}
    y[i] = t;
  }
  for (i = 0; i < m; i++) {
    y[i] += t;
    t = 0;
  }
}

double readAfterBlockThatMayNotRun(const double *x, double *y, int m) {
  int i;
  double t = 1;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < m; i++) {
    t = x[i]; // expected-warning {{cannot schedule this nest: scalar 't' is declared outside the nest and may be read after it}}
    y[i] = t;
  }
  if (m > 3) {
    t = 0;
  }
  return t;
}
