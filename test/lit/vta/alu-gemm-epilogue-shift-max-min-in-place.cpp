// The epilogue of TVM's matrix_multiply_opt tutorial, folded into the vta.acc
// stage by cache_write: Cb = min(max(Cb >> 8, 0), 127) is a chain on its
// destination: SHR imm 8, MAX imm 0, MIN imm 127 (clipping is max then min),
// each over the elements of Cb; the lane loop ci_2 is gone and each uop names
// the first lane of its element.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-print-after-all %s 2>&1 | FileCheck %s

#include <algorithm>
#include <cstdint>

void gemm(const int8_t A[1][16][1][16], const int8_t B[16][16][16][16], int8_t C[1][16][1][16]) {
#pragma sched target(vta)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(B, vta.wgt, Bb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(ko, bo, co, bi, ci, ki) compute_at(Ab, ko) compute_at(Bb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Bb.ax0, dma_copy) pragma(Cb.ax0, dma_copy) pragma(co_2, alu)
#pragma sched tensorize(bi, vta.gemm)
  for (int bo = 0; bo < 1; ++bo)
    for (int co = 0; co < 16; ++co)
      for (int bi = 0; bi < 1; ++bi)
        for (int ci = 0; ci < 16; ++ci) {
          int acc = 0;
          for (int ko = 0; ko < 16; ++ko)
            for (int ki = 0; ki < 16; ++ki) acc += A[bo][ko][bi][ki] * B[co][ko][ci][ki];
          C[bo][co][bi][ci] = (int8_t)std::min(std::max(acc >> 8, 0), 127);
        }
}

// CHECK-LABEL: after InjectVtaAlu
// CHECK:       for (bo_2, 0, 1) {
// CHECK-NEXT:    for (co_2, 0, 16) {
// CHECK-NEXT:      for (bi_2, 0, 1) {
// CHECK-NEXT:        eval vta.uop_alu(3, Cb[bo_2, co_2, bi_2, 0], 0, 1, 8)
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    for (co_2_1, 0, 16) {
// CHECK-NEXT:      for (bi_2_1, 0, 1) {
// CHECK-NEXT:        eval vta.uop_alu(1, Cb[bo_2, co_2_1, bi_2_1, 0], 0, 1, 0)
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    for (co_2_2, 0, 16) {
// CHECK-NEXT:      for (bi_2_2, 0, 1) {
// CHECK-NEXT:        eval vta.uop_alu(0, Cb[bo_2, co_2_2, bi_2_2, 0], 0, 1, 127)
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-LABEL: after InjectVtaDma
