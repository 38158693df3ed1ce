// The math table's families become IR calls named by the variant they
// compute in: C float names, std:: overloads on float and double, integer
// arguments promoted to double; std::abs on floating point is fabs.
// RUN: %sched_cc -O2 -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s
#include <cmath>

void f(float *y, const float *x, double *z, const int *k, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i) {
    y[i] = sinf(x[i]) + std::cos(x[i]) + tanf(x[i]) + std::floor(x[i]) + ceilf(x[i]);
    y[i] = roundf(x[i]) + truncf(x[i]) + fmodf(x[i], 2.f) + std::exp2(x[i]) + log2f(x[i]);
    y[i] = log10f(x[i]) + expm1f(x[i]) + std::log1p(x[i]) + atan2f(x[i], 1.f);
    y[i] = hypotf(x[i], 2.f) + copysignf(1.f, x[i]) + fmaf(x[i], 2.f, 1.f) + std::abs(x[i]);
    z[i] = std::sin(z[i]) + fabs(z[i]) + std::abs(z[i]) + std::fma(z[i], z[i], 1.0) + std::sqrt(k[i]);
  }
}
// CHECK-LABEL: func sched_
// CHECK: y[i] = ((((sinf(x[i]) + cosf(x[i])) + tanf(x[i])) + floorf(x[i])) + ceilf(x[i]))
// CHECK: y[i] = ((((roundf(x[i]) + truncf(x[i])) + fmodf(x[i], 2.0f)) + exp2f(x[i])) + log2f(x[i]))
// CHECK: y[i] = (((log10f(x[i]) + expm1f(x[i])) + log1pf(x[i])) + atan2f(x[i], 1.0f))
// CHECK: y[i] = (((hypotf(x[i], 2.0f) + copysignf(1.0f, x[i])) + fmaf(x[i], 2.0f, 1.0f)) + fabsf(x[i]))
// CHECK: z[i] = ((((sin(z[i]) + fabs(z[i])) + fabs(z[i])) + fma(z[i], z[i], 1.0:float64)) + sqrt(float64(k[i])))
