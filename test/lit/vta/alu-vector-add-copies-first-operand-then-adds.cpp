// pragma(io, alu) on TVM's get-started vector add: Cb = Ab + Bb. The ALU
// works in place on Cb, so Cb first becomes a copy of Ab (MIN Ab then MAX Ab:
// max(min(D, S), S) == S whatever D held), then ADD Bb; one loop nest per
// operation, the lane loop ii gone (a uop covers the 16 lanes of an element).
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-print-after-all %s 2>&1 | FileCheck %s

#include <cstdint>

void vadd(const int32_t A[1024], const int32_t B[1024], int8_t C[1024]) {
#pragma sched target(vta)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
#pragma sched split(i, io, ii, 16)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Bb.ax0, dma_copy) pragma(Cb.ax0, dma_copy) pragma(io, alu)
  for (int i = 0; i < 1024; ++i)
    C[i] = (int8_t)(A[i] + B[i]);
}

// CHECK-LABEL: after InjectVtaAlu
// CHECK-NOT:   pragma(alu)
// CHECK:       for (io, 0, 64) {
// CHECK-NEXT:    eval vta.uop_alu(0, Cb[(io*16)], Ab[(io*16)], 0, 0)
// CHECK-NEXT:  }
// CHECK-NEXT:  for (io_1, 0, 64) {
// CHECK-NEXT:    eval vta.uop_alu(1, Cb[(io_1*16)], Ab[(io_1*16)], 0, 0)
// CHECK-NEXT:  }
// CHECK-NEXT:  for (io_2, 0, 64) {
// CHECK-NEXT:    eval vta.uop_alu(2, Cb[(io_2*16)], Bb[(io_2*16)], 0, 0)
// CHECK-NEXT:  }
// CHECK-LABEL: after InjectVtaDma
