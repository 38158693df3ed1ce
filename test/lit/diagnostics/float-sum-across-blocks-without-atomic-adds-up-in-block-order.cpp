// A floating-point sum bound to blockIdx without atomic(s) is accepted: the
// blocks' partial results are added up in block order by the last block to
// finish, so the result has the same bits on every run, and -Rpass=sched says
// so at the bind. With atomic(s) the blocks add up as they finish (its own
// remark). Integer sums and min/max are exact in any order and get no remark.
// RUN: %sched_cc -fsyntax-only -Rpass=sched %s 2>&1 | FileCheck %s

#include <cmath>

void float_sum(int n, const float *x, float *s) {
#pragma sched target(gpu) split(k, kb, ki, 64) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    s[0] += x[k];
}
// CHECK: :11:53: remark: sched: the blocks' partial results for 's' are added up in block order by the last block to finish (the same bits on every run; atomic(s) would add them as the blocks finish instead) [-Rpass=sched]
// CHECK: :12:3: remark: sched: nest became kernel

void double_sum(int n, const double *x, double *d) {
#pragma sched target(gpu) bind(k, blockIdx.x)
  for (int k = 0; k < n; k++)
    d[0] += x[k];
}
// CHECK: :19:32: remark: sched: the blocks' partial results for 'd' are added up in block order
// CHECK: :20:3: remark: sched: nest became kernel

void int_sum(int n, const int *x, int *t) {
#pragma sched target(gpu) split(k, kb, ki, 64) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    t[0] += x[k];
}

void float_max(int n, const float *x, float *m) {
#pragma sched target(gpu) split(k, kb, ki, 64) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    m[0] = std::fmax(m[0], x[k]);
}
// CHECK-NOT: for 't'
// CHECK-NOT: for 'm'
