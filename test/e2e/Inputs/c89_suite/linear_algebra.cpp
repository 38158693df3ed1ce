// The c89 suite, linear algebra (issue 22): classic dense kernels written as
// C89 codes write them -- counters and scalar temporaries declared at the top
// of the function, sibling loops reusing a counter, sizes as parameters,
// fixed-capacity array parameters -- each nest annotated with the schedule a
// performance engineer porting it to a GPU would write, and nothing else
// changed. main initialises deterministically, runs every kernel and prints a
// checksum per kernel. Run with n (default 24; 1 and 0 are edge cases).
#include <cstdio>
#include <cstdlib>

#define NMAX 32
#define TS 8
constexpr int TJ = 16;

typedef double Mat[NMAX][NMAX];
typedef double Vec[NMAX];

// C = alpha*A*B + beta*C, as PolyBench orders it: the scaling loop over j and
// the update's j (j_1, under k) are siblings. Rows to blocks and threads; the
// update's j moved outside k so that both j loops are the block's x threads.
static void gemm(int ni, int nj, int nk, double alpha, double beta, Mat C, Mat A, Mat B) {
  int i, j, k;
#pragma sched target(gpu) split(i, io, ii, 4) bind(io, blockIdx.x) bind(ii, threadIdx.y)
#pragma sched reorder(j_1, k) bind(j, threadIdx.x) bind(j_1, threadIdx.x)
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (k = 0; k < nk; k++)
      for (j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
}

// C = A*B as a tuned GEMM: 8x8 tiles, k in steps of 4 moved outside the
// thread loops (the initialisation distributed), both operands staged in
// shared memory per k step, A's rows padded against bank conflicts, B's
// stage double-buffered.
static void gemmTiled(int n, Mat C, Mat A, Mat B) {
  int i, j, k;
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 8, 8) split(k, ko, ki, 4)
#pragma sched reorder(io, jo, ii, ji, ko, ki)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched cache_read(A, shared, As) cache_read(B, shared, Bs)
#pragma sched compute_at(As, ko) compute_at(Bs, ko)
#pragma sched storage_align(As, As.ax0, 16, 1) double_buffer(Bs)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      C[i][j] = 0.0;
      for (k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
}

// C = beta*C + A*B register-blocked: two rows per thread as virtual
// threads, the output accumulated in a per-thread local stage, A's block
// rows in shared memory.
static void gemmRegisterBlocked(int n, double beta, Mat C, Mat A, Mat B) {
  int i, j, k;
#pragma sched target(gpu) split(i, io, ir, 8) split(ir, iv, it, 2) split(j, jo, jt, 8)
#pragma sched reorder(io, jo, iv, it, jt) bind(io, blockIdx.y) bind(jo, blockIdx.x)
#pragma sched bind(iv, vthread) bind(it, threadIdx.y) bind(jt, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, jo)
#pragma sched cache_write(C, local, Cl) compute_at(Cl, jt)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      C[i][j] *= beta;
      for (k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
}

// tmp = alpha*A*B; D = beta*D + tmp*C. The first product stages A's rows of
// the block in shared memory; the second tiles with named factors and keeps
// its accumulator in a scalar temporary.
static void mm2(int ni, int nj, int nk, int nl, double alpha, double beta, Mat tmp, Mat A,
                Mat B, Mat C, Mat D) {
  int i, j, k;
  double acc;
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 8, 8)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, jo)
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      tmp[i][j] = 0.0;
      for (k = 0; k < nk; ++k)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, TS, TJ)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      acc = D[i][j] * beta;
      for (k = 0; k < nj; ++k)
        acc += tmp[i][k] * C[k][j];
      D[i][j] = acc;
    }
}

// E = A*B; F = C*D; G = E*F: three products, three schedules (virtual
// threads; a split reduction with both operands staged in shared memory per
// k step; a local copy of the row).
static void mm3(int ni, int nj, int nk, int nl, int nm, Mat E, Mat A, Mat B, Mat F, Mat C,
                Mat D, Mat G) {
  int i, j, k;
#pragma sched target(gpu) split(i, ib, ir, 8) split(ir, iv, it, 2) split(j, jb, jt, 8)
#pragma sched reorder(ib, jb, iv, it, jt) bind(ib, blockIdx.y) bind(jb, blockIdx.x)
#pragma sched bind(iv, vthread) bind(it, threadIdx.y) bind(jt, threadIdx.x)
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      E[i][j] = 0.0;
      for (k = 0; k < nk; ++k)
        E[i][j] += A[i][k] * B[k][j];
    }
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 8, 8) split(k, ko, ki, 4)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched cache_read(C, shared, Cs) cache_read(D, shared, Ds)
#pragma sched compute_at(Cs, ko) compute_at(Ds, ko)
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++) {
      F[i][j] = 0.0;
      for (k = 0; k < nm; ++k)
        F[i][j] += C[i][k] * D[k][j];
    }
