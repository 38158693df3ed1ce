// Parameters: buffers first, then scalars, each in order of first appearance
// in the nest (not declaration order).
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void axpby(float beta, const float *x, float *y, float alpha, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    y[i] = alpha * x[i] + beta * y[i];
}
// CHECK-LABEL: func sched_{{.*}}(y: float32*[n] global, x: float32*[n] global, n: int32, alpha: float32, beta: float32)
// CHECK:         y[i] = ((alpha*x[i]) + (beta*y[i]))
