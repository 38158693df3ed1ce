// examples/vta_conv2d.cpp with the padding written as a statement, `if (in)
// acc += D[..] * K[..]`, rather than `(in ? D[..] : 0) * K[..]`: the same
// LOADs with pad fields and the same GEMMs (GuardedUpdatesAsSelects makes
// the guarded update an update by a select before bound inference).
// -DSTRIDE=2 for the stride-2 form. Without the plugin it is the reference.
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
                    for (int ik = 0; ik < 16; ++ik)
                      if (y * STRIDE + dy >= 1 && y * STRIDE + dy <= H && x * STRIDE + dx >= 1 &&
                          x * STRIDE + dx <= W)
                        acc += D[bo][ic][y * STRIDE + dy - 1][x * STRIDE + dx - 1][bi][ik] *
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
