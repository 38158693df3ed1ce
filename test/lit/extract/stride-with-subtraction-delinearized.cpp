// A row stride with a subtraction, `i*(2*n - 1) + 2*j` with j < n: the
// column 2*j is at most 2*n - 2, inside a row of 2*n - 1, so the access is
// C[i, 2*j] of a [m, 2*n - 1] array (it used to be "cannot bound the indices
// of 'C'"). The constant factor 2 is no stride: it stays in the column.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s 2>&1 | FileCheck %s

void spread(int *C, int m, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      C[i * (2 * n - 1) + 2 * j] = i;
}
// CHECK-NOT:     cannot schedule
// CHECK-LABEL: func sched_{{.*}}(C: int32*[m, ((n*2) - 1)] global, m: int32, n: int32) target=gpu {
// CHECK:         C[i, (j*2)] = i
