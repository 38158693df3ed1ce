// A nest kept as the original loop warns with its flag, as Clang prints a
// warning of a group.
// RUN: %sched_cc -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: %sched_cc -fsyntax-only -fno-diagnostics-show-option %s 2>&1 | FileCheck %s --check-prefix=NOFLAG

void gather(int n, float *a, const float *b, const int *idx) {
#pragma sched split(i, bo, ti, 4) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[idx[i]];
}
// CHECK: warning: cannot schedule this nest: indirect index 'idx[i]'; the loop stays as written [-Wsched-fallback]{{$}}
// NOFLAG: the loop stays as written{{$}}
