// A scalar temporary of the nest that is read after it holds the last
// iteration's value there; where which iteration assigns it last is not known
// (it is assigned under an `if`, or in a loop whose bounds depend on another,
// whose last iteration may be empty), the nest stays as written, and the
// warning says why, on the assignment.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

double underBranch(const double *x, double *y, int n) {
  int i;
  double t = 0;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    if (x[i] > 0) {
      t = x[i]; // expected-warning {{cannot schedule this nest: scalar 't' is declared outside the nest and may be read after it, where it holds the last iteration's value, but it is assigned under an 'if' of the nest, so which iteration assigns it last is not known; the loop stays as written}}
      y[i] = t * t;
    }
  }
  return t;
}

double triangular(const double *A, double *y, int n) {
  int i, j;
  double t = 0;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++) {
      t = A[i * n + j]; // expected-warning {{cannot schedule this nest: scalar 't' is declared outside the nest and may be read after it, where it holds the last iteration's value, but the bounds of loop 'j' depend on another loop, so its last iteration may not run}}
      y[i * n + j] = t + 1;
    }
  return t;
}
