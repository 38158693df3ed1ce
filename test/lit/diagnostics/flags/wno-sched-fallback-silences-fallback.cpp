// -Wno-sched-fallback silences the warning of a nest kept as written (Clang 19
// knows no plugin groups and says so for the command-line flag: hence
// -Wno-unknown-warning-option, see docs/pragma.md).
// RUN: %sched_cc -fsyntax-only -Wno-unknown-warning-option -Wno-sched-fallback -Xclang -verify %s
// RUN: %sched_cc -fsyntax-only -Wno-unknown-warning-option -Wno-sched -Xclang -verify %s
// RUN: %sched_cc -fsyntax-only -Wno-everything -Xclang -verify %s
// expected-no-diagnostics

void gather(int n, float *a, const float *b, const int *idx) {
#pragma sched split(i, bo, ti, 4) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[idx[i]];
}
