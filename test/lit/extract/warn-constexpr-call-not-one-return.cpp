// A constexpr function with more than one `return` statement is not inlined
// (only constant arguments would fold): the nest stays as written.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

constexpr int clampIndex(int v, int n) {
  if (v < 0)
    return 0;
  return v < n ? v : n - 1;
}

void f(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    // expected-warning@+1 {{cannot schedule this nest: call to constexpr function 'clampIndex' that is not one 'return' statement (only those are inlined)}}
    y[i] = clampIndex(i - 1, n);
}
