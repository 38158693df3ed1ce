// VTA's GEMM reads a weight tile as 16x16 bytes, [j][k] with k fastest. A
// weight indexed W[k * 16 + j] stages into a 16x16 tile too, but k-major: its
// row and column strides are swapped (1 along j, 16 along k). Taken as a
// weight tile it would multiply by W transposed; tensorize refuses it, naming
// the rule, and the nest stays as written. The same nest over W[j * 16 + k]
// is accepted.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s
#include <cstdint>

void kMajor(const int8_t *A, const int8_t *W, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(k, ko, ki, 16) reorder(i, ko, j, ki)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
  // expected-warning@+1 {{tensorize(j, vta.gemm): the weight `Wb[ki, j]` must hold row 'j' 16 elements apart and 'ki' contiguous: VTA reads a weight tile as 16x16 bytes, [j][k] with k fastest}}
#pragma sched tensorize(j, vta.gemm)
  for (int i = 0; i < 1; ++i)
    for (int j = 0; j < 16; ++j) {
      int acc = 0;
      for (int k = 0; k < 16; ++k)
        acc += A[i * 16 + k] * W[k * 16 + j];
      C[i * 16 + j] = (int8_t)acc;
    }
}

void jMajor(const int8_t *A, const int8_t *W, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(k, ko, ki, 16) reorder(i, ko, j, ki)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(j, vta.gemm)
  for (int i = 0; i < 1; ++i)
    for (int j = 0; j < 16; ++j) {
      int acc = 0;
      for (int k = 0; k < 16; ++k)
        acc += A[i * 16 + k] * W[j * 16 + k];
      C[i * 16 + j] = (int8_t)acc;
    }
}
