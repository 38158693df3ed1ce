// The c89 suite, solvers (issue 22): direct and iterative solves written as
// C89 codes write them. The sequential steps (the pivot column, the sweep
// over iterations) stay on the host; the nests are the rectangular sweeps
// inside them, bound to blocks and threads, with downward loops, sibling
// loops reusing a counter and scalar temporaries. Run with n (default 20;
// 1 and 0 are edge cases).
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define NMAX 24
#define RHS 16

typedef double Mat[NMAX][NMAX];
typedef double Vec[NMAX];

// LU without pivoting, right-looking: for each pivot k but the last (which
// has nothing below it), scale the column below it, then update the
// trailing rectangle (bounds from the host's k).
static void lu(int n, Mat A) {
  int i, j, k;
  for (k = 0; k < n - 1; k++) {
#pragma sched target(gpu) split(i, io, ii, 16) bind(io, blockIdx.x) bind(ii, threadIdx.x)
    for (i = k + 1; i < n; i++)
      A[i][k] = A[i][k] / A[k][k];
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 4, 8)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
    for (i = k + 1; i < n; i++)
      for (j = k + 1; j < n; j++)
        A[i][j] = A[i][j] - A[i][k] * A[k][j];
  }
}

// U X = B for RHS right-hand sides at once: each thread one column, rows
// bottom up (downward), the row's sum over the columns right of the
// diagonal written as a guard, the sum in a scalar temporary.
static void backSubstitution(int n, int nrhs, Mat U, double B[NMAX][RHS], double X[NMAX][RHS]) {
  int i, j, c;
  double t;
#pragma sched target(gpu) bind(c, threadIdx.x)
  for (c = 0; c < nrhs; c++)
    for (i = n - 1; i >= 0; i--) {
      t = B[i][c];
      for (j = 0; j < n; j++)
        if (j > i)
          t -= U[i][j] * X[j][c];
      X[i][c] = t / U[i][i];
    }
}

// Lower-triangular forward substitution, one system per thread, the solve
// over rows going up with the row's sum a guarded rectangular loop.
static void forwardSubstitution(int n, int nrhs, Mat L, double B[NMAX][RHS],
                                double X[NMAX][RHS]) {
  int i, j, c;
  double t;
#pragma sched target(gpu) split(c, co, ci, 4) bind(co, blockIdx.x) bind(ci, threadIdx.x)
  for (c = 0; c < nrhs; c++)
    for (i = 0; i < n; i++) {
      t = B[i][c];
      for (j = 0; j < n; j++)
        if (j < i)
          t = t - L[i][j] * X[j][c];
      X[i][c] = t / L[i][i];
    }
}

// Batched tridiagonal systems (Thomas algorithm): a forward elimination and a
// downward back substitution, sibling loops over i, one system per thread.
static void thomas(int nsys, int n, double a[RHS][NMAX], double b[RHS][NMAX],
                   double c[RHS][NMAX], double d[RHS][NMAX], double x[RHS][NMAX]) {
  int s, i;
  double w;
#pragma sched target(gpu) split(s, so, si, 8) bind(so, blockIdx.x) bind(si, threadIdx.x)
  for (s = 0; s < nsys; s++) {
    for (i = 1; i < n; i++) {
      w = a[s][i] / b[s][i - 1];
      b[s][i] = b[s][i] - w * c[s][i - 1];
      d[s][i] = d[s][i] - w * d[s][i - 1];
    }
    if (n > 0)
      x[s][n - 1] = d[s][n - 1] / b[s][n - 1];
    for (i = n - 2; i >= 0; i--)
      x[s][i] = (d[s][i] - c[s][i] * x[s][i + 1]) / b[s][i];
  }
}

// Jacobi iteration for A x = b: the host iterates, each sweep is a nest.
static void jacobiSolve(int iters, int n, Mat A, Vec b, Vec x, Vec xn) {
  int it, i, j;
  double s;
  for (it = 0; it < iters; it++) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched cache_read(x, shared, xs) compute_at(xs, io)
    for (i = 0; i < n; i++) {
      s = b[i];
      for (j = 0; j < n; j++)
        if (j != i)
          s = s - A[i][j] * x[j];
      xn[i] = s / A[i][i];
    }
#pragma sched target(gpu) bind(i, threadIdx.x)
    for (i = 0; i < n; i++)
      x[i] = xn[i];
  }
}

