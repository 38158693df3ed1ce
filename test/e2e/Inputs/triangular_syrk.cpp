// The syrk triangle `for (i) for (j = 0; j <= i; j++)` (issue 22, item 2):
// bound to threads (the row's hull under a guard), interchanged (the bounds
// rewritten), tiled, and with the rows it reads staged in shared memory.
// Run with n as the argument.
#include <cstdio>
#include <cstdlib>

static double A[24][8], C[24][24], L[24][24], B[24][24], X[24][24], Y[24], Z[24];

// syrk: the lower triangle, rows to blocks, the triangle's row to threads
// (the block runs the row's hull under a guard).
static void syrk(int n, int m) {
  int i, j, k;
#pragma sched target(gpu) bind(i, blockIdx.x) bind(j, threadIdx.x)
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++) {
      C[i][j] *= 0.5;
      for (k = 0; k < m; k++)
        C[i][j] += 1.5 * A[i][k] * A[j][k];
    }
  std::printf("syrk: i=%d\n", i);
}

// The same triangle with its columns first: the interchange rewrites the
// bounds (j in [0, n), i in [j, n)).
static void syrkColumnsFirst(int n, int m) {
#pragma sched target(gpu) reorder(j, i) bind(j, blockIdx.x) bind(i, threadIdx.x)
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      for (int k = 0; k < m; k++)
        C[i][j] += A[i][k] * A[j][k];
}

// Tiled: both loops split by 4 and the tile loops outside (jo's bound
// depends on ii: its hull under a guard), the tile's points to threads.
static void syrkTiled(int n) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 4, 4) bind(io, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      C[i][j] = C[i][j] * 2.0 + A[j][0];
}

// The rows of A a block's triangle reads, staged in shared memory: bound
// inference over the triangle's hull, clipped to A's rows.
static void syrkStaged(int n) {
#pragma sched target(gpu) bind(i, blockIdx.x) bind(j, threadIdx.x) cache_read(A, shared, As) compute_at(As, i)
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      for (int k = 0; k < 8; k++)
        C[i][j] += A[i][k] * A[j][k];
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
  syrk(n, 8);
  std::printf("%.3f\n", sum());
  syrkColumnsFirst(n, 8);
  std::printf("%.3f\n", sum());
  syrkTiled(n);
  std::printf("%.3f\n", sum());
  syrkStaged(n);
  std::printf("%.3f\n", sum());
}
