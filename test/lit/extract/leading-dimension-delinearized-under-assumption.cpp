// BLAS-style leading dimensions: `C[i*ldc + j]` with j < N names row i,
// column j of a [M, ldc] array exactly when the column stays inside the row,
// N <= ldc. The extractor delinearizes such accesses under that condition,
// which becomes a run-time assumption of the nest (checked by the launcher
// before each launch); an offset column (j + 1) needs N + 1 <= lda.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void addRows(float *C, const float *A, int M, int N, int lda, int ldc) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      C[i * ldc + j] += A[i * lda + j + 1];
}
// CHECK-LABEL: func sched_{{.*}}(C: float32*[M, ldc] global, A: float32*[M, lda] global, M: int32, N: int32, ldc: int32, lda: int32) target=gpu assume((N <= ldc)) assume(((N + 1) <= lda)) {
// CHECK:         C[i, j] = (C[i, j] + A[i, (j + 1)])
