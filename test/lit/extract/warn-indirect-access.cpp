// An index loaded from memory (a gather) is not affine: the nest is left as
// written, with the caret on the index.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void gather(float *y, const float *x, const int *idx, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    // expected-warning@+1 {{cannot schedule this nest: indirect index 'idx[i]'; the loop stays as written}}
    y[i] = x[idx[i]];
}
