// The body may not change the induction variable.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void skip(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i) {
    y[i] = 1.f;
    i += 1; // expected-warning {{cannot schedule this nest: the body modifies loop variable 'i'}}
  }
}
