// Bounds affine in the enclosing loops' counters are extracted as written
// (j <= i: extent i + 1; k from i + 1), ?: clamps become min and max, and a
// counter of a triangular loop read after the nest is its last execution's
// value (the one at i's last value).
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void syrk(double (&C)[16][16], const double (&A)[16][16], int n) {
  int i, j;
#pragma sched target(gpu) bind(i, blockIdx.x) bind(j, threadIdx.x)
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++)
      C[i][j] += A[i][0] * A[j][0];
  C[0][0] = j;
}
// CHECK-LABEL: func sched_triangular_and_clamped_bounds_in_ir_
// CHECK:      for (i, 0, n) {
// CHECK-NEXT:   for (j, 0, (i + 1)) {
// CHECK:      // final i = max(n, 0)
// CHECK-NEXT: // final j = max(n, 0) when (n > 0)

void trmm(double (&B)[16][16], const double (&L)[16][16], int n) {
#pragma sched target(gpu) bind(j, threadIdx.x)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = i + 1; k < n; k++)
        B[i][j] += L[k][i] * B[k][j];
}
// CHECK-LABEL: func sched_triangular_and_clamped_bounds_in_ir_
// CHECK:      for (k, (i + 1), ((n - i) - 1)) reduce {

void band(double (&Y)[16], const double (&L)[16][16], int n) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < n; i++)
    for (int j = (i - 2 > 0 ? i - 2 : 0); j < (n < i + 3 ? n : i + 3); j++)
      Y[i] += L[i][j];
}
// CHECK-LABEL: func sched_triangular_and_clamped_bounds_in_ir_
// CHECK:      for (j, max((i - 2), 0), (min(n, (i + 3)) - max((i - 2), 0))) reduce {
