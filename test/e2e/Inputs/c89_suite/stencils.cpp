// The c89 suite, stencils (issue 22): time-stepped stencils whose time loop
// stays on the host and whose sweeps are the nests, written as C89 codes
// write them (counters at the top, sibling sweeps reusing them, sizes as
// parameters), each sweep with a GPU schedule: tiles bound to blocks and
// threads, the input staged in shared memory where neighbours reuse it,
// unrolled constant windows, virtual threads. Row/column sweeps (ADI) carry
// their recurrence in the inner loop, downward ones included. Run with n
// (default 24; 1 and 0 are edge cases).
#include <cstdio>
#include <cstdlib>

#define NMAX 32
#define N3 12
#define BX 16

typedef double Mat[NMAX][NMAX];

static void jacobi1d(int tsteps, int n, double A[NMAX * NMAX], double B[NMAX * NMAX]) {
  int t, i;
  for (t = 0; t < tsteps; t++) {
#pragma sched target(gpu) split(i, io, ii, 32) bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, io)
    for (i = 1; i < n - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
#pragma sched target(gpu) split(i, io, ii, 32) bind(io, blockIdx.x) bind(ii, threadIdx.x)
    for (i = 1; i < n - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
}

static void jacobi2d(int tsteps, int n, Mat A, Mat B) {
  int t, i, j;
  for (t = 0; t < tsteps; t++) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 8, 8)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, jo)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 4, BX)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
  }
}

static void heat3d(int tsteps, int n, double A[N3][N3][N3], double B[N3][N3][N3]) {
  int t, i, j, k;
  for (t = 1; t <= tsteps; t++) {
#pragma sched target(gpu) bind(i, blockIdx.x) bind(j, threadIdx.y) bind(k, threadIdx.x)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k]) +
                       0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k]) +
                       0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]) + A[i][j][k];
#pragma sched target(gpu) fuse(i, j, ij) bind(ij, blockIdx.x) bind(k, threadIdx.x)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k]) +
                       0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k]) +
                       0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1]) + B[i][j][k];
  }
}

static void fdtd2d(int tmax, int nx, int ny, Mat ex, Mat ey, Mat hz, const double *fict) {
  int t, i, j;
  for (t = 0; t < tmax; t++) {
#pragma sched target(gpu) bind(j, threadIdx.x)
    for (j = 0; j < ny; j++)
      ey[0][j] = fict[t];
#pragma sched target(gpu) split(i, io, ii, 4) bind(io, blockIdx.x) bind(ii, threadIdx.y)
#pragma sched bind(j, threadIdx.x)
    for (i = 1; i < nx; i++)
      for (j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
#pragma sched target(gpu) bind(i, blockIdx.x) split(j, jo, ji, 8) bind(ji, threadIdx.x)
    for (i = 0; i < nx; i++)
      for (j = 1; j < ny; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 8, 8)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched cache_read(ex, shared, exs) cache_read(ey, shared, eys)
#pragma sched compute_at(exs, jo) compute_at(eys, jo)
    for (i = 0; i < nx - 1; i++)
      for (j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
}

// ADI-like sweeps: along rows (a forward recurrence, then a downward back
// sweep, sibling loops over j), rows independent; then along columns.
static void adi(int tsteps, int n, Mat u, Mat v, Mat p, Mat q) {
  int t, i, j;
  double a, b, c;
  a = -0.25;
  b = 1.5;
  c = -0.25;
  for (t = 1; t <= tsteps; t++) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
    for (i = 1; i < n - 1; i++) {
      v[0][i] = 1.0;
      p[i][0] = 0.0;
      q[i][0] = v[0][i];
      for (j = 1; j < n - 1; j++) {
        p[i][j] = -c / (a * p[i][j - 1] + b);
        q[i][j] = (u[j][i - 1] * 0.5 + u[j][i] - u[j][i + 1] * 0.25 - a * q[i][j - 1]) /
                  (a * p[i][j - 1] + b);
      }
      v[n - 1][i] = 1.0;
      for (j = n - 2; j >= 1; j--)
        v[j][i] = p[i][j] * v[j + 1][i] + q[i][j];
    }
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
    for (i = 1; i < n - 1; i++) {
      u[i][0] = 1.0;
      p[i][0] = 0.0;
      q[i][0] = u[i][0];
      for (j = 1; j < n - 1; j++) {
        p[i][j] = -a / (c * p[i][j - 1] + b);
        q[i][j] = (v[i - 1][j] * 0.25 + v[i][j] - v[i + 1][j] * 0.5 - c * q[i][j - 1]) /
                  (c * p[i][j - 1] + b);
      }
      u[i][n - 1] = 1.0;
      for (j = n - 2; j >= 1; j--)
        u[i][j] = p[i][j] * u[i][j + 1] + q[i][j];
    }
  }
}

// A 3x3 convolution with constant-extent window loops, unrolled; the image
// tile staged in shared memory.
static void conv2d(int ni, int nj, Mat A, Mat B, double W[3][3]) {
  int i, j, di, dj;
  double acc;
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 8, 16)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, jo) unroll(di) unroll(dj)
  for (i = 1; i < ni - 1; i++)
    for (j = 1; j < nj - 1; j++) {
      acc = 0.0;
      for (di = 0; di < 3; di++)
        for (dj = 0; dj < 3; dj++)
          acc += W[di][dj] * A[i + di - 1][j + dj - 1];
      B[i][j] = acc;
    }
}

