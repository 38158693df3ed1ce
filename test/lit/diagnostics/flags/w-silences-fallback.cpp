// -w silences sched warnings, even one made an error by -Werror=.
// RUN: %sched_cc -fsyntax-only -w -Xclang -verify %s
// RUN: %sched_cc -fsyntax-only -w -Wno-unknown-warning-option -Werror=sched-fallback -Xclang -verify %s
// expected-no-diagnostics

void gather(int n, float *a, const float *b, const int *idx) {
#pragma sched split(i, bo, ti, 4) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[idx[i]];
}
