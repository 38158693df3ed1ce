// A template argument bound is a constant in each instantiation.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

template <int N> void fill(float *A) {
#pragma sched target(gpu)
  for (int i = 0; i < N; ++i)
    A[i] = 2.f;
}
template void fill<24>(float *);
// CHECK-LABEL: func sched_{{.*}}(A: float32*[24] global)
// CHECK-NEXT:   for (i, 0, 24) {
// CHECK-NEXT:     A[i] = 2.0f