// A five-point Laplacian with two rows per thread as virtual threads, run
// downward over the rows.
static void laplace(int n, Mat A, Mat B) {
  int i, j;
#pragma sched target(gpu) split(i, io, ir, 8) split(ir, iv, it, 2) bind(io, blockIdx.x)
#pragma sched bind(iv, vthread) bind(it, threadIdx.y) bind(j, threadIdx.x)
  for (i = n - 2; i >= 1; i--)
    for (j = 1; j < n - 1; j++)
      B[i][j] = A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1] - 4.0 * A[i][j];
}

static Mat A, B, C, D;
static double A1[NMAX * NMAX], B1[NMAX * NMAX];
static double A3[N3][N3][N3], B3[N3][N3][N3];
static double fict[8];
static double W[3][3] = {{0.0625, 0.125, 0.0625}, {0.125, 0.25, 0.125}, {0.0625, 0.125, 0.0625}};

static void init(void) {
  int i, j, k;
  for (i = 0; i < NMAX; i++)
    for (j = 0; j < NMAX; j++) {
      A[i][j] = ((i * 3 + j * 5) % 11) * 0.5;
      B[i][j] = ((i + j * 7) % 13) * 0.25;
      C[i][j] = ((i * 2 + j) % 5) - 1.0;
      D[i][j] = ((i + 3 * j) % 7) * 0.125;
      A1[i * NMAX + j] = ((i * 7 + j) % 17) * 0.5;
      B1[i * NMAX + j] = 0.0;
    }
  for (i = 0; i < N3; i++)
    for (j = 0; j < N3; j++)
      for (k = 0; k < N3; k++) {
        A3[i][j][k] = ((i + 2 * j + 3 * k) % 9) * 0.5;
        B3[i][j][k] = A3[i][j][k];
      }
  for (i = 0; i < 8; i++)
    fict[i] = i * 0.5;
}

static double sumMat(Mat M) {
  double s = 0.0;
  int i, j;
  for (i = 0; i < NMAX; i++)
    for (j = 0; j < NMAX; j++)
      s += M[i][j] * ((i * 7 + j * 3) % 10 + 1);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 24;
  int n3 = n < N3 ? n : N3;
  int i, j, k;
  double s;

  init();
  jacobi1d(3, n * n < NMAX * NMAX ? n * n : NMAX * NMAX, A1, B1);
  s = 0.0;
  for (i = 0; i < NMAX * NMAX; i++)
    s += (A1[i] + 2.0 * B1[i]) * (i % 10 + 1);
  std::printf("jacobi-1d %.10g\n", s);

  init();
  jacobi2d(3, n, A, B);
  std::printf("jacobi-2d %.10g %.10g\n", sumMat(A), sumMat(B));

  init();
  heat3d(2, n3, A3, B3);
  s = 0.0;
  for (i = 0; i < N3; i++)
    for (j = 0; j < N3; j++)
      for (k = 0; k < N3; k++)
        s += (A3[i][j][k] + 3.0 * B3[i][j][k]) * ((i + j + k) % 5 + 1);
  std::printf("heat-3d %.10g\n", s);

  init();
  fdtd2d(4, n, n > 3 ? n - 3 : n, A, B, C, fict);
  std::printf("fdtd-2d %.10g %.10g %.10g\n", sumMat(A), sumMat(B), sumMat(C));

  init();
  adi(2, n, A, B, C, D);
  std::printf("adi %.10g %.10g\n", sumMat(A), sumMat(B));

  init();
  conv2d(n, n > 4 ? n - 4 : n, A, B, W);
  std::printf("conv-2d %.10g\n", sumMat(B));

  init();
  laplace(n, A, B);
  std::printf("laplace %.10g\n", sumMat(B));
  return 0;
}
