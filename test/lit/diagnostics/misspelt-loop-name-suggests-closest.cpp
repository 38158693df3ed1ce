// A misspelt loop name suggests the closest loop of the nest.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void copy(int n, float *a, const float *b) {
  // expected-error@+1 {{no loop named 'row'; did you mean 'rows'?}}
#pragma sched split(row, ro, ri, 4)
  for (int rows = 0; rows < n; ++rows)
    a[rows] = b[rows];
}
