// A function-local static is shared state the kernel cannot bind.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void counter(float *y, int n) {
  static float scale = 2.f;
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    y[i] = y[i] * scale; // expected-warning {{cannot schedule this nest: function-local static variable 'scale'}}
}
