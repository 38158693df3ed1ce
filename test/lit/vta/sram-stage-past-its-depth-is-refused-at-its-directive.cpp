// A stage that does not fit its SRAM beside the stages live with it is an
// error at the directive that placed it (here its compute_at), naming the
// stage and by how many elements it overflows: the weights of 64 output
// blocks by 17 k blocks are 1088 16x16 tiles, 64 more than VTA's 1024. With
// 16 k blocks (1024 tiles, the whole wgt SRAM) the nest is accepted.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s
#include <cstdint>

void tooWide(const int8_t A[1][17][1][16], const int8_t B[64][17][16][16],
             int8_t C[1][64][1][16]) {
#pragma sched target(vta)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(B, vta.wgt, Bb) cache_write(C, vta.acc, Cb)
  // expected-warning@+1 {{the stage Bb needs 1088 vta.wgt elements: 64 more than vta.wgt holds (1024); the loop stays as written}}
#pragma sched reorder(bo, ko, co, bi, ci, ki) compute_at(Ab, bo) compute_at(Bb, bo)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Bb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(bi, vta.gemm)
  for (int bo = 0; bo < 1; ++bo)
    for (int co = 0; co < 64; ++co)
      for (int bi = 0; bi < 1; ++bi)
        for (int ci = 0; ci < 16; ++ci) {
          int acc = 0;
          for (int ko = 0; ko < 17; ++ko)
            for (int ki = 0; ki < 16; ++ki)
              acc += A[bo][ko][bi][ki] * B[co][ko][ci][ki];
          C[bo][co][bi][ci] = (int8_t)acc;
        }
}

void fits(const int8_t A[1][16][1][16], const int8_t B[64][16][16][16],
          int8_t C[1][64][1][16]) {
#pragma sched target(vta)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(B, vta.wgt, Bb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(bo, ko, co, bi, ci, ki) compute_at(Ab, bo) compute_at(Bb, bo)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Bb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(bi, vta.gemm)
  for (int bo = 0; bo < 1; ++bo)
    for (int co = 0; co < 64; ++co)
      for (int bi = 0; bi < 1; ++bi)
        for (int ci = 0; ci < 16; ++ci) {
          int acc = 0;
          for (int ko = 0; ko < 16; ++ko)
            for (int ki = 0; ki < 16; ++ki)
              acc += A[bo][ko][bi][ki] * B[co][ko][ci][ki];
          C[bo][co][bi][ci] = (int8_t)acc;
        }
}
