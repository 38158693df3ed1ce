// dump=lowered prints the nest after the lowering pipeline (flattened
// buffers), and only that stage.
// RUN: %sched_cc -fplugin-arg-sched-dump=lowered -fsyntax-only %s | FileCheck %s

void axpy(int n, float a, const float *x, float *y) {
#pragma sched split(i, io, ii, 64) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
// CHECK-NOT: after scheduled
// CHECK-LABEL: // sched: {{.*}} after lowered
// CHECK-NEXT: func
// CHECK: bind(threadIdx.x)
// CHECK-NOT: after cuda
