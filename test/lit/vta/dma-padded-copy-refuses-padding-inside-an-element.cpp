// The tutorial GEMM with its input shifted by one lane, `ki >= 1 ?
// A[..][ki - 1] : 0`: the input stage's copy is guarded on a lane of an
// element, which no VTA LOAD can pad (it pads whole elements). The nest
// stays as written, with a warning at the DMA pragma saying why.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

#include <cstdint>

void shiftedLanes(const int8_t A[1][16][1][16], const int8_t B[16][16][16][16],
                  int8_t C[1][16][1][16]) {
#pragma sched target(vta)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(B, vta.wgt, Bb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(ko, bo, co, bi, ci, ki) compute_at(Ab, ko) compute_at(Bb, ko)
  // expected-warning@+1 {{pragma(Ab.ax0, dma_copy): the guard `((Ab.ax3 - 1) >= 0)` of the copy is not a rectangular clip: `0 <= (Ab.ax3 - 1)` clips loop 'Ab.ax3' inside a VTA element: VTA pads a 2-D load with whole columns (x) and rows (y)}}
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Bb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(bi, vta.gemm)
  for (int bo = 0; bo < 1; ++bo)
    for (int co = 0; co < 16; ++co)
      for (int bi = 0; bi < 1; ++bi)
        for (int ci = 0; ci < 16; ++ci) {
          int acc = 0;
          for (int ko = 0; ko < 16; ++ko)
            for (int ki = 0; ki < 16; ++ki)
              acc += (ki >= 1 ? A[bo][ko][bi][ki - 1] : 0) * B[co][ko][ci][ki];
          C[bo][co][bi][ci] = (int8_t)acc;
        }
}
