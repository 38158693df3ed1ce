// The CUDA code computes a _Float16 chain in float and converts to half once,
// as the host compiler does (excess precision); a single half operation
// stays a half operation.
// RUN: %sched_cc -O2 -fsyntax-only -fplugin-arg-sched-dump=cuda %s | FileCheck %s

void f(_Float16 *y, const _Float16 *a, const _Float16 *b, const _Float16 *c, int n) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    y[i] = a[i] * b[i] + c[i];
    y[i] = a[i] * b[i];
  }
}
// CHECK-LABEL: __global__ void {{(__launch_bounds__\([0-9]+\) )?}}sched_
// CHECK: y[i] = __float2half((float)((((float)__half2float(a[i])) * ((float)__half2float(b[i]))) + ((float)__half2float(c[i]))));
// CHECK-NEXT: y[i] = __hmul_rn(a[i], b[i]);
