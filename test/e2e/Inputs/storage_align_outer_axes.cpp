// storage_align of an axis outside the row: a 3-D shared stage aligned on its
// outermost axis (offset 0: the next extent padded to a multiple of 16), and
// a 3-D array declared in the nest, made shared, whose outermost stride
// becomes k*8 + 1 (rows of 5, 5 rows instead of 3: 25 = 3*8 + 1). Run with n
// (the number of blocks of rows) as argument.
#include <cstdio>
#include <cstdlib>

#define NMAX 16
static float A[NMAX * 4][8][6], B[NMAX * 4][8][6], X[NMAX * 30], Y[NMAX * 30];

static void staged(int n) {
#pragma sched target(gpu) split(i, io, ii, 4) bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, io) storage_align(As, As.ax0, 16, 0)
  for (int i = 0; i < 4 * n; i++)
    for (int j = 0; j < 8; j++)
      for (int k = 0; k < 6; k++)
        B[i][j][k] = A[i][j][k] * 2.f + j - k;
}

static void exchanged(int n) {
#pragma sched target(gpu) bind(b, blockIdx.x) bind(j, threadIdx.x) bind(j_1, threadIdx.x)
#pragma sched set_scope(T, shared) storage_align(T, T.ax0, 8, 1)
  for (int b = 0; b < n; b++) {
    float T[2][3][5];
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < 3; k++)
        for (int l = 0; l < 5; l++)
          T[j][k][l] = X[b * 30 + j * 15 + k * 5 + l];
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < 3; k++)
        for (int l = 0; l < 5; l++)
          Y[b * 30 + j * 15 + k * 5 + l] = T[1 - j][2 - k][l] * 3.f;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : NMAX;
  for (int i = 0; i < NMAX * 4; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 6; ++k)
        A[i][j][k] = (i * 5 + j * 3 + k) % 13 - 6;
  for (int i = 0; i < NMAX * 30; ++i)
    X[i] = (i * 7) % 11 - 5;
  staged(n);
  exchanged(n);
  double Sum = 0;
  for (int i = 0; i < NMAX * 4; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 6; ++k)
        Sum += B[i][j][k] * (i + j + k + 1);
  for (int i = 0; i < NMAX * 30; ++i)
    Sum += Y[i] * (i + 1);
  std::printf("%.3f\n", Sum);
}
