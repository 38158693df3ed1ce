// A `__restrict` pointer is promised not to alias: its buffer is noalias; a
// plain pointer is not.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void copy(float *__restrict y, const float *x, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
}
// CHECK-LABEL: func sched_{{.*}}(y: float32*[n] global noalias, x: float32*[n] global, n: int32)
