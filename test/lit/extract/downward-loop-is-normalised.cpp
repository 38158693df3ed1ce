// A downward loop (and any constant step) becomes a loop that counts its
// iterations from 0; the counter is `first + v*step` wherever the body uses
// it, and the loop keeps the counter's name for directives. The trip count
// rounds up: (first - bound + stride - 1) / stride for `i > bound`, plus one
// stride's worth for `i >= bound`. A C89 counter's final value follows.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void down(float *x, const float *y, int n) {
  int i;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = n - 2; i >= 0; i--)
    x[i] = y[i + 1];
}
// CHECK-LABEL: func sched_{{.*}}_11(
// CHECK:      for (i, 0, (n - 1)) {
// CHECK-NEXT:   x[((n - 2) + (i*-1))] = y[(((n - 2) + (i*-1)) + 1)]
// CHECK:      // final i = ((n - max((n - 1), 0)) - 2)

void byThreeDown(float *x, int n) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = n; i > 0; i -= 3)
    x[i] = 1.f;
}
// A flat index whose part below the stride is a parameter (`n - 3*i` in rows
// of 3 would be [-i, n], fitting only for n <= 2) stays one-dimensional, with
// no run-time assumption that fails at every real size.
// CHECK-LABEL: func sched_{{.*}}_21(
// CHECK-NOT:  assume
// CHECK:      for (i, 0, ((n + 2)/3)) {
// CHECK-NEXT:   x[(n + (i*-3))] = 1.0f
