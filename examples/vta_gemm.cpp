// TVM's VTA matrix-multiply tutorial, written as plain C++: C = A . B^T on
// VTA's 1x16x16 GEMM core, int8 inputs and weights, int32 accumulation,
// int8 results (truncated, as VTA stores them). The arrays have the
// tutorial's packed shapes: A[batch-blocks][k-blocks][BATCH][BLOCK_IN],
// B[out-blocks][k-blocks][BLOCK_OUT][BLOCK_IN]. With the plugin the nest
// becomes a program of VTA runtime calls (dump=vta prints it): per k block,
// one DMA of A and one of 16 weight tiles, a GEMM over the 16 output blocks,
// the dependency tokens between load, compute and store, one store of C.
// Without it, this file is the reference.
#include <cstdint>
#include <cstdio>

static void gemm(const int8_t A[1][16][1][16], const int8_t B[16][16][16][16],
                 int8_t C[1][16][1][16]) {
#pragma sched target(vta)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(B, vta.wgt, Bb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(ko, bo, co, bi, ci, ki) compute_at(Ab, ko) compute_at(Bb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Bb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(bi, vta.gemm)
  for (int bo = 0; bo < 1; ++bo)
    for (int co = 0; co < 16; ++co)
      for (int bi = 0; bi < 1; ++bi)
        for (int ci = 0; ci < 16; ++ci) {
          int acc = 0;
          for (int ko = 0; ko < 16; ++ko)
            for (int ki = 0; ki < 16; ++ki)
              acc += A[bo][ko][bi][ki] * B[co][ko][ci][ki];
          C[bo][co][bi][ci] = (int8_t)acc;
        }
}

static int8_t A[1][16][1][16], B[16][16][16][16], C[1][16][1][16];

int main() {
  // Deterministic data over the whole int8 range (a linear congruential
  // sequence), so that sums overflow int8 and the truncating store matters.
  uint32_t Seed = 12345;
  auto next = [&] {
    Seed = Seed * 1103515245u + 12345u;
    return (int8_t)(Seed >> 16);
  };
  for (auto &Row : A[0])
    for (int8_t &X : Row[0])
      X = next();
  for (auto &Tiles : B)
    for (auto &Tile : Tiles)
      for (auto &Row : Tile)
        for (int8_t &X : Row)
          X = next();
  gemm(A, B, C);
  long Sum = 0;
  for (int co = 0; co < 16; ++co) {
    for (int ci = 0; ci < 16; ++ci) {
      std::printf(" %4d", C[0][co][0][ci]);
      Sum += (co * 16 + ci + 1) * C[0][co][0][ci];
    }
    std::printf("\n");
  }
  std::printf("checksum %ld\n", Sum);
  return 0;
}
