// Counters declared before the nest get the values the original loop leaves
// in them (the launcher stores them after a kernel ran): the first value plus
// the trip count, never below the first value; an inner loop's counter only
// when the loops around it ran. Inside the nest, a counter read after its
// loop is that value, and a second loop over the same counter is `j_1`.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void counters(float *A, int M, int N) {
  int i, j;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < M; i++) {
    for (j = 1; j <= N; j++)
      A[i * 16 + j] = 1.f;
    A[i * 16] = j;
    for (j = 0; j < 4; ++j)
      A[i * 16 + j] += 2.f;
  }
}
// CHECK-LABEL: func sched_
// CHECK:      for (j, 1, N) {
// CHECK:      A[i, 0] = float32((max(N, 0) + 1))
// CHECK:      for (j_1, 0, 4) {
// CHECK:      // final i = max(M, 0)
// CHECK-NEXT: // final j = 4 when (M > 0)
