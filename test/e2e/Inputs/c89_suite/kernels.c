/* The c89 suite in C (issue 22): kernels of the C++ suite as a C program
   writes them -- C99 variable-length array parameters (double A[ni][nk]),
   counters and temporaries declared at the top of the function, sibling and
   downward loops -- each nest with a GPU schedule. Built as C
   (clang-19 -std=c99) and linked by the C driver with nothing but
   -lsched_runtime. Run with n (default 20; 1 and 0 are edge cases). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* C = alpha A B + beta C over VLA operands, A and B staged in shared
   memory one k step at a time. */
static void gemm(int ni, int nj, int nk, double alpha, double beta, double C[ni][nj],
                 double A[ni][nk], double B[nk][nj]) {
  int i, j, k;
  double acc;
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 8, 8) split(k, ko, ki, 4)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched cache_read(A, shared, As) cache_read(B, shared, Bs)
#pragma sched compute_at(As, ko) compute_at(Bs, ko)
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      acc = beta * C[i][j];
      for (k = 0; k < nk; k++)
        acc = acc + alpha * A[i][k] * B[k][j];
      C[i][j] = acc;
    }
}

/* s = A' r and q = A p, sibling loops reusing i and j. */
static void bicg(int m, int n, double A[n][m], double s[m], double q[n], const double p[m],
                 const double r[n]) {
  int i, j;
  double t;
#pragma sched target(gpu) split(j, jo, ji, 8) bind(jo, blockIdx.x) bind(ji, threadIdx.x)
  for (j = 0; j < m; j++) {
    s[j] = 0.0;
    for (i = 0; i < n; i++)
      s[j] = s[j] + r[i] * A[i][j];
  }
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (i = 0; i < n; i++) {
    t = 0.0;
    for (j = 0; j < m; j++)
      t = t + A[i][j] * p[j];
    q[i] = t;
  }
}

/* Jacobi 2-D with the time loop on the host. */
static void jacobi2d(int tsteps, int n, double A[n][n], double B[n][n]) {
  int t, i, j;
  for (t = 0; t < tsteps; t++) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 4, 8)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 4, 8)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);
  }
}

/* k-means assignment: nearest centroid per point, -INFINITY-free start. */
static void kmeans(int npts, int nf, int nc, double X[npts][nf], double C[nc][nf],
                   int label[npts]) {
  int p, c, f, best;
  double d, t, bd;
#pragma sched target(gpu) split(p, po, pi, 8) bind(po, blockIdx.x) bind(pi, threadIdx.x)
  for (p = 0; p < npts; p++) {
    bd = HUGE_VAL;
    best = -1;
    for (c = 0; c < nc; c++) {
      d = 0.0;
      for (f = 0; f < nf; f++) {
        t = X[p][f] - C[c][f];
        d = d + t * t;
      }
      if (d < bd) {
        bd = d;
        best = c;
      }
    }
    label[p] = best;
  }
}

/* Batched tridiagonal solves: forward elimination, downward back
   substitution, one system per thread. */
static void thomas(int nsys, int n, double a[nsys][n], double b[nsys][n], double c[nsys][n],
                   double d[nsys][n], double x[nsys][n]) {
  int s, i;
  double w;
#pragma sched target(gpu) bind(s, threadIdx.x)
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

static double checksum(int rows, int cols, double M[rows][cols]) {
  double s = 0.0;
  int i, j;
  for (i = 0; i < rows; i++)
    for (j = 0; j < cols; j++)
      s += M[i][j] * ((i * 7 + j * 3) % 10 + 1);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20;
  int m = n > 3 ? n - 3 : n, nc = 3, nf = n < 6 ? n : 6;
  int r = n > 0 ? n : 1, rm = m > 0 ? m : 1, rf = nf > 0 ? nf : 1;
  int i, j;
  double s;
  double(*A)[r] = malloc(sizeof(double) * r * r);
  double(*B)[r] = malloc(sizeof(double) * r * r);
  double(*C)[rm] = malloc(sizeof(double) * r * rm);
  double(*R)[rm] = malloc(sizeof(double) * r * rm);
  double(*X)[rf] = malloc(sizeof(double) * r * rf);
  double(*Cn)[rf] = malloc(sizeof(double) * nc * rf);
  double(*ta)[r] = malloc(sizeof(double) * r * r);
  double(*tb)[r] = malloc(sizeof(double) * r * r);
  double(*tc)[r] = malloc(sizeof(double) * r * r);
  double(*td)[r] = malloc(sizeof(double) * r * r);
  double(*tx)[r] = malloc(sizeof(double) * r * r);
  double *v1 = malloc(sizeof(double) * r), *v2 = malloc(sizeof(double) * r);
  double *v3 = malloc(sizeof(double) * r), *v4 = malloc(sizeof(double) * r);
  int *label = malloc(sizeof(int) * r);

  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      A[i][j] = ((i * 3 + j * 5) % 11) * 0.5 - 2.0;
      B[i][j] = ((i + j * 7) % 13) * 0.25;
      ta[i][j] = ((i + j) % 3) * -0.5;
      tb[i][j] = 4.0 + (j % 2);
      tc[i][j] = ((i * j) % 4) * -0.25;
      td[i][j] = (i + 2 * j) % 7;
      tx[i][j] = -1.0;
    }
    for (j = 0; j < m; j++) {
      C[i][j] = ((i * 2 + j) % 5) - 1.0;
      R[i][j] = ((i + 3 * j) % 7) * 0.125;
    }
    for (j = 0; j < nf; j++)
      X[i][j] = ((i * 5 + j * 3) % 11) * 0.5 + (i % 3) * 2.0;
    v1[i] = (i % 7) * 0.5 - 1.0;
    v2[i] = (i % 5) - 2.0;
    v3[i] = v4[i] = -9.0;
    label[i] = -3;
  }
  for (i = 0; i < nc; i++)
    for (j = 0; j < nf; j++)
      Cn[i][j] = i * 2.0 + (j % 3) * 0.5;

  gemm(n, m, n, 1.5, 0.5, C, A, R);
  printf("gemm %.10g\n", checksum(n, m, C));

  bicg(m, n, R, v3, v4, v1, v2);
  s = 0.0;
  for (i = 0; i < n; i++)
    s += (v3[i] + 2.0 * v4[i]) * (i % 10 + 1);
  printf("bicg %.10g\n", s);

  jacobi2d(3, n, A, B);
  printf("jacobi-2d %.10g %.10g\n", checksum(n, n, A), checksum(n, n, B));

  kmeans(n, nf, nc, X, Cn, label);
  s = 0.0;
  for (i = 0; i < n; i++)
    s += label[i] * (i % 10 + 1);
  printf("kmeans %.10g\n", s);

  thomas(n, n, ta, tb, tc, td, tx);
  printf("thomas %.10g %.10g\n", checksum(n, n, tx), checksum(n, n, tb));

  free(A); free(B); free(C); free(R); free(X); free(Cn);
  free(ta); free(tb); free(tc); free(td); free(tx);
  free(v1); free(v2); free(v3); free(v4); free(label);
  return 0;
}
