// A loop of one iteration adds a constant to a flat index, no dimension: its
// coefficient is no stride. `D[i + 2*j]` (j < 1, i < M) stays
// one-dimensional instead of becoming D[j, i] of rows of 2 under the
// assumption M <= 2, and `3*i + 6*j + k` (k < 3) gets rows of 3, which hold
// every access, instead of rows of 6, which would need M <= 2 (seen by the
// fuzzer: the kernels never ran). A symbolic coefficient still names a row
// length the program uses: `B[i*ld + j]` with i < 1 is B[i, j] of rows of
// ld.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void oneIteration(float *D, int M) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < 1; ++j)
      D[i + 2 * j] = 1.f;
}
// CHECK-LABEL: func sched_{{.*}}(D: float32*[M] global, M: int32) target=gpu {
// CHECK:         D[(i + (2*j))] = 1.0f

void oneRowStep(float *A, int M) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < 1; ++j)
      for (int k = 0; k < 3; ++k)
        A[3 * i + 6 * j + k] = 1.f;
}
// CHECK-LABEL: func sched_{{.*}}(A: float32*[M, 3] global, M: int32) target=gpu {
// CHECK:         A[(i + (j*2)), k] = 1.0f

void leadingDimensionOfOneRow(float *B, int M, int ld) {
#pragma sched target(gpu)
  for (int i = 0; i < 1; ++i)
    for (int j = 0; j < M; ++j)
      B[i * ld + j] = 1.f;
}
// CHECK-LABEL: func sched_{{.*}}(B: float32*[1, ld] global, M: int32, ld: int32) target=gpu assume((M <= ld)) {
// CHECK:         B[i, j] = 1.0f
