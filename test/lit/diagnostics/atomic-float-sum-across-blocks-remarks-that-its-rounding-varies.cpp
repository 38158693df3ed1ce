// With atomic(s), a floating-point sum bound to blocks is accepted and
// -Rpass=sched says, at the bind, that the blocks add up in the order they
// finish, so the sum's last bits may differ from run to run; an integer sum,
// exact in any order, gets no such remark.
// RUN: %sched_cc -fsyntax-only -Rpass=sched %s 2>&1 | FileCheck %s

void float_sum(int n, const float *x, float *s) {
#pragma sched target(gpu) split(k, kb, ki, 64) atomic(s) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    s[0] += x[k];
}

void int_sum(int n, const int *x, int *t) {
#pragma sched target(gpu) split(k, kb, ki, 64) atomic(t) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    t[0] += x[k];
}

// CHECK:     :8:63: remark: sched: the blocks add their partial results to 's' atomically, in the order they finish: the float32 sum's last bits may differ from run to run (atomic(s)) [-Rpass=sched]
// CHECK-NOT: 't' atomically
