// An index that is negative at some iteration (y[-1]) lies outside the region
// the runtime copies.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void prev(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    y[i - 1] = 0.f; // expected-warning {{cannot schedule this nest: an index of 'y' is negative}}
}
