// Consecutive #pragma sched lines are one schedule, applied in order: the
// bind on the second line sees the loops the first line's split made.
// RUN: %sched_cc -fplugin-arg-sched-dump=scheduled -fsyntax-only %s | FileCheck %s

void axpy(int n, float a, const float *x, float *y) {
#pragma sched split(i, io, ii, 32)
#pragma sched bind(io, blockIdx.x)
#pragma sched bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
// CHECK-LABEL: after scheduled
// CHECK: for (io, 0, {{.*}}) bind(blockIdx.x) {
// CHECK-NEXT: for (ii, 0, 32) bind(threadIdx.x) {
