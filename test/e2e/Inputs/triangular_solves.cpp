// Solver-like triangular nests (issue 22, item 2): a reduction over a
// triangular range (trmm), forward substitution (trisolv), and a triangular
// matrix-vector product whose vector is staged per column block. Run with n
// as the argument.
#include <cstdio>
#include <cstdlib>

static double A[24][8], C[24][24], L[24][24], B[24][24], X[24][24], Y[24], Z[24];

// A reduction with a triangular bound (trmm): B[i][j] += sum over k > i,
// columns to threads, rows serial (each row reads the rows below it).
static void trmm(int n) {
  int i, j, k;
#pragma sched target(gpu) split(j, jo, ji, 8) bind(jo, blockIdx.x) bind(ji, threadIdx.x)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      for (k = i + 1; k < n; k++)
        B[i][j] += L[k][i] * B[k][j];
      B[i][j] = 1.5 * B[i][j];
    }
  std::printf("trmm: i=%d j=%d k=%d\n", i, n > 0 ? j : -1, n > 1 ? k : -1);
}

// Forward substitution with several right-hand sides (trisolv): the
// columns run in parallel, each row waits for the rows above it.
static void trisolv(int n) {
  int r, i, j;
#pragma sched target(gpu) bind(r, threadIdx.x)
  for (r = 0; r < n; r++)
    for (i = 0; i < n; i++) {
      X[i][r] = B[i][r];
      for (j = 0; j < i; j++)
        X[i][r] -= L[i][j] * X[j][r];
      X[i][r] = X[i][r] / L[i][i];
    }
}

// A triangular matrix-vector product with the vector staged in shared
// memory per 4 columns: jo's bound depends on the thread's row, so the block
// runs jo's hull and each thread computes under its own bound (every thread
// reaches the fill and its barriers).
static void trmvStaged(int n) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x) split(j, jo, ji, 4) cache_read(Y, shared, Ys) compute_at(Ys, jo)
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      Z[i] += L[i][j] * Y[j];
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
  trmm(n);
  std::printf("%.3f\n", sum());
  trisolv(n);
  std::printf("%.3f\n", sum());
  trmvStaged(n);
  std::printf("%.3f\n", sum());
}
