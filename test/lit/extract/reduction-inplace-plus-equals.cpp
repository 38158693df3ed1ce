// `C[..] += ...` inside k, with an index that does not depend on k: k is a
// reduction loop; the spatial loops i and j are not.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void mm(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        C[i * N + j] += A[i * K + k] * B[k * N + j];
}
// CHECK-LABEL: func sched_
// CHECK:      for (i, 0, M) {
// CHECK-NEXT:   for (j, 0, N) {
// CHECK-NEXT:     for (k, 0, K) reduce {
// CHECK-NEXT:       C[i, j] = (C[i, j] + (A[i, k]*B[k, j]))
