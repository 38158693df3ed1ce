// A GEMM whose weights are stored k-major, W[k*N + j] (a [K][N] array, as a
// x.W layer keeps them): the weight stage, computed per k block, is stored
// transposed ([j][k], VTA's weight tile), and the launcher repacks W into
// transposed 16x16 tiles (vta.PackTiles, transposed) for the DMA. -DGEMM_K
// sets K (a multiple of 16).
#include <cstdint>
#include <cstdio>

#ifndef GEMM_K
#define GEMM_K 48
#endif
constexpr int M = 3, N = 32, K = GEMM_K;

static void gemm(const int8_t *A, const int8_t *W, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(j, jo, ji, 16) split(k, ko, ki, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(i, ko, jo, ji, ki) compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(ji, vta.gemm)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * W[k * N + j];
      C[i * N + j] = (int8_t)acc;
    }
}

static int8_t A[M * K], W[K * N], C[M * N];

int main() {
  uint32_t Seed = 4242;
  auto next = [&] {
    Seed = Seed * 1103515245u + 12345u;
    return (int8_t)(Seed >> 16);
  };
  for (int8_t &X : A)
    X = next();
  for (int8_t &X : W)
    X = next();
  gemm(A, W, C);
  long Sum = 0;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      std::printf(" %4d", C[i * N + j]);
      Sum += (i * N + j + 1) * C[i * N + j];
    }
    std::printf("\n");
  }
  std::printf("checksum %ld\n", Sum);
  return 0;
}
