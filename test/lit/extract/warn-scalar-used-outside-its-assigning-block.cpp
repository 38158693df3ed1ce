// A scalar is private only where each run of one block assigns it before any
// use. One read before the assignment keeps it a value passed in, so the
// nest stays as written; a use in another block of the nest (the value flows
// out of the block that assigned it) makes it one element the nest updates
// (issue 23), which every iteration of i writes: binding i to threads is
// refused.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void readFirst(const double *x, double *y, int n) {
  int i;
  double t;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    y[i] = t;
    t = x[i]; // expected-warning {{cannot schedule this nest: nest writes scalar 't' declared outside it, and reads it before this write (as the value it had before the nest); the loop stays as written}}
  }
}

void flowsOut(const double *A, double *y, int n) {
  int i, j;
  double t;
  // expected-error@+1 {{cannot bind 'i' to threadIdx.x: its iterations are not independent (loop-carried dependence on 't': t[0] (written) and t[0] (written))}}
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      t = A[i * n + j];
    }
    y[i] = t;
  }
}
