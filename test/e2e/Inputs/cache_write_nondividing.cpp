// Issue 7 case 3: the m < 8 columns of each row of an 8-column array, split
// by 4 (so the last tile runs past m), with the writes staged in a local
// cache_write computed at the tile loop. The write-back of the last tile must
// stop at column m, where the split's guard stops the loop, not at the
// array's 8 columns: the columns past m keep their values.
#include <cstdio>
#include <cstdlib>

static void scale(const float (*A)[8], float (*C)[8], int n, int m) {
#pragma sched target(gpu) split(j, jo, ji, 4) bind(i, blockIdx.x)
#pragma sched cache_write(C, local, Cl) compute_at(Cl, jo)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      C[i][j] = A[i][j] * 2.f;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 50;
  int m = argc > 2 ? std::atoi(argv[2]) : 6;
  static float A[64][8], C[64][8];
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 8; ++j) {
      A[i][j] = float(i) + 0.5f * float(j);
      C[i][j] = -1.f - float(i);
    }
  scale(A, C, n, m);
  double sum = 0;
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 8; ++j)
      sum += C[i][j] * double((i % 7) + j + 1);
  std::printf("scale n=%d m=%d\n", n, m);
  std::printf("checksum %.6f\n", sum);
  for (int i = 0; i < 64; i += 13)
    std::printf("C[%d][%d] %.6f C[%d][7] %.6f\n", i, m, C[i][m], i, C[i][7]);
  return 0;
}
