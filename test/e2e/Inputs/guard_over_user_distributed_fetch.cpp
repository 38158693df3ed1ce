// A split guard (9 iterations split by 12: `ii < 9`) around a shared stage whose
// copy the user distributed over the same thread dimension (Bs.t bound to
// threadIdx.x like ii): every one of the 12 threads must take part in the copy,
// so the guard must not enclose it (issue 17, item 2).
#include <cstdio>
#include <cstdlib>

static int B[20][11];

static void kernel(float *C, int n0, int n1) {
#pragma sched target(gpu)
#pragma sched reorder(j, i, k, m, l) split(i, io, ii, 12) bind(j, blockIdx.y)
#pragma sched bind(ii, threadIdx.x) bind(io, vthread)
#pragma sched cache_read(B, shared, Bs) compute_at(Bs, k) fuse(Bs.ax0, Bs.ax1, Bs.f1) split(Bs.f1, Bs.o, Bs.t, 12) bind(Bs.t, threadIdx.x)
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < n0; ++j)
      for (int k = 0; k < n1; ++k)
        for (int l = 0; l < 12; ++l) {
          float acc0 = B[k + i][i];
          for (int m = 0; m < 8; ++m)
            acc0 -= (((j % 3) == 2) ? (B[k + i + 2][i] + B[k + i + 2][i]) : B[k + i][i + 2]);
          C[((i * n0 + j) * n1 + k) * 12 + l] = acc0;
        }
}

int main(int argc, char **argv) {
  int n0 = argc > 2 ? std::atoi(argv[1]) : 10, n1 = argc > 2 ? std::atoi(argv[2]) : 10;
  for (int r = 0; r < 20; ++r)
    for (int c = 0; c < 11; ++c)
      B[r][c] = (r * 11 + c) % 7 - 3;
  static float C[9 * 10 * 10 * 12];
  kernel(C, n0, n1);
  double Sum = 0;
  for (int I = 0; I < 9 * n0 * n1 * 12; ++I)
    Sum += C[I] * (1 + I % 5);
  std::printf("checksum %.1f C[0] %.1f C[last] %.1f\n", Sum, C[0], C[9 * n0 * n1 * 12 - 1]);
}
