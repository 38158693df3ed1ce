// Statements between loops (an imperfect nest) stay where they are, in order.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void rows(float *Y, const float *X, int M, int N) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i) {
    Y[i] = 0.f;
    for (int j = 0; j < N; ++j)
      Y[i] += X[i * N + j];
    Y[i] = Y[i] * 0.5f;
  }
}
// CHECK-LABEL: func sched_{{.*}}(Y: float32*[M] global, X: float32*[M, N] global, M: int32, N: int32)
// CHECK-NEXT:   for (i, 0, M) {
// CHECK-NEXT:     Y[i] = 0.0f
// CHECK-NEXT:     for (j, 0, N) reduce {
// CHECK-NEXT:       Y[i] = (Y[i] + X[i, j])
// CHECK-NEXT:     }
// CHECK-NEXT:     Y[i] = (Y[i]*0.5f)
// CHECK-NEXT:   }
