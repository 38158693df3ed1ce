// A recursive constexpr function on a run-time argument cannot be inlined.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

// expected-warning@+1 {{cannot schedule this nest: recursive call to constexpr function 'fact'}}
constexpr int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

void f(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    y[i] = fact(i);
}