#pragma sched target(gpu) split(i, io, ii, 4) bind(io, blockIdx.x) bind(ii, threadIdx.y)
#pragma sched split(j, jo, ji, 16) bind(ji, threadIdx.x) unroll(jo)
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      G[i][j] = 0.0;
      for (k = 0; k < nj; ++k)
        G[i][j] += E[i][k] * F[k][j];
    }
}

// y = A^T (A x), as two row reductions through a scalar temporary; the
// second reads A by columns, each thread one column.
static void atax(int m, int n, Mat A, Vec x, Vec y, Vec tmp) {
  int i, j;
  double t, u;
#pragma sched target(gpu) split(i, io, ii, TS) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (i = 0; i < m; i++) {
    t = 0.0;
    for (j = 0; j < n; j++)
      t = t + A[i][j] * x[j];
    tmp[i] = t;
  }
#pragma sched target(gpu) split(j, jo, ji, 32) bind(jo, blockIdx.x) bind(ji, threadIdx.x)
  for (j = 0; j < n; j++) {
    u = 0.0;
    for (i = 0; i < m; i++)
      u = u + A[i][j] * tmp[i];
    y[j] = u;
  }
}

// s = A^T r, q = A p: one nest per product, p staged in shared memory.
static void bicg(int m, int n, Mat A, Vec s, Vec q, Vec p, Vec r) {
  int i, j;
#pragma sched target(gpu) split(j, jo, ji, 16) bind(jo, blockIdx.x) bind(ji, threadIdx.x)
  for (j = 0; j < m; j++) {
    s[j] = 0.0;
    for (i = 0; i < n; i++)
      s[j] = s[j] + r[i] * A[i][j];
  }
#pragma sched target(gpu) split(i, io, ii, 16) bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched cache_read(p, shared, ps) compute_at(ps, io)
  for (i = 0; i < n; i++) {
    q[i] = 0.0;
    for (j = 0; j < m; j++)
      q[i] = q[i] + A[i][j] * p[j];
  }
}

// x1 += A y1; x2 += A^T y2 in one nest: sibling j loops under i.
static void mvt(int n, Vec x1, Vec x2, Vec y1, Vec y2, Mat A) {
  int i, j;
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      x1[i] = x1[i] + A[i][j] * y1[j];
    for (j = 0; j < n; j++)
      x2[i] = x2[i] + A[j][i] * y2[j];
  }
}

// A += u1 v1' + u2 v2'; x += beta A' y + z; w += alpha A x.
static void gemver(int n, double alpha, double beta, Mat A, Vec u1, Vec v1, Vec u2, Vec v2,
                   Vec w, Vec x, Vec y, Vec z) {
  int i, j;
  double t, u;
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 4, TJ)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (i = 0; i < n; i++) {
    t = x[i];
    for (j = 0; j < n; j++)
      t = t + beta * A[j][i] * y[j];
    x[i] = t + z[i];
  }
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched cache_read(x, shared, xs) compute_at(xs, io)
  for (i = 0; i < n; i++) {
    u = w[i];
    for (j = 0; j < n; j++)
      u = u + alpha * A[i][j] * x[j];
    w[i] = u;
  }
}

