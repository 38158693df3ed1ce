// -Rpass=sched (Clang's optimization-remark convention, the pass being
// "sched") says per nest what it became: kernel, grid and block, shared
// memory, stages and barriers.
// RUN: %sched_cc -fsyntax-only -Rpass=sched %s 2>&1 | FileCheck %s

void scale(const float (*A)[64], float (*B)[64]) {
#pragma sched split(i, bx, tx, 16) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, bx)
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      B[i][j] = A[i][j] * 2.f;
}
// CHECK: rpass-sched-describes-each-kernel.cpp:9:3: remark: sched: nest became kernel 'sched_rpass_sched_describes_each_kernel_9': grid (4, 1, 1), block (16, 1, 1), 4096 bytes of shared memory, stages: As (shared), barriers: 1 [-Rpass=sched]{{$}}

void tiles(int n, float *a) {
#pragma sched split(i, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = 1.f;
}
// CHECK: :17:3: remark: sched: nest became kernel '{{.*}}_17': grid (((n + 31)/32), 1, 1), block (32, 1, 1), 0 bytes of shared memory, stages: none, barriers: 0 [-Rpass=sched]{{$}}
