// `j < min(M, i)` with i < 16 stays below both 15 and M. The hull that
// prefers the constant arm (j <= 14) would need rows of 12*M to hold
// 12*14 + 11, an assumption 15 <= M that fails at every smaller M (the
// kernel then never runs: sched-fuzz seeds 62605, 62641, 62647); the arm M
// (j <= M - 1) proves every column fits its row, so that hull is taken and
// no assumption is made. Where the constant is the arm written and the other
// comes through a loop (`k < min(3, j + 1)`), the constant stays.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void bySize(float *A, int M) {
#pragma sched target(gpu)
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < (M < i ? M : i); j++)
      for (int k = 0; k < 12; k++)
        A[12 * M * i + 12 * j + k] = 1.f;
}
// CHECK-LABEL: func sched_{{.*}}(A: float32*[16, M, 12] global, M: int32) target=gpu {
// CHECK-NOT:     assume
// CHECK:         A[i, j, k] = 1.0f


void bySizeAndConstant(int *A, const int *B, int M) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < (M < 5 ? M : 5); ++j)
      for (int k = 0; k < (3 < j + 1 ? 3 : j + 1); ++k)
        A[i] += B[3 * M * i + 3 * j + k];
}
// CHECK-LABEL: func sched_{{.*}}(A: int32*[M] global, B: int32*[M, M, 3] global, M: int32) target=gpu {
// CHECK-NOT:     assume
// CHECK:         B[i, j, k]
