// dump=scheduled prints the nest after its schedule: split loops with their
// thread bindings; nothing of the other stages.
// RUN: %sched_cc -fplugin-arg-sched-dump=scheduled -fsyntax-only %s | FileCheck %s

void axpy(int n, float a, const float *x, float *y) {
#pragma sched split(i, io, ii, 64) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
// CHECK-NOT: after ir
// CHECK-LABEL: // sched: {{.*}} after scheduled
// CHECK-NEXT: func
// CHECK-NEXT: for (io, 0, {{.*}}) bind(blockIdx.x) {
// CHECK-NEXT: for (ii, 0, 64) bind(threadIdx.x) {
// CHECK-NOT: after lowered
