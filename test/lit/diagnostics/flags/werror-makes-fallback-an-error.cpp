// -Werror makes a sched warning an error, flagged as Clang flags it, and the
// compile fails; -Wno-error=sched-fallback keeps it a warning.
// RUN: not %sched_cc -fsyntax-only -Werror %s 2>&1 | FileCheck %s
// RUN: %sched_cc -fsyntax-only -Werror -Wno-unknown-warning-option -Wno-error=sched-fallback %s 2>&1 | FileCheck %s --check-prefix=KEPT

void gather(int n, float *a, const float *b, const int *idx) {
#pragma sched split(i, bo, ti, 4) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[idx[i]];
}
// CHECK: error: cannot schedule this nest: {{.*}} [-Werror,-Wsched-fallback]{{$}}
// KEPT: warning: cannot schedule this nest: {{.*}} [-Wsched-fallback]{{$}}
