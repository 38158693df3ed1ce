// `int i < n` with `size_t n` (compared as unsigned) and a size_t loop
// variable are canonical loops; the unsigned loop counts in int64 from its
// first value, so x[i*n + j - 1] stays affine and is delinearized.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s
#include <cstddef>

void f(float *y, const float *x, std::size_t n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    for (std::size_t j = 1; j < n; ++j)
      y[i * n + j] = x[i * n + j - 1];
}
// CHECK-LABEL: func sched_{{.*}} n: uint64) target=gpu {
// CHECK-NEXT: for (i, 0, int32(int64(n))) {
// CHECK-NEXT:   for (j, 1:int64, (int64(n) - 1:int64)) {
// CHECK-NEXT:     y[int64(i), j] = x[int64(i), (j - 1:int64)]
