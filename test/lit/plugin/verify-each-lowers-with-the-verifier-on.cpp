// verify-each runs the kernel verifier after every lowering pass; a
// well-formed nest (here with a cooperative shared stage and its barriers)
// lowers as without it, with no warning.
// RUN: %sched_cc -fplugin-arg-sched-verify-each -fplugin-arg-sched-dump=lowered -fsyntax-only %s 2>&1 | FileCheck %s

void rowsum(const float *A, float *y) {
#pragma sched split(i, io, ii, 32) bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, io)
  for (int i = 0; i < 64; ++i)
    y[i] = A[i] + A[63 - i];
}
// CHECK-NOT: warning
// CHECK-LABEL: // sched: {{.*}} after lowered
// CHECK: sched.syncthreads
// CHECK-NOT: warning
