// A fixed-size local array in the nest is a local allocation of its shape.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void stage(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i) {
    float t[4];
    for (int q = 0; q < 4; ++q)
      t[q] = q;
    y[i] = t[3];
  }
}
// CHECK-LABEL: func sched_
// CHECK:      allocate t: float32[4] local {
// CHECK-NEXT:   for (q, 0, 4) {
// CHECK-NEXT:     t[q] = float32(q)
// CHECK-NEXT:   }
// CHECK-NEXT:   y[i] = t[3]
