// A flat index splits into rows and columns with every part of a term under
// the outermost stride that divides it: `M*i + M - k - 1` (rows of M) gives
// row i + 1, column -1 - k, whose column fits its row only if M <= 0, an
// assumption no launch satisfies (the kernel never ran). Moving a whole row
// back into the column gives row i, column M - 1 - k, inside its row for
// every M: no assumption, and the rows the nest touches are 4, not 5.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void reverseRows(float *A, const float *B, float *C, int M) {
#pragma sched target(gpu)
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < M; ++j)
      A[M * i + j] = B[M * i + j];
    for (int k = 0; k < M; ++k)
      C[M * i + k] = A[M * i + M - k - 1];
  }
}
// CHECK-LABEL: func sched_{{.*}}(A: float32*[4, M] global, B: float32*[4, M] global, C: float32*[4, M] global, M: int32) target=gpu {
// CHECK:         C[i, k] = A[i, ((M - k) - 1)]
