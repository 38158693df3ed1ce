// A misspelt directive name suggests the closest directive.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void copy(int n, float *a, const float *b) {
  // expected-error@+1 {{unknown directive 'spilt'; did you mean 'split'?}}
#pragma sched spilt(i, io, ii, 4)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}
