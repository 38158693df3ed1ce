// A run-time assumption is made only for the columns of a leading dimension
// (`j < N` in rows of ld: N <= ld), and only one that positive sizes can
// satisfy. A column holding a part of a term the split could not put under
// its own stride, with a negative or symbolic factor (`j - k` with j, k < M,
// in rows of M), would need a condition that ties sizes nearly every launch
// keeps apart (M <= 1); a column `j + N` with j < M in rows of M needs
// N <= 0, which no launch satisfies (the kernel would never run). Both
// pointers stay one-dimensional, under no assumption.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void differences(float *A, float *C, int M) {
#pragma sched target(gpu)
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < M; ++k)
        C[M * i + j] += A[M * i + j - k + M];
}
// CHECK-LABEL: func sched_{{.*}}(C: float32*[4, M] global, A: float32*[(M*5)] global, M: int32) target=gpu {
// CHECK:         C[i, j] = (C[i, j] + A[((((M*i) + j) - k) + M)])

void columnPastTheRow(float *A, int M, int N) {
#pragma sched target(gpu)
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < M; ++j)
      A[M * i + j + N] = 1.f;
}
// CHECK-LABEL: func sched_{{.*}}(A: float32*[((M*4) + N)] global, M: int32, N: int32) target=gpu {
// CHECK:         A[(((M*i) + j) + N)] = 1.0f
