// A local accumulator written as `s = s + ...`: a one-element local buffer,
// initialized by a store; the loop updating it is a reduction, the loop
// around its declaration is not (each iteration has its own `s`).
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void rowsum(const double *X, double *Y, int M, int K) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i) {
    double s = 0.0;
    for (int k = 0; k < K; ++k)
      s = s + X[i * K + k];
    Y[i] = s;
  }
}
// CHECK-LABEL: func sched_
// CHECK:      for (i, 0, M) {
// CHECK-NEXT:   allocate s: float64[1] local {
// CHECK-NEXT:     s[0] = 0.0:float64
// CHECK-NEXT:     for (k, 0, K) reduce {
// CHECK-NEXT:       s[0] = (s[0] + X[i, k])
// CHECK-NEXT:     }
// CHECK-NEXT:     Y[i] = s[0]
