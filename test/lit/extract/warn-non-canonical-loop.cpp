// A loop with a `!=` condition is not canonical.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void ne(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i != n; ++i) // expected-warning {{cannot schedule this nest: non-canonical loop (condition 'i != n' does not compare 'i' with a bound: expected 'i < n', 'i <= n', 'n > i' or 'n >= i', or 'i > n', 'i >= n' for a loop that goes down)}}
    y[i] = 1.f;
}
