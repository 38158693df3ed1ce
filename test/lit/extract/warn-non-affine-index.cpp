// A product of two loop variables in an index is not affine.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void square(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      // expected-warning@+1 {{cannot schedule this nest: non-affine index 'i * j'}}
      y[i * j] = 0.f;
}
