// `if` becomes IfThenElse and `?:` becomes select.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void relu(float *y, const float *x, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i) {
    if (i % 2 == 0 && x[i] > 0.f)
      y[i] = x[i];
    else
      y[i] = x[i] < -1.f ? -1.f : 0.f;
  }
}
// CHECK-LABEL: func sched_
// CHECK:      if ((((i % 2) == 0) && (x[i] > 0.0f))) {
// CHECK-NEXT:   y[i] = x[i]
// CHECK-NEXT: } else {
// CHECK-NEXT:   y[i] = select((x[i] < -1.0f), -1.0f, 0.0f)
