// Canonical loop forms: `<=`, `i += 1`, `i = i + 1`, an existing variable,
// and size_t / long / unsigned induction variables.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s
#include <cstddef>

void forms(float *A, std::size_t n, long m, unsigned u, int t) {
  int i;
#pragma sched target(gpu)
  for (i = 0; i <= t; i += 1)
    for (std::size_t j = 0; j < n; j = j + 1)
      for (long k = 1; k < m; k++)
        for (unsigned l = 0; l < u; ++l)
          A[l] = 0.f;
}
// CHECK-LABEL: func sched_
// CHECK-NEXT: for (i, 0, (t + 1)) {
// Unsigned loops count in int64 from the first value to the bound as the
// comparison sees them; uses of the counter convert it to the declared type
// (an index in int64 arithmetic needs no conversion).
// CHECK-NEXT:   for (j, 0:int64, int64(n)) {
// CHECK-NEXT:     for (k, 1:int64, (m - 1:int64)) {
// CHECK-NEXT:       for (l, 0:int64, int64(u)) {
// CHECK-NEXT:         A[l] = 0.0f
