// DESIGN.md section 2's matmul: flat pointers delinearize to A[i, k],
// B[k, j], C[i, j]; the scalar accumulator becomes a local allocation and k
// is the reduction loop.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void matmul(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}
// CHECK-LABEL: func sched_{{.*}}(A: float32*[M, K] global, B: float32*[K, N] global, C: float32*[M, N] global, M: int32, N: int32, K: int32)
// CHECK:      for (i, 0, M) {
// CHECK-NEXT:   for (j, 0, N) {
// CHECK-NEXT:     allocate acc: float32[1] local {
// CHECK-NEXT:       acc[0] = 0.0f
// CHECK-NEXT:       for (k, 0, K) reduce {
// CHECK-NEXT:         acc[0] = (acc[0] + (A[i, k]*B[k, j]))
// CHECK-NEXT:       }
// CHECK-NEXT:       C[i, j] = acc[0]
