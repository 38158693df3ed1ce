// `A[i*K + 2*k]` with k < K: the column 2*k reaches 2*K - 2, past a row of K
// for every K > 1. Delinearizing under the assumption 2*K - 1 <= K would make
// nearly every launch fall back to the original loop, so the buffer stays
// one-dimensional (correct for every K) and no assumption is made.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void evens(float *A, int M, int K) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      A[i * K + 2 * k] = 0.f;
}
// CHECK-LABEL: func sched_{{.*}}(A: float32*[{{[^,]*}}] global, M: int32, K: int32) target=gpu {
// CHECK:         A[((i*K) + (2*k))] = 0.0f
