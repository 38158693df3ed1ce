// A `const int` local computed from loop variables is substituted into the
// indices that use it, so they stay affine; a `const float` local is a
// one-element local buffer.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void rows(float *A, int M, int K) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      const int row = i * K;
      const float h = 0.5f;
      A[row + k] = h;
    }
}
// CHECK-LABEL: func sched_{{.*}}(A: float32*[M, K] global, M: int32, K: int32)
// CHECK:      allocate h: float32[1] local {
// CHECK-NEXT:   h[0] = 0.5f
// CHECK-NEXT:   A[i, k] = h[0]
