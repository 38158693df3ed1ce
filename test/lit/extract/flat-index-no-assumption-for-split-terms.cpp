// A run-time assumption is made only for the columns of a leading dimension
// (`j < N` in rows of ld: N <= ld). A column that holds a part of a term the
// split could not put under its own stride, with a negative or symbolic
// factor (`j - k` with j, k < M, in rows of M), would need a condition that
// ties sizes nearly every launch keeps apart (M <= 1): the pointer stays
// one-dimensional. A loop of one iteration adds a constant, no dimension:
// the 6 of `3*i + 6*j + k` (j < 1) is no stride, and rows of 3 hold every
// access (rows of 6 would need M <= 2).
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

void oneRowStep(float *A, int M) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < 1; ++j)
      for (int k = 0; k < 3; ++k)
        A[3 * i + 6 * j + k] = 1.f;
}
// CHECK-LABEL: func sched_{{.*}}(A: float32*[M, 3] global, M: int32) target=gpu {
// CHECK:         A[(i + (j*2)), k] = 1.0f
