// The c89 suite, triangular kernels (issue 22, item 2): syrk, syr2k, symm,
// trmm, trisolv, cholesky, covariance and correlation, whose inner loops run
// to (or from) an enclosing counter (`for (j = 0; j <= i; j++)`). Written as
// C89 codes write them, each scheduled as a performance engineer would (the
// rectangular outer loop to blocks and threads; the triangular loop inside
// the kernel, bound too where its iterations are independent). Not yet part
// of a passing test: triangular bounds are being added on another branch;
// the test c89-suite-triangular-kernels-match-under-sim.test.disabled runs
// this file once they land. Run with n (default 20; 1 and 0 are edge cases).
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define NMAX 24

typedef double Mat[NMAX][NMAX];
typedef double Vec[NMAX];

// C = alpha A A' + beta C, lower triangle.
static void syrk(int n, int m, double alpha, double beta, Mat C, Mat A) {
  int i, j, k;
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.y)
#pragma sched bind(j, threadIdx.x) reorder(j_1, k) bind(j_1, threadIdx.x)
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < m; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
}

// C = alpha (A B' + B A') + beta C, lower triangle.
static void syr2k(int n, int m, double alpha, double beta, Mat C, Mat A, Mat B) {
  int i, j, k;
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < m; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
  }
}

// C = alpha A B + beta C with A symmetric (lower triangle stored); each
// column of C is independent.
static void symm(int m, int n, double alpha, double beta, Mat C, Mat A, Mat B) {
  int i, j, k;
  double t;
#pragma sched target(gpu) split(j, jo, ji, 8) bind(jo, blockIdx.x) bind(ji, threadIdx.x)
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      t = 0.0;
      for (k = 0; k < i; k++)
        t += B[k][j] * A[i][k];
      for (k = i; k < m; k++)
        t += B[k][j] * A[k][i];
      C[i][j] = beta * C[i][j] + alpha * t;
    }
}

// B = alpha A' B with A unit lower triangular: columns independent.
static void trmm(int m, int n, double alpha, Mat A, Mat B) {
  int i, j, k;
#pragma sched target(gpu) split(j, jo, ji, 8) bind(jo, blockIdx.x) bind(ji, threadIdx.x)
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      for (k = i + 1; k < m; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// L x = b, several right-hand sides, one per thread.
static void trisolv(int n, int nrhs, Mat L, Mat X, Mat Bm) {
  int i, j, c;
  double t;
#pragma sched target(gpu) bind(c, threadIdx.x)
  for (c = 0; c < nrhs; c++)
    for (i = 0; i < n; i++) {
      t = Bm[i][c];
      for (j = 0; j < i; j++)
        t -= L[i][j] * X[j][c];
      X[i][c] = t / L[i][i];
    }
}

// Cholesky, right-looking: the host walks the pivots; the column and the
// trailing triangle are nests.
static void cholesky(int n, Mat A) {
  int i, j, k;
  for (k = 0; k < n; k++) {
    A[k][k] = std::sqrt(A[k][k]);
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
    for (i = k + 1; i < n; i++)
      A[i][k] = A[i][k] / A[k][k];
#pragma sched target(gpu) split(i, io, ii, 4) bind(io, blockIdx.x) bind(ii, threadIdx.y)
#pragma sched bind(j, threadIdx.x)
    for (i = k + 1; i < n; i++)
      for (j = k + 1; j <= i; j++)
        A[i][j] = A[i][j] - A[i][k] * A[j][k];
  }
}

// Covariance of the (already centred) data: the lower triangle of D' D.
static void covariance(int n, int m, Mat D, Mat Cov) {
  int i, j, k;
  double s;
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.y)
#pragma sched bind(j, threadIdx.x)
  for (i = 0; i < m; i++)
    for (j = i; j < m; j++) {
      s = 0.0;
      for (k = 0; k < n; k++)
        s += D[k][i] * D[k][j];
      Cov[i][j] = s / (n - 1.0);
    }
}

// Correlation: covariance of standardised columns, diagonal 1.
static void correlation(int n, int m, Mat D, Vec sd, Mat Cor) {
  int i, j, k;
  double s;
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.y)
#pragma sched bind(j, threadIdx.x)
  for (i = 0; i < m; i++)
    for (j = i; j < m; j++) {
      s = 0.0;
      for (k = 0; k < n; k++)
        s += D[k][i] * D[k][j];
      Cor[i][j] = s / (sd[i] * sd[j] * n);
    }
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (i = 0; i < m; i++)
    for (j = 0; j < i; j++)
      Cor[i][j] = Cor[j][i];
}

static Mat A, B, C, D, X;
static Vec sd;

static void init(void) {
  int i, j;
  for (i = 0; i < NMAX; i++) {
    sd[i] = 1.0 + (i % 3) * 0.5;
    for (j = 0; j < NMAX; j++) {
      A[i][j] = i == j ? 2.0 * NMAX : ((i * 3 + j * 5) % 7) * 0.25;
      B[i][j] = ((i + j * 2) % 9) * 0.5 - 2.0;
      C[i][j] = ((i * j + 3) % 5) - 2.0;
      D[i][j] = ((i * 7 + j) % 11) * 0.5 - 2.5;
      X[i][j] = 0.0;
    }
  }
  for (i = 0; i < NMAX; i++)
    for (j = 0; j < NMAX; j++)
      if (i != j)
        A[i][j] = A[j][i] = ((i + j) % 5) * 0.25;
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
  int n = argc > 1 ? std::atoi(argv[1]) : 20;
  int m = n > 2 ? n - 2 : n;

  init();
  syrk(n, m, 1.5, 0.5, C, B);
  std::printf("syrk %.10g\n", sumMat(C));
  init();
  syr2k(n, m, 1.5, 0.5, C, B, D);
  std::printf("syr2k %.10g\n", sumMat(C));
  init();
  symm(m, n, 1.5, 0.5, C, A, B);
  std::printf("symm %.10g\n", sumMat(C));
  init();
  trmm(m, n, 1.5, A, B);
  std::printf("trmm %.10g\n", sumMat(B));
  init();
  trisolv(n, m, A, X, B);
  std::printf("trisolv %.10g\n", sumMat(X));
  init();
  cholesky(n, A);
  std::printf("cholesky %.10g\n", sumMat(A));
  init();
  covariance(n, m, D, C);
  std::printf("covariance %.10g\n", sumMat(C));
  init();
  correlation(n, m, D, sd, C);
  std::printf("correlation %.10g\n", sumMat(C));
  return 0;
}
