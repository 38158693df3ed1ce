// A weight stage keeps the weights' layout: staged outside the loop of the k
// blocks, a row of the row-major W[N][K] holds all of K (64), so a 16x16 tile
// of the stage has its rows 64 apart, where VTA reads a tile as 256
// contiguous bytes. Tensorize says so and how to fix it (wholeK); the same
// stage computed at the k block loop ko is accepted (perBlock).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s
#include <cstdint>

void wholeK(const int8_t *A, const int8_t *W, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(j, jo, ji, 16) split(k, ko, ki, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(i, jo, ko, ji, ki) compute_at(Ab, ko) compute_at(Wb, jo)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
  // expected-warning@+1 {{tensorize(ji, vta.gemm): the weight stage Wb holds 64 k in a row (several blocks of 16): the rows of a tile `Wb[ji, ((ko*16) + ki)]` are 64 apart in it, and VTA reads a weight tile as 256 contiguous bytes, [j][k]; compute the stage at the loop of the k blocks, or store the weights tile by tile ([N/16][K/16][16][16])}}
#pragma sched tensorize(ji, vta.gemm)
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 32; ++j) {
      int acc = 0;
      for (int k = 0; k < 64; ++k)
        acc += A[i * 64 + k] * W[j * 64 + k];
      C[i * 32 + j] = (int8_t)acc;
    }
}

void perBlock(const int8_t *A, const int8_t *W, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(j, jo, ji, 16) split(k, ko, ki, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(i, jo, ko, ji, ki) compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(ji, vta.gemm)
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 32; ++j) {
      int acc = 0;
      for (int k = 0; k < 64; ++k)
        acc += A[i * 64 + k] * W[j * 64 + k];
      C[i * 32 + j] = (int8_t)acc;
    }
}
