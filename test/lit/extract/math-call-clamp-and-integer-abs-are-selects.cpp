// std::clamp is the standard's comparison chain (the same for NaN as
// libstdc++), integer abs a select: neither is a call.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s
#include <algorithm>
#include <cstdlib>

void f(float *y, const float *x, int *k, long *l, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i) {
    y[i] = std::clamp(x[i], -1.f, 1.f);
    k[i] = std::abs(k[i] - 3);
    l[i] = labs(l[i]);
  }
}
// CHECK-LABEL: func sched_
// CHECK: y[i] = select((x[i] < -1.0f), -1.0f, select((1.0f < x[i]), 1.0f, x[i]))
// CHECK: k[i] = select(((k[i] - 3) < 0), -((k[i] - 3)), (k[i] - 3))
// CHECK: l[i] = select((l[i] < 0:int64), -(l[i]), l[i])
