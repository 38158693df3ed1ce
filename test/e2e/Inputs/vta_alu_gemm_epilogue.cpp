// The GEMM of issue 11 with TVM's matrix_multiply_opt epilogue on VTA's ALU:
// C = int8(min(max(acc >> 8, 0), 127)) (SHR 8, MAX 0, MIN 127 in vta.acc).
// Built without the plugin it is the reference.
#include <algorithm>
#include <cstdint>
#include <cstdio>

void gemm(const int8_t A[1][16][1][16], const int8_t B[16][16][16][16], int8_t C[1][16][1][16]) {
#pragma sched target(vta)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(B, vta.wgt, Bb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(ko, bo, co, bi, ci, ki) compute_at(Ab, ko) compute_at(Bb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Bb.ax0, dma_copy) pragma(Cb.ax0, dma_copy) pragma(co_2, alu)
#pragma sched tensorize(bi, vta.gemm)
  for (int bo = 0; bo < 1; ++bo)
    for (int co = 0; co < 16; ++co)
      for (int bi = 0; bi < 1; ++bi)
        for (int ci = 0; ci < 16; ++ci) {
          int acc = 0;
          for (int ko = 0; ko < 16; ++ko)
            for (int ki = 0; ki < 16; ++ki) acc += A[bo][ko][bi][ki] * B[co][ko][ci][ki];
          C[bo][co][bi][ci] = (int8_t)std::min(std::max(acc >> 8, 0), 127);
        }
}

int main() {
  static int8_t A[1][16][1][16], B[16][16][16][16], C[1][16][1][16];
  for (int k = 0; k < 256; ++k)
    A[0][k / 16][0][k % 16] = (int8_t)((k * 29) % 255 - 127);
  for (int j = 0; j < 256; ++j)
    for (int k = 0; k < 256; ++k)
      B[j / 16][k / 16][j % 16][k % 16] = (int8_t)((j * 13 + k * 7) % 255 - 127);
  gemm(A, B, C);
  long Sum = 0;
  int Clipped = 0;
  for (int j = 0; j < 256; ++j) {
    int V = C[0][j / 16][0][j % 16];
    Sum += V * (j % 5 + 1);
    Clipped += V == 0 || V == 127;
  }
  std::printf("checksum %ld clipped %d\n", Sum, Clipped);
  return 0;
}
