// A GEMM whose weights are a reshaped 3-D array, W[N][K/16][16] (the k of
// each output row split in blocks of 16), read as its 2-D view W[N][K]: the
// launcher repacks that view into 16x16 tiles for the weight DMA. With
// -DK_MAJOR the weights are W[K/16][16][N], k-major, read as W[K][N]: the
// weight stage is stored transposed and the tiles packed transposed.
#include <cstdint>
#include <cstdio>

constexpr int M = 2, N = 48, KB = 3, K = KB * 16;

#ifdef K_MAJOR
using Weights = int8_t[KB][16][N];
#define WEIGHT(j, ko, ki) W[ko][ki][j]
#else
using Weights = int8_t[N][KB][16];
#define WEIGHT(j, ko, ki) W[j][ko][ki]
#endif

static void gemm(const int8_t *A, const Weights &W, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(j, jo, ji, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(i, ko, jo, ji, ki) compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(ji, vta.gemm)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int acc = 0;
      for (int ko = 0; ko < KB; ++ko)
        for (int ki = 0; ki < 16; ++ki)
          acc += A[i * K + ko * 16 + ki] * WEIGHT(j, ko, ki);
      C[i * N + j] = (int8_t)acc;
    }
}

static int8_t A[M * K], C[M * N];
static Weights W;

int main() {
  uint32_t Seed = 31337;
  auto next = [&] {
    Seed = Seed * 1103515245u + 12345u;
    return (int8_t)(Seed >> 16);
  };
  for (int8_t &X : A)
    X = next();
  for (int8_t &X : *reinterpret_cast<int8_t(*)[sizeof(W)]>(&W))
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
