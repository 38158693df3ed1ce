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
