// Bounds clamped with min/max written as ?: (issue 22, item 2): a band
// `max(0, i - 2) .. min(n, i + 3)` and columns `j < min(m, 8)`, tiled. Run
// with n as the argument.
#include <cstdio>
#include <cstdlib>

static double A[24][8], C[24][24], L[24][24], B[24][24], X[24][24], Y[24], Z[24];

// A banded product: the band's bounds are max/min of affine terms.
static void banded(int n) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = (i - 2 > 0 ? i - 2 : 0); j < (n < i + 3 ? n : i + 3); j++)
      s += L[i][j] * Y[j];
    X[i][0] = s;
  }
}

// min()-clamped columns, tiled: j < min(m, 8) says j < 8, so rows of 8 never
// overlap and the tile is legal.
static void clampedTile(double *out, int n, int m) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 4, 4) bind(io, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < (m < 8 ? m : 8); j++)
      out[i * 8 + j] = A[i][j] + 1.0;
}

static double sum() {
  double s = 0;
  for (int r = 0; r < 24; ++r)
    for (int c = 0; c < 24; ++c)
      s += (C[r][c] + 3 * B[r][c] + 7 * X[r][c] + 11 * Z[r]) * (r * 24 + c + 1);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 24;
  for (int r = 0; r < 24; ++r) {
    Y[r] = r % 4 - 1;
    Z[r] = r % 3;
    for (int c = 0; c < 8; ++c)
      A[r][c] = (r * 3 + c) % 5 - 2;
    for (int c = 0; c < 24; ++c) {
      C[r][c] = (r + c) % 3;
      L[r][c] = r == c ? 2 : (r * 7 + c) % 3 - 1;
      B[r][c] = (r * 5 + c) % 4 - 1;
      X[r][c] = 0;
    }
  }
  banded(n);
  std::printf("%.3f\n", sum());
  clampedTile(&B[0][0], n, n);
  std::printf("%.3f\n", sum());
}
