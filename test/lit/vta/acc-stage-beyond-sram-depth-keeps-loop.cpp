// Hardware limits are compile-time diagnostics through the plugin: a 256x256
// output staged whole in vta.acc needs 4096 accumulator elements (VTA has
// 2048): a warning at the directive that made the stage says by how much, and
// the nest stays as written. Computing the accumulator per row block
// (compute_at(Cb, io)) fits.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s
#include <cstdint>

void whole(const int8_t *A, const int8_t *W, int8_t *C) {
  // expected-warning@+3 {{the stage Cb needs 4096 vta.acc elements: 2048 more than vta.acc holds (2048); the loop stays as written}}
#pragma sched target(vta)
#pragma sched split(j, jo, ji, 16) split(k, ko, ki, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(i, ko, jo, ji, ki) compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(ji, vta.gemm)
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 256; ++j) {
      int acc = 0;
      for (int k = 0; k < 16; ++k)
        acc += A[i * 16 + k] * W[j * 16 + k];
      C[i * 256 + j] = (int8_t)acc;
    }
}

void blocked(const int8_t *A, const int8_t *W, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(i, io, ii, 1) split(j, jo, ji, 16) split(k, ko, ki, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(io, ko, jo, ji, ii, ki) compute_at(Ab, ko) compute_at(Wb, ko) compute_at(Cb, io)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(ji, vta.gemm)
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 256; ++j) {
      int acc = 0;
      for (int k = 0; k < 16; ++k)
        acc += A[i * 16 + k] * W[j * 16 + k];
      C[i * 256 + j] = (int8_t)acc;
    }
}
