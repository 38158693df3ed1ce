// A directive with the wrong number of arguments is an error.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void copy(int n, float *a, const float *b) {
  // expected-error@+1 {{'split' expects 4 arguments, got 3}}
#pragma sched split(i, io, 4)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}
