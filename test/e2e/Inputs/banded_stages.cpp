// A banded nest with its band staged (issue 22, item 8): the band of Y read by
// a block of rows in shared memory (12 elements), by one row in registers
// (5), and the band written with a guard over banded storage `B[i][j - i +
// 2]` (5 columns per row) and over the same band stored flat. Run with n as argument.
#include <cstdio>
#include <cstdlib>

#define NMAX 40
static double L[NMAX][NMAX], B[NMAX][5], F[NMAX * 5], Y[NMAX], Out[NMAX], Out2[NMAX], Out3[NMAX],
    Out4[NMAX];

static void atBlock(int n) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched cache_read(Y, shared, Ys) compute_at(Ys, io)
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = (i - 2 > 0 ? i - 2 : 0); j < (n < i + 3 ? n : i + 3); j++)
      s += L[i][j] * Y[j];
    Out[i] = s;
  }
}

static void atRow(int n) {
#pragma sched target(gpu) split(i, io, ii, 4) bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched cache_read(Y, local, Yl) compute_at(Yl, ii)
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = (i - 2 > 0 ? i - 2 : 0); j < (n < i + 3 ? n : i + 3); j++)
      s += L[i][j] * Y[j];
    Out2[i] = s;
  }
}

static void guarded(int n) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++)
      if (j >= i - 2 && j <= i + 2)
        s += B[i][j - i + 2] * Y[j];
    Out3[i] = s;
  }
}

// The same band stored flat (one array of rows of 5): no layout that caps the
// rows (n <= 2) is assumed, so it runs as a kernel at every size.
static void guardedFlat(const double *Band, int n) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++)
      if (j >= i - 2 && j <= i + 2)
        s += Band[i * 5 + j - i + 2] * Y[j];
    Out4[i] = s;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : NMAX;
  for (int i = 0; i < NMAX; ++i) {
    Y[i] = 0.5 * i - 4;
    for (int j = 0; j < NMAX; ++j)
      L[i][j] = (i * 5 + j * 3) % 7 - 3;
    for (int k = 0; k < 5; ++k)
      B[i][k] = F[i * 5 + k] = (i + 2 * k) % 5 - 2;
  }
  atBlock(n);
  atRow(n);
  guarded(n);
  guardedFlat(F, n);
  double Sum = 0;
  for (int i = 0; i < NMAX; ++i)
    Sum += Out[i] * (i + 1) + Out2[i] * (2 * i + 1) + Out3[i] * (3 * i + 1) + Out4[i] * (i + 5);
  std::printf("%.3f\n", Sum);
}
