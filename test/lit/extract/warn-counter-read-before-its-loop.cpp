// A counter the nest reads before a loop of the nest assigns it: in the
// first iteration it holds the value from before the nest, later the inner
// loop's final value; one kernel parameter cannot be both.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void before(int n, float *x, float *y) {
  int i, j = 3;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    y[i] = j; // expected-warning {{cannot schedule this nest: 'j' is read in the nest where a loop of the nest may already have assigned it; the loop stays as written}}
    for (j = 0; j < n; j++)
      x[i * n + j] = 1.f;
  }
}
