// A scalar temporary of the nest that the program reads after it (C89: `double
// t;` at the top, `return t;` after the nest) is private to each iteration,
// and the run of its block at the last iteration of every loop around it
// stores its value into the variable itself: a one-element buffer `t_final`
// at t's address (the launcher copies it in and out, so where no iteration
// runs t keeps its value).
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s 2>&1 | FileCheck %s --implicit-check-not=warning:

double lastRow(const double *A, double *y, int n, int m) {
  int i, j;
  double t = -1;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    t = 0;
    for (j = 0; j < m; j++)
      t += A[i * m + j];
    y[i] = t;
  }
  return t;
}
// CHECK-LABEL: func sched_{{.*}}(t_final: float64*[1] global, A: float64*[n, m] global, y: float64*[n] global, n: int32, m: int32)
// CHECK:         for (i, 0, n) {
// CHECK-NEXT:      allocate t: float64[1] local {
// CHECK:             y[i] = t[0]
// CHECK-NEXT:        if ((i == (n - 1))) {
// CHECK-NEXT:          t_final[0] = t[0]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
