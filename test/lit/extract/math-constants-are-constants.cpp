// The math constants are calls Clang evaluates (`INFINITY` is
// `__builtin_inff()`, `NAN` `__builtin_nanf("")`), and so are constexpr
// functions such as std::numeric_limits<float>::max(): each is its value in
// the IR, not a call that may have side effects.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s
#include <cmath>
#include <limits>

void consts(float *y, double *z, int n) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    y[i] = -INFINITY;
    y[i + n] = NAN;
    y[i + 2 * n] = std::numeric_limits<float>::max();
    z[i] = HUGE_VAL;
  }
}
// CHECK-LABEL: func sched_{{.*}}_11(
// CHECK:      y[i] = -inff
// CHECK-NEXT: y[(i + n)] = nanf
// CHECK-NEXT: y[(i + (2*n))] = 3.4028235e+38f
// CHECK-NEXT: z[i] = inf
