// Clang's implicit conversions become explicit casts: int to float, float to
// double and back, and an int8 buffer promoted to int.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s
#include <cstdint>

void conv(float *y, const int8_t *q, int n, double s) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    y[i] = q[i] * s + i / 2;
}
// CHECK-LABEL: func sched_{{.*}}(y: float32*[n] global, q: int8*[n] global, n: int32, s: float64)
// CHECK: y[i] = float32(((float64(int32(q[i]))*s) + float64((i/2))))
