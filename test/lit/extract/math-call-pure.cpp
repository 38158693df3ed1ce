// Pure math calls become IR calls, float or double variant by type;
// std::min / std::max on integers become min / max; on floating point the
// standard's comparison (std::max(a, b) is a < b ? b : a).
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
// CHECK: y[i] = ((sqrtf(x[i]) + expf(x[i])) + select((x[i] < 0.0f), 0.0f, x[i]))
// CHECK: z[i] = sqrt(z[i])
