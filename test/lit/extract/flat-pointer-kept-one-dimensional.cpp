// When an inner index can leave its dimension (k + 1 reaches K), the split
// would name another element: the buffer stays one-dimensional, sized to
// cover every index the nest touches.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void shift(float *Out, const float *A, int M, int K) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      Out[i * K + k] = A[i * K + k + 1];
}
// CHECK-LABEL: func sched_{{.*}}(Out: float32*[M, K] global, A: float32*[{{[^,]*}}] global, M: int32, K: int32)
// CHECK:         Out[i, k] = A[(((i*K) + k) + 1)]
