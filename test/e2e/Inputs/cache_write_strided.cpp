// Issue 7 case 1: a nest that writes only the even columns of C, with its
// writes staged in a local cache_write computed at the row loop. The stage
// spans columns 0 to 14 of the row, but the odd ones are never written: the
// write-back must store exactly the eight even ones, leaving the odd ones as
// they were (a box write-back overwrote them with uninitialized values).
#include <cstdio>
#include <cstdlib>

static void evens(const float (*A)[8], float (*C)[16], int n) {
#pragma sched target(gpu) bind(i, blockIdx.x) cache_write(C, local, Cl) compute_at(Cl, i)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; ++j)
      C[i][2 * j] = A[i][j] + 1.f;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 40;
  static float A[64][8], C[64][16];
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 8; ++j)
      A[i][j] = float((i + j) % 17) * 0.5f;
    for (int j = 0; j < 16; ++j)
      C[i][j] = -float(i * 16 + j) - 3.f;
  }
  evens(A, C, n);
  double sum = 0;
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 16; ++j)
      sum += C[i][j] * double((j % 7) + 1);
  std::printf("evens n=%d\n", n);
  std::printf("checksum %.6f\n", sum);
  for (int i = 0; i < 64; i += 9)
    std::printf("C[%d][1] %.6f C[%d][14] %.6f\n", i, C[i][1], i, C[i][14]);
  return 0;
}
