// print-after-all prints the nest after extraction, scheduling, every
// lowering pass (named by the pipeline) and code generation, in that order.
// RUN: %sched_cc -fplugin-arg-sched-print-after-all -fsyntax-only %s | FileCheck %s

void axpy(int n, float a, const float *x, float *y) {
#pragma sched split(i, io, ii, 64) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
// CHECK: // sched: [[NAME:sched_[a-z_]+_[0-9]+]] after ir
// CHECK: // sched: [[NAME]] after scheduled
// CHECK: // sched: [[NAME]] after {{[A-Za-z]+}}
// CHECK: // sched: [[NAME]] after lowered
// CHECK: // sched: [[NAME]] after cuda
