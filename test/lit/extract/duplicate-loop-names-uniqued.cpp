// Two sibling loops with the same induction variable name get distinct,
// deterministic names: the first keeps `j`, the second is `j_1`.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void twice(float *A, float *B, int M, int N) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j)
      A[i * N + j] = 1.f;
    for (int j = 0; j < N; ++j)
      B[i * N + j] = 2.f;
  }
}
// CHECK-LABEL: func sched_
// CHECK:      for (j, 0, N) {
// CHECK-NEXT:   A[i, j] = 1.0f
// CHECK:      for (j_1, 0, N) {
// CHECK-NEXT:   B[i, j_1] = 2.0f