// y = alpha A x + beta B x, two accumulations in one j loop.
static void gesummv(int n, double alpha, double beta, Mat A, Mat B, Vec tmp, Vec x, Vec y) {
  int i, j;
#pragma sched target(gpu) split(i, io, ii, 16) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (i = 0; i < n; i++) {
    tmp[i] = 0.0;
    y[i] = 0.0;
    for (j = 0; j < n; j++) {
      tmp[i] = A[i][j] * x[j] + tmp[i];
      y[i] = B[i][j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

// A[r][q][:] = A[r][q][:] * C4: the sum is an array of the q iteration, so
// r and q are independent (blocks and threads).
#define PMAX 12
static void doitgen(int nr, int nq, int np, double A[PMAX][PMAX][PMAX], double C4[PMAX][PMAX]) {
  int r, q, p, s;
#pragma sched target(gpu) bind(r, blockIdx.x) bind(q, threadIdx.x)
  for (r = 0; r < nr; r++)
    for (q = 0; q < nq; q++) {
      double sum[PMAX];
      for (p = 0; p < np; p++) {
        sum[p] = 0.0;
        for (s = 0; s < np; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < np; p++)
        A[r][q][p] = sum[p];
    }
}

static Mat A, B, C, D, E, F, G, T;
static Vec v1, v2, v3, v4, v5, v6, v7, v8;
static double A3[PMAX][PMAX][PMAX], C4[PMAX][PMAX];

static void init(void) {
  int i, j, k;
  for (i = 0; i < NMAX; i++) {
    v1[i] = (i % 7) * 0.5 - 1.0;
    v2[i] = (i % 5) - 2.0;
    v3[i] = 0.25 * (i % 9);
    v4[i] = 1.0 - 0.125 * (i % 11);
    v5[i] = (i % 3) * 0.75;
    v6[i] = (i % 4) - 1.5;
    v7[i] = i * 0.125;
    v8[i] = 2.0 - (i % 6) * 0.5;
    for (j = 0; j < NMAX; j++) {
      A[i][j] = ((i * 3 + j * 7) % 13) * 0.25 - 1.5;
      B[i][j] = ((i * 5 + j) % 9) * 0.5 - 2.0;
      C[i][j] = ((i + j * 2) % 7) - 3.0;
      D[i][j] = ((i * j + 1) % 5) * 0.5;
      E[i][j] = F[i][j] = G[i][j] = T[i][j] = -9.0;
    }
  }
  for (i = 0; i < PMAX; i++)
    for (j = 0; j < PMAX; j++) {
      C4[i][j] = ((i * 2 + j) % 5) - 2.0;
      for (k = 0; k < PMAX; k++)
        A3[i][j][k] = ((i + j * 3 + k * 5) % 7) * 0.5;
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

static double sumVec(Vec v) {
  double s = 0.0;
  int i;
  for (i = 0; i < NMAX; i++)
    s += v[i] * (i % 10 + 1);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 24;
  int m = n > 2 ? n - 2 : n; // a second size, for rectangular shapes
  int i, j, k;
  double s;

  init();
  gemm(n, m, n, 1.5, 0.5, C, A, B);
  std::printf("gemm %.10g\n", sumMat(C));

  init();
  gemmTiled(n, C, A, B);
  std::printf("gemm-tiled %.10g\n", sumMat(C));

  init();
  gemmRegisterBlocked(n, 0.5, D, A, B);
  std::printf("gemm-register-blocked %.10g\n", sumMat(D));

  init();
  mm2(n, m, n, m, 0.5, 1.5, T, A, B, C, D);
  std::printf("2mm %.10g %.10g\n", sumMat(T), sumMat(D));

  init();
  mm3(n, m, n, n, m, E, A, B, F, C, D, G);
  std::printf("3mm %.10g %.10g %.10g\n", sumMat(E), sumMat(F), sumMat(G));

  init();
  atax(m, n, A, v1, v2, v3);
  std::printf("atax %.10g %.10g\n", sumVec(v2), sumVec(v3));

  init();
  bicg(m, n, A, v1, v2, v3, v4);
  std::printf("bicg %.10g %.10g\n", sumVec(v1), sumVec(v2));

  init();
  mvt(n, v1, v2, v3, v4, A);
  std::printf("mvt %.10g %.10g\n", sumVec(v1), sumVec(v2));

  init();
  gemver(n, 1.5, 0.5, A, v1, v2, v3, v4, v5, v6, v7, v8);
  std::printf("gemver %.10g %.10g %.10g\n", sumMat(A), sumVec(v5), sumVec(v6));

  init();
  gesummv(n, 1.5, -0.5, A, B, v1, v2, v3);
  std::printf("gesummv %.10g %.10g\n", sumVec(v1), sumVec(v3));

  init();
  k = n < PMAX ? n : PMAX;
  doitgen(k, k > 1 ? k - 1 : k, k, A3, C4);
  s = 0.0;
  for (i = 0; i < PMAX; i++)
    for (j = 0; j < PMAX; j++)
      for (k = 0; k < PMAX; k++)
        s += A3[i][j][k] * ((i + j + k) % 4 + 1);
  std::printf("doitgen %.10g\n", s);
  return 0;
}
