// A cache stage whose region has a run-time size (a global stage at the root
// of a loop of n iterations) cannot be allocated: the nest stays as written,
// with a warning whose caret is on the cache_read that made the stage (issue
// 8: "malformed kernel: allocation 'xg' must have a constant, positive size"
// at the `for`).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void copyRoot(const float *x, float *y, int n) {
  // expected-warning@+1 {{sched: cannot lower nest: the region of stage 'xg' at the root of the nest has no constant size in dimension 0 (it spans 0 to (n - 1)); compute it at an inner loop; the loop stays as written}}
#pragma sched target(gpu) cache_read(x, global, xg)
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
}

void copyAtOuter(const float *x, float *y, int m, int n) {
#pragma sched target(gpu) bind(i, blockIdx.x)
  // expected-warning@+1 {{the region of stage 'xs' at 'i' has no constant size in dimension 1}}
#pragma sched cache_read(x, shared, xs) compute_at(xs, i)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      y[i * n + j] = x[i * n + j];
}
