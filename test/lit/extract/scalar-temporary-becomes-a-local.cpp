// A scalar declared before the nest that the nest assigns before every use
// (`t = 0;` opening the loop body, every later use of t in that body) is
// private to the body: the IR declares it there as a local, initialised by
// the assignment, exactly as if it had been written `double t = 0;`.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void rowSums(const double *A, double *y, int n) {
  int i, j;
  double t;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    t = 0;
    for (j = 0; j < n; j++)
      t += A[i * n + j];
    y[i] = t;
  }
}
// CHECK-LABEL: func sched_{{.*}}_11(
// CHECK:      for (i, 0, n) {
// CHECK-NEXT:   allocate t: float64[1] local {
// CHECK-NEXT:     t[0] = 0.0:float64
// CHECK-NEXT:     for (j, 0, n) reduce {
// CHECK-NEXT:       t[0] = (t[0] + A[i, j])
// CHECK-NEXT:     }
// CHECK-NEXT:     y[i] = t[0]

// An integer temporary that is assigned once and never changed is a name for
// its value: the index stays affine.
void reversed(const float *x, float *y, int n) {
  int i, k;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    k = n - 1 - i;
    y[i] = x[k];
  }
}
// CHECK-LABEL: func sched_{{.*}}_32(
// CHECK:      for (i, 0, n) {
// CHECK-NEXT:   y[i] = x[((n - 1) - i)]
