// A run-time assumption made by the extractor stays with the nest through
// scheduling and lowering: dump=lowered prints it, and the launch descriptor
// carries it, as a program the launcher evaluates and in its IR.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=lowered %s | FileCheck %s --check-prefix=LOWERED
// RUN: rm -rf %t.dir
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-emit-dir=%t.dir %s
// RUN: cat %t.dir/*.desc | FileCheck %s --check-prefix=DESC

void scaleRows(float *C, int M, int N, int ldc) {
#pragma sched target(gpu) bind(i, blockIdx.x) bind(j, threadIdx.x)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      C[i * ldc + j] *= 2.f;
}
// LOWERED-LABEL: after lowered
// LOWERED-NEXT:  func sched_{{.*}}(C: float32*[(M*ldc)] global, M: int32, N: int32, ldc: int32) target=gpu assume((N <= ldc)) {
// LOWERED:         C[((i*ldc) + j)] = (C[((i*ldc) + j)]*2.0f)

// DESC:      sched-launch-descriptor v2
// DESC:      assume {{.*}} le.int32 ; (N <= ldc)
// DESC:      ir {{[0-9]+}}
// DESC-NEXT: func sched_{{.*}} target=gpu assume((N <= ldc)) {
