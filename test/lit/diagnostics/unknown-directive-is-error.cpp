// An unknown directive name is an error at the name.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void copy(int n, float *a, const float *b) {
  // expected-error@+1 {{unknown directive 'splitt'}}
#pragma sched splitt(i, io, ii, 4)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}
