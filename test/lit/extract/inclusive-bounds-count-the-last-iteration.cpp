// An inclusive bound counts its last iteration whichever way it is written and
// in whichever type the comparison is made: the extent is bound - start + 1
// for `n >= i` and `i <= n`, signed, unsigned (counted in int64) and mixed
// (`int k <= size_t z` compares as unsigned: a negative start runs zero times).
// Issue 17: `n >= i` read as `n > i`, and the `+ 1` of an unsigned `i <= n`
// dropped, went unnoticed (the e2e test loop-forms-run-every-iteration runs
// each form).
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s 2>&1 | FileCheck %s
#include <cstddef>

void inclusive(float *y, int s, int n, unsigned u, unsigned v, std::size_t z, long l) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = s; n >= i; ++i)
    for (long h = l; h <= n; ++h)
      for (unsigned j = u; j <= v; ++j)
        for (unsigned g = u; v >= g; ++g)
          for (int k = s; k <= z; ++k)
            for (std::size_t m = z; n >= m; ++m)
              y[i] = 0.f;
}
// CHECK-LABEL: func sched_
// CHECK-NEXT: for (i, s, ((n - s) + 1)) {
// CHECK-NEXT:   for (h, l, ((int64(n) - l) + 1:int64)) {
// CHECK-NEXT:     for (j, int64(u), ((int64(v) - int64(u)) + 1:int64)) {
// CHECK-NEXT:       for (g, int64(u), ((int64(v) - int64(u)) + 1:int64)) {
// CHECK-NEXT:         for (k, s, int32(select((int64(s) < 0:int64), 0:int64, ((int64(z) - int64(uint64(s))) + 1:int64)))) {
// CHECK-NEXT:           for (m, int64(z), ((int64(uint64(n)) - int64(z)) + 1:int64)) {