// Row equilibration: scale each row to unit infinity norm, the norm in a
// scalar temporary, then the right-hand side with it (sibling loops).
static void equilibrate(int n, Mat A, Vec b) {
  int i, j;
  double m, r;
#pragma sched target(gpu) split(i, io, ii, 4) bind(io, blockIdx.x) bind(ii, threadIdx.y)
#pragma sched bind(j_1, threadIdx.x)
  for (i = 0; i < n; i++) {
    m = 0.0;
    for (j = 0; j < n; j++)
      m = std::fmax(m, std::fabs(A[i][j]));
    r = m > 0.0 ? 1.0 / m : 1.0;
    for (j = 0; j < n; j++)
      A[i][j] = A[i][j] * r;
    b[i] = b[i] * r;
  }
}

// Residual r = b - A x and its squared norm per block of rows.
static void residual(int n, Mat A, Vec x, Vec b, Vec r) {
  int i, j;
  double t;
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched split(j, jo, ji, 4) unroll(ji)
  for (i = 0; i < n; i++) {
    t = b[i];
    for (j = 0; j < n; j++)
      t = t - A[i][j] * x[j];
    r[i] = t;
  }
}

static Mat A, L, U;
static double B[NMAX][RHS], X[NMAX][RHS];
static double ta[RHS][NMAX], tb[RHS][NMAX], tc[RHS][NMAX], td[RHS][NMAX], tx[RHS][NMAX];
static Vec b, x, xn, r;

static void init(void) {
  int i, j;
  for (i = 0; i < NMAX; i++) {
    for (j = 0; j < NMAX; j++) {
      A[i][j] = i == j ? 4.0 * NMAX : ((i * 3 + j * 5) % 7) * 0.5 - 1.5;
      L[i][j] = j <= i ? (i == j ? 2.0 + (i % 3) : ((i + j) % 5) * 0.25) : 0.0;
      U[i][j] = j >= i ? (i == j ? 3.0 - (i % 2) : ((i * j) % 7) * 0.125) : 0.0;
    }
    for (j = 0; j < RHS; j++) {
      B[i][j] = ((i * 2 + j * 3) % 9) - 4.0;
      X[i][j] = -7.0;
    }
    b[i] = (i % 5) + 1.0;
    x[i] = 0.0;
    xn[i] = 0.0;
    r[i] = 0.0;
  }
  for (i = 0; i < RHS; i++)
    for (j = 0; j < NMAX; j++) {
      ta[i][j] = ((i + j) % 3) * -0.5;
      tb[i][j] = 4.0 + (j % 2);
      tc[i][j] = ((i * j) % 4) * -0.25;
      td[i][j] = (i + 2 * j) % 7;
      tx[i][j] = -1.0;
    }
}

static double sumMat(Mat M) {
  double s = 0.0;
  int i, j;
  for (i = 0; i < NMAX; i++)
    for (j = 0; j < NMAX; j++)
      s += M[i][j] * ((i * 7 + j * 3) % 10 + 1);
  return s;
}

static double sumRhs(double M[NMAX][RHS]) {
  double s = 0.0;
  int i, j;
  for (i = 0; i < NMAX; i++)
    for (j = 0; j < RHS; j++)
      s += M[i][j] * ((i + j) % 10 + 1);
  return s;
}

static double sumVec(Vec v) {
  double s = 0.0;
  int i;
  for (i = 0; i < NMAX; i++)
    s += v[i] * (i % 10 + 1);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 20;
  int nrhs = n < RHS ? n : RHS;
  int i, j;
  double s;

  init();
  lu(n, A);
  std::printf("lu %.10g\n", sumMat(A));

  init();
  backSubstitution(n, nrhs, U, B, X);
  std::printf("back-substitution %.10g\n", sumRhs(X));

  init();
  forwardSubstitution(n, nrhs, L, B, X);
  std::printf("forward-substitution %.10g\n", sumRhs(X));

  init();
  thomas(nrhs, n, ta, tb, tc, td, tx);
  s = 0.0;
  for (i = 0; i < RHS; i++)
    for (j = 0; j < NMAX; j++)
      s += (tx[i][j] + tb[i][j] + td[i][j]) * ((i + j) % 7 + 1);
  std::printf("thomas %.10g\n", s);

  init();
  jacobiSolve(5, n, A, b, x, xn);
  std::printf("jacobi-solve %.10g\n", sumVec(x));

  init();
  equilibrate(n, A, b);
  std::printf("equilibrate %.10g %.10g\n", sumMat(A), sumVec(b));

  init();
  for (i = 0; i < NMAX; i++)
    x[i] = (i % 4) * 0.5;
  residual(n, A, x, b, r);
  std::printf("residual %.10g\n", sumVec(r));
  return 0;
}
