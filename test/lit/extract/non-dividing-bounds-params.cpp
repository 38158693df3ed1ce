// Bounds from parameters, with a non-zero start and an inclusive end:
// extent hi - lo + 1, and the buffer covers index hi.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void range(float *y, int lo, int hi) {
#pragma sched target(gpu)
  for (int i = lo; i <= hi; ++i)
    y[i] = 1.f;
}
// CHECK-LABEL: func sched_{{.*}}(y: float32*[(hi + 1)] global, lo: int32, hi: int32)
// CHECK-NEXT:   for (i, lo, ((hi - lo) + 1)) {
