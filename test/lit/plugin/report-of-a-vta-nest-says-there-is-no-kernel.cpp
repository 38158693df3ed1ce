// -fplugin-arg-sched-report on a nest that makes no CUDA kernel (VTA runtime
// calls) says so at the nest instead of saying nothing, and runs no ptxas.
// RUN: env SCHED_PTXAS=/nonexistent/ptxas %sched_cc -fplugin-arg-sched-report -fsyntax-only %s 2>&1 | FileCheck %s

#include <cstdint>

void vadd(const int32_t A[1024], const int32_t B[1024], int8_t C[1024]) {
#pragma sched target(vta)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
#pragma sched split(i, io, ii, 16)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Bb.ax0, dma_copy) pragma(Cb.ax0, dma_copy) pragma(io, alu)
  for (int i = 0; i < 1024; ++i)
    C[i] = (int8_t)(A[i] + B[i]);
}

// CHECK: :12:3: remark: sched: nest '{{.*}}_12' makes no CUDA kernel: nothing for ptxas to report
// CHECK-NOT: warning
