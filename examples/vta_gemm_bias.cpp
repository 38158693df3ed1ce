// A fully connected layer on VTA: C = relu((A . W^T + bias) >> 9), clipped to
// int8, with int8 A[M][K] and W[N][K] (row-major: the launcher repacks W into
// 16x16 tiles) and an int32 bias per output column. The accumulator starts
// from the bias: `int acc = Bias[j]` staged in vta.acc is an ACC LOAD of the
// bias (x_stride 0: the same 4 elements for each of the M rows) where a zero
// start would be a GEMM reset; the GEMMs add A . W^T to it, three ALU
// operations (SHR 9, MAX 0, MIN 127) make the epilogue (`pragma(i_2, alu)`:
// the reorder splits the initialisation off as i_1, the epilogue as i_2), one
// STORE writes C. Without the plugin, this file is the reference.
#include <algorithm>
#include <cstdint>
#include <cstdio>

constexpr int M = 4, N = 64, K = 64;

static void dense(const int8_t *A, const int8_t *W, const int32_t *Bias, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(j, jo, ji, 16) split(k, ko, ki, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(ko, i, jo, ji, ki) compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched pragma(i_2, alu) tensorize(ji, vta.gemm)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int acc = Bias[j];
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * W[j * K + k];
      C[i * N + j] = (int8_t)std::min(std::max(acc >> 9, 0), 127);
    }
}

static int8_t A[M * K], W[N * K], C[M * N];
static int32_t Bias[N];

int main() {
  uint32_t Seed = 2026;
  auto next = [&] {
    Seed = Seed * 1103515245u + 12345u;
    return (int8_t)(Seed >> 16);
  };
  for (int8_t &X : A)
    X = next();
  for (int8_t &X : W)
    X = next();
  for (int8_t &X : C)
    X = next();
  for (int32_t &X : Bias)
    X = next() * 50;
  dense(A, W, Bias, C);
  long Sum = 0;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      std::printf(" %3d", C[i * N + j]);
      Sum += (i * N + j + 1) * C[i * N + j];
    }
    std::printf("\n");
  }
  std::printf("checksum %ld\n", Sum);
  return 0;
}
