// VTA's GEMM reads a weight tile as 16x16 bytes, [j][k] with k fastest. A
// weight indexed W[k * 16 + j] stages k-major, Wb[k][j]; tensorize stores a
// stage of one k block transposed, [j][k], which is the tile (accepted:
// kMajorPerBlock). A stage of two k blocks stored [j][k] holds a tile's rows
// 32 apart, no tile VTA reads: refused, naming the rule, and the nest stays
// as written (kMajorTwoBlocks).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s
#include <cstdint>

void kMajorPerBlock(const int8_t *A, const int8_t *W, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(k, ko, ki, 16) reorder(i, ko, j, ki)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(j, vta.gemm)
  for (int i = 0; i < 1; ++i)
    for (int j = 0; j < 16; ++j) {
      int acc = 0;
      for (int k = 0; k < 32; ++k)
        acc += A[i * 32 + k] * W[k * 16 + j];
      C[i * 16 + j] = (int8_t)acc;
    }
}

void kMajorTwoBlocks(const int8_t *A, const int8_t *W, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(k, ko, ki, 16) reorder(i, ko, j, ki)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched compute_at(Ab, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
  // expected-warning@+1 {{tensorize(j, vta.gemm): the weight `Wb[((ko*16) + ki), j]` is k-major and its stage Wb holds 32 rows of k: a k-major weight stage is stored transposed, [j][k], which is VTA's weight tile only when it holds one block of 16 k (compute it at the loop of the k blocks)}}
#pragma sched tensorize(j, vta.gemm)
  for (int i = 0; i < 1; ++i)
    for (int j = 0; j < 16; ++j) {
      int acc = 0;
      for (int k = 0; k < 32; ++k)
        acc += A[i * 32 + k] * W[k * 16 + j];
      C[i * 16 + j] = (int8_t)acc;
    }
}
