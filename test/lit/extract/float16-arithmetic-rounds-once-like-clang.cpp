// Clang computes _Float16 arithmetic in float on x86 (excess precision, its
// default there) and rounds to half once where the value leaves the
// arithmetic. The nest's IR says so: a chain of operations is float with one
// float16() at its end; a single operation stays a half operation (the same
// bits); with -ffloat16-excess-precision=none every operation is half.
// RUN: %sched_cc -O2 -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s
// RUN: %sched_cc -O2 -Xclang -ffloat16-excess-precision=none -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s --check-prefix=NONE

void f(_Float16 *y, _Float16 *acc, float *g, const _Float16 *a, const _Float16 *b,
       const _Float16 *c, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i) {
    y[i] = a[i] * b[i] + c[i];
    y[i] = a[i] * b[i];
    acc[i] += a[i] * b[i];
    acc[i] += a[i];
    g[i] = a[i] * b[i] + c[i];
    y[i] = a[i] * b[i] < c[i] ? -(a[i] * b[i]) : c[i];
  }
}
// CHECK-LABEL: func sched_
// CHECK:      y[i] = float16(((float32(a[i])*float32(b[i])) + float32(c[i])))
// CHECK-NEXT: y[i] = (a[i]*b[i])
// CHECK-NEXT: acc[i] = float16((float32(acc[i]) + (float32(a[i])*float32(b[i]))))
// CHECK-NEXT: acc[i] = (acc[i] + a[i])
// CHECK-NEXT: g[i] = float32(float16(((float32(a[i])*float32(b[i])) + float32(c[i]))))
// CHECK-NEXT: y[i] = select(((a[i]*b[i]) < c[i]), -((a[i]*b[i])), c[i])

// NONE-LABEL: func sched_
// NONE:      y[i] = ((a[i]*b[i]) + c[i])
// NONE:      acc[i] = (acc[i] + (a[i]*b[i]))
