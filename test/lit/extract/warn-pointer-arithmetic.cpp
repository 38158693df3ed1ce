// Pointer arithmetic in an access base is not represented.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void offset(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    (y + 1)[i] = 0.f; // expected-warning {{cannot schedule this nest: pointer arithmetic 'y + 1'}}
}
