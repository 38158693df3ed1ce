// Pure math calls become IR calls, float or double variant by type;
// std::min / std::max become min / max.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s
#include <algorithm>
#include <cmath>

void act(float *y, const float *x, double *z, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i) {
    y[i] = sqrtf(x[i]) + std::exp(x[i]) + std::max(x[i], 0.f);
    z[i] = std::sqrt(z[i]);
  }
}
// CHECK-LABEL: func sched_
// CHECK: y[i] = ((sqrtf(x[i]) + expf(x[i])) + max(x[i], 0.0f))
// CHECK: z[i] = sqrt(z[i])
