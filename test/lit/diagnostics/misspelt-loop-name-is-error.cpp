// A directive naming a loop the nest does not have is an error on the pragma.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void copy(int n, float *a, const float *b) {
  // expected-error@+1 {{no loop named 'q'}}
#pragma sched split(q, qo, qi, 4)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}
