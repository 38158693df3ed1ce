// A product the source stores is rounded there: C++ contracts a*b + c into a
// fused multiply-add only within one expression, but ptxas fuses a multiply
// with an add that reads its result across stores to registers and local
// arrays. A stored floating-point product goes through the round-to-nearest
// multiply intrinsics, which ptxas never contracts (seen on an H200: `half t =
// a*b; y = t + c` gave the once-rounded a*b + c); a product inside a larger
// expression, an integer product and a product of an add stay plain.
// RUN: %sched_cc -O2 -fsyntax-only -fplugin-arg-sched-dump=cuda %s | FileCheck %s

void f(_Float16 *h, const _Float16 *g, float *x, double *d, const double *e, int *k, const int *l,
       const float *a, const float *b, int n) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    _Float16 t = g[i] * g[i + 1];
    h[i] = t + g[i + 2];
    float p = a[i] * b[i];
    x[3 * i + 2] = p + 1.f;
    x[3 * i] = -(a[i] * b[i]);
    x[3 * i + 1] = a[i] * b[i] + b[i];
    d[i] = e[i] * e[i + 1];
    k[i] = l[i] * l[i + 1];
  }
}
// CHECK-LABEL: __global__ void {{(__launch_bounds__\([0-9]+\) )?}}sched_
// CHECK:      t[0] = __hmul_rn(g[i], g[i + 1]);
// CHECK-NEXT: h[i] = t[0] + g[i + 2];
// CHECK:      p[0] = __fmul_rn(a[i], b[i]);
// CHECK-NEXT: x[(i * 3) + 2] = p[0] + 1.0f;
// CHECK-NEXT: x[i * 3] = -__fmul_rn(a[i], b[i]);
// CHECK-NEXT: x[(i * 3) + 1] = (a[i] * b[i]) + b[i];
// CHECK-NEXT: d[i] = __dmul_rn(e[i], e[i + 1]);
// CHECK-NEXT: k[i] = l[i] * l[i + 1];
