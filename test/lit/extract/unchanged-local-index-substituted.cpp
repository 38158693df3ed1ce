// A non-const integer local that the rest of its scope never changes
// (`int p = i - 1; y[i] = x[p];`) is a name for its initializer: it is
// substituted into the index, which stays affine (it used to be an
// "indirect index 'p'").
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void prev(const float *x, float *y, int n) {
#pragma sched target(gpu)
  for (int i = 1; i < n; ++i) {
    int p = i - 1;
    y[i] = x[p] + x[i];
  }
}
// CHECK-LABEL: func sched_{{.*}}(y: float32*[n] global, x: float32*[n] global, n: int32)
// CHECK-NOT:  allocate p
// CHECK:      y[i] = (x[(i - 1)] + x[i])
