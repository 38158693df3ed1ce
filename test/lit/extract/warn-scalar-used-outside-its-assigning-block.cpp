// A scalar is private only where each run of one block assigns it before any
// use: one read before the assignment (a reduction into it), or a use in
// another block of the nest (the value flows out of the block that assigned
// it), keeps it shared, and the nest stays as written.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void readFirst(const double *x, double *y, int n) {
  int i;
  double t;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    y[i] = t;
    t = x[i]; // expected-warning {{cannot schedule this nest: nest writes scalar 't' declared outside it; the loop stays as written}}
  }
}

void flowsOut(const double *A, double *y, int n) {
  int i, j;
  double t;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      t = A[i * n + j]; // expected-warning {{cannot schedule this nest: nest writes scalar 't' declared outside it; the loop stays as written}}
    }
    y[i] = t;
  }
}
