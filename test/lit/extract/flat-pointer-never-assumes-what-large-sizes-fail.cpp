// A pointer's sizes are unbounded, so a run-time assumption that every large
// enough size fails (`M <= 1`, `M <= 2`) would make nearly every launch run
// the original loop. The extractor makes none: where no shape holds the
// accesses without one, the pointer stays one-dimensional (columns `j - k`,
// j, k < M, span 2*M - 1 elements, more than a row of M); where another
// chain of strides does, that one is taken (the 6 of `3*i + 6*j + k`, j < 1,
// is no stride: the column `3*i + k` fits a row of 6 only for M <= 2, while
// rows of 3 hold every access).
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
