// At -O1 and above Clang (LLVM's library-call simplifier) computes pow(x, 2)
// as x*x and pow(x, -1) as 1/x, which differ from libm's pow for subnormal
// results; the nest follows the same rule, so sim matches the plain build.
// RUN: %sched_cc -O2 -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s --check-prefix=OPT
// RUN: %sched_cc -O0 -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s --check-prefix=O0
// RUN: %sched_cc -O2 -fno-builtin -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s --check-prefix=O0
#include <cmath>

void f(float *y, const float *x, double *z, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i) {
    y[i] = powf(x[i], 2.f) + std::pow(x[i], -1.f) + powf(x[i], 0.5f);
    z[i] = std::pow(z[i], 2);
  }
}
// OPT: y[i] = (((x[i]*x[i]) + (1.0f/x[i])) + powf(x[i], 0.5f))
// OPT: z[i] = (z[i]*z[i])
// O0: y[i] = ((powf(x[i], 2.0f) + powf(x[i], -1.0f)) + powf(x[i], 0.5f))
// O0: z[i] = pow(z[i], 2.0:float64)
