// When the column provably stays inside the row (j <= n - 1 < n + 1, from the
// loop bounds alone), the split is exact for every argument: no run-time
// assumption is emitted.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void fill(float *C, int M, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < n; ++j)
      C[i * (n + 1) + j] = 1.f;
}
// CHECK-LABEL: func sched_{{.*}}(C: float32*[M, (n + 1)] global, M: int32, n: int32) target=gpu {
// CHECK-NOT:     assume
// CHECK:         C[i, j] = 1.0f
