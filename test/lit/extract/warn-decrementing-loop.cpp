// A decrementing loop is not canonical.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void down(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; --i) // expected-warning {{cannot schedule this nest: non-canonical loop (the step of 'i' is not '++i')}}
    y[i] = 1.f;
}
