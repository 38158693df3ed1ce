// A nest kept as written because it cannot be extracted still has its
// directives checked against its loops, and their errors reported.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void gather(int n, float *a, const float *b, const int *idx) {
  // expected-error@+1 {{no loop named 'tii'; did you mean 'ti'?}}
#pragma sched split(i, bo, ti, 4) bind(bo, blockIdx.x) bind(tii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[idx[i]]; // expected-warning {{indirect index 'idx[i]'}}
}
