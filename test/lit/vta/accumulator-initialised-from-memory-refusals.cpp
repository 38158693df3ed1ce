// What stays refused of an accumulator initialised from memory (each nest
// stays as written, with the reason): VTA's ACC LOAD moves int32, or int8
// sign-extended, so an int16 bias is refused; it moves whole 16-lane
// elements, so a bias read every other scalar is refused; an initial value
// computed from memory (Bias[j] * 2) is no copy, so no LOAD. And in place,
// where an element of C is read after the nest wrote it (every row i reads
// and writes C[j] again), the stage must keep the narrowed value the read
// would see: the narrowing stays, and VTA has no operation for it. The last
// nest, C accumulated in place row by row, is accepted.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s
#include <cstdint>
void int16Bias(const int8_t *A, const int8_t *W, const int16_t *Bias, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(j, jo, ji, 16) split(k, ko, ki, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(i, ko, jo, ji, ki) compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(ji, vta.gemm)
  // expected-warning@+1 {{the load of an accumulator's initial value into vta.acc: `Cb[i, ((jo_1*16) + ji_1)] = int32(Bias[((jo_1*16) + ji_1)])` loads int16 into vta.acc; VTA loads int32, or int8 sign-extended, into vta.acc}}
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 32; ++j) {
      int acc = Bias[j];
      for (int k = 0; k < 16; ++k)
        acc += A[i * 16 + k] * W[j * 16 + k];
      C[i * 32 + j] = (int8_t)acc;
    }
}
void stridedBias(const int8_t *A, const int8_t *W, const int32_t *Bias, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(j, jo, ji, 16) split(k, ko, ki, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(i, ko, jo, ji, ki) compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(ji, vta.gemm)
  // expected-warning@+1 {{the load of an accumulator's initial value into vta.acc: an element of Cb (16 scalars) is not contiguous in}}
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 32; ++j) {
      int acc = Bias[2 * j];
      for (int k = 0; k < 16; ++k)
        acc += A[i * 16 + k] * W[j * 16 + k];
      C[i * 32 + j] = (int8_t)acc;
    }
}
void computedBias(const int8_t *A, const int8_t *W, const int32_t *Bias, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(j, jo, ji, 16) split(k, ko, ki, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(i, ko, jo, ji, ki) compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(ji, vta.gemm)
  // expected-warning@+1 {{the statement `Cb[i, ((jo_1*16) + ji_1)] = (Bias[((jo_1*16) + ji_1)]*2)` is not a VTA operation}}
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 32; ++j) {
      int acc = Bias[j] * 2;
      for (int k = 0; k < 16; ++k)
        acc += A[i * 16 + k] * W[j * 16 + k];
      C[i * 32 + j] = (int8_t)acc;
    }
}
void rereadInPlace(const int8_t *A, const int8_t *W, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(j, jo, ji, 16) split(k, ko, ki, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(i, ko, jo, ji, ki) compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(ji, vta.gemm)
  // expected-warning@+1 {{the statement `Cb[((jo_1*16) + ji_1)] = int8(Cb[((jo_1*16) + ji_1)])` is not a VTA operation}}
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 32; ++j) {
      int acc = C[j];
      for (int k = 0; k < 16; ++k)
        acc += A[i * 16 + k] * W[j * 16 + k];
      C[j] = (int8_t)acc;
    }
}

void rowsInPlace(const int8_t *A, const int8_t *W, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(j, jo, ji, 16) split(k, ko, ki, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(i, ko, jo, ji, ki) compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(ji, vta.gemm)
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 32; ++j) {
      int acc = C[i * 32 + j];
      for (int k = 0; k < 16; ++k)
        acc += A[i * 16 + k] * W[j * 16 + k];
      C[i * 32 + j] = (int8_t)acc;
    }
}
