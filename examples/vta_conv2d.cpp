// TVM's VTA "2D convolution optimization" tutorial (convolution_opt.py),
// written as plain C++: a 3x3 convolution, padding 1, batch 1, 32 -> 32
// channels, 14x14, in VTA's packed layouts (data D[N][C/16][H][W][1][16],
// kernel K[O/16][C/16][3][3][16][16]), accumulated in int32 and narrowed by
// the tutorial's epilogue on VTA's ALU: (int8_t)min(max(acc >> 8, 0), 127).
// The padding is a guard, as a C++ user writes it (`in_range ? D[..] : 0`);
// on VTA it becomes the pad fields of the data's LOAD: the input tile in
// SRAM holds the zero border, and the GEMM sees a plain accumulation.
//
// The schedule is the tutorial's: two virtual threads (cthread) over the
// output-channel blocks, output rows split by 7, data and kernel staged per
// input-channel block by DMA, the accumulator in vta.acc, the GEMM
// tensorized at the batch loop, the epilogue's loop (co2_2, split off when
// reorder moved the reduction outside) on the ALU. Build with -DSTRIDE=2
// for the stride-2 form (7x7 outputs). Without the plugin this file is the
// reference.
#include <algorithm>
#include <cstdint>
#include <cstdio>

#ifndef STRIDE
#define STRIDE 1
#endif
constexpr int H = 14, W = 14;
constexpr int OH = (H + 2 - 3) / STRIDE + 1, OW = (W + 2 - 3) / STRIDE + 1;

static void conv2d(const int8_t D[1][2][H][W][1][16], const int8_t K[2][2][3][3][16][16],
                   int8_t O[1][2][OH][OW][1][16]) {
#pragma sched target(vta)
#pragma sched split(co, ct, co2, nparts=2) bind(ct, cthread) split(y, yo, yi, 7)
#pragma sched cache_read(D, vta.inp, Db) cache_read(K, vta.wgt, Kb) cache_write(O, vta.acc, Ob)
#pragma sched reorder(ct, bo, yo, ic, co2, yi, dy, dx, x, bi, ci, ik)
#pragma sched compute_at(Db, ic) compute_at(Kb, ic) compute_at(Ob, yo)
#pragma sched pragma(Db.ax0, dma_copy) pragma(Kb.ax0, dma_copy) pragma(Ob.ax0, dma_copy)
#pragma sched pragma(co2_2, alu) tensorize(bi, vta.gemm)
  for (int bo = 0; bo < 1; ++bo)
    for (int co = 0; co < 2; ++co)
      for (int y = 0; y < OH; ++y)
        for (int x = 0; x < OW; ++x)
          for (int bi = 0; bi < 1; ++bi)
            for (int ci = 0; ci < 16; ++ci) {
              int acc = 0;
              for (int ic = 0; ic < 2; ++ic)
                for (int dy = 0; dy < 3; ++dy)
                  for (int dx = 0; dx < 3; ++dx)
                    for (int ik = 0; ik < 16; ++ik) // input row y*S + dy - 1, column x*S + dx - 1
                      acc += (y * STRIDE + dy >= 1 && y * STRIDE + dy <= H && x * STRIDE + dx >= 1 &&
                                      x * STRIDE + dx <= W
                                  ? D[bo][ic][y * STRIDE + dy - 1][x * STRIDE + dx - 1][bi][ik]
                                  : 0) *
                             K[co][ic][dy][dx][ci][ik];
              O[bo][co][y][x][bi][ci] = (int8_t)std::min(std::max(acc >> 8, 0), 127);
            }
}

static int8_t D[1][2][H][W][1][16], K[2][2][3][3][16][16], O[1][2][OH][OW][1][16];

int main() {
  // Deterministic data in [-16, 15] (a linear congruential sequence), so
  // that the shifted sums spread over the clipping range.
  uint32_t Seed = 12345;
  auto next = [&] {
    Seed = Seed * 1103515245u + 12345u;
    return (int8_t)((Seed >> 16) % 32 - 16);
  };
  for (auto &Block : D[0])
    for (auto &Row : Block)
      for (auto &Pixel : Row)
        for (int8_t &X : Pixel[0])
          X = next();
  for (auto &Out : K)
    for (auto &In : Out)
      for (auto &Taps : In)
        for (auto &Tap : Taps)
          for (auto &Row : Tap)
            for (int8_t &X : Row)
              X = next();
  conv2d(D, K, O);
  // Every output, weighted by its position, and how many the epilogue clipped.
  long Sum = 0;
  int Clipped = 0;
  for (int c = 0; c < 2; ++c)
    for (int y = 0; y < OH; ++y)
      for (int x = 0; x < OW; ++x)
        for (int ci = 0; ci < 16; ++ci) {
          int V = O[0][c][y][x][0][ci];
          Sum += V * ((c * 16 + ci) % 7 + 1) * (y * OW + x + 1);
          Clipped += V == 0 || V == 127;
        }
  std::printf("checksum %ld clipped %d\n", Sum, Clipped);
  return 0;
}
