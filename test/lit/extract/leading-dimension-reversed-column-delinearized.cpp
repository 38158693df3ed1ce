// A row written forwards and read backwards through a leading dimension,
// `A[i*ld + j]` then `A[i*ld + M - 1 - k]` with j, k < M: the reversed column
// lies in [0, M - 1] for every M (its room below is proved), so it needs only
// the condition of the forward one, M <= ld. Both delinearize to rows of ld
// and the row loop binds to blocks (each row is read only by its own
// iteration). Without the reversed column's shape, A stays flat and the bind is
// refused as a loop-carried dependence on A (fuzzer seed 2451).
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s 2>&1 | FileCheck %s

void reverseRows(float *A, const float *B, float *D, int M, int ld) {
#pragma sched target(gpu) bind(i, blockIdx.x)
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < M; ++j)
      A[i * ld + j] = B[i * M + j];
    for (int k = 0; k < M; ++k)
      D[i * M + k] = A[i * ld + M - k - 1];
  }
}
// CHECK-LABEL: func sched_{{.*}}(A: float32*[M, ld] global, {{.*}} target=gpu assume((M <= ld)) {
// CHECK:         A[i, j] = B[i, j]
// CHECK:         D[i, k] = A[i, ((M - k) - 1)]
// CHECK-NOT:     error:
