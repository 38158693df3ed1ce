// The c89 suite, data mining (issue 22): per-point and per-row reductions
// written as C89 codes write them -- scalar temporaries (a running minimum
// and its index, a mean, a count), -INFINITY as an initial value, sibling
// loops reusing a counter -- each with a GPU schedule: points or rows to
// blocks and threads, the small shared operand (centroids, a mean) staged in
// shared memory. Run with n (default 24; 1 and 0 are edge cases).
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define NP 32
#define NF 8
#define NC 4

typedef double Mat[NP][NP];

// k-means assignment: the distance to every centroid, the nearest one's
// index, centroids staged in shared memory for the block.
static void kmeansAssign(int npts, int nf, int nc, double X[NP][NF], double C[NC][NF],
                         int label[NP], double dist[NP]) {
  int p, c, f, best;
  double d, t, bd;
#pragma sched target(gpu) split(p, po, pi, 8) bind(po, blockIdx.x) bind(pi, threadIdx.x)
#pragma sched cache_read(C, shared, Cs) compute_at(Cs, po)
  for (p = 0; p < npts; p++) {
    bd = INFINITY;
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
    dist[p] = bd;
  }
}

// k-means update: each (centroid, feature) pair sums its points.
static void kmeansUpdate(int npts, int nf, int nc, double X[NP][NF], const int label[NP],
                         double C[NC][NF]) {
  int p, c, f, cnt;
  double s;
#pragma sched target(gpu) bind(c, blockIdx.x) bind(f, threadIdx.x)
  for (c = 0; c < nc; c++)
    for (f = 0; f < nf; f++) {
      s = 0.0;
      cnt = 0;
      for (p = 0; p < npts; p++)
        if (label[p] == c) {
          s = s + X[p][f];
          cnt = cnt + 1;
        }
      C[c][f] = cnt > 0 ? s / cnt : C[c][f];
    }
}

// Per-row statistics: minimum, maximum and mean in scalar temporaries.
static void rowStats(int n, int m, Mat A, double lo[NP], double hi[NP], double mean[NP]) {
  int i, j;
  double mn, mx, s;
#pragma sched target(gpu) split(i, io, ii, 16) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (i = 0; i < n; i++) {
    mn = INFINITY;
    mx = -INFINITY;
    s = 0.0;
    for (j = 0; j < m; j++) {
      mn = std::fmin(mn, A[i][j]);
      mx = std::fmax(mx, A[i][j]);
      s = s + A[i][j];
    }
    lo[i] = mn;
    hi[i] = mx;
    mean[i] = m > 0 ? s / m : 0.0;
  }
}

// Row normalisation (z-scores): mean, then deviation, then the scaled row,
// three sibling loops over j, the statistics in scalar temporaries.
static void rowNormalise(int n, int m, Mat A) {
  int i, j;
  double s, mu, sd;
#pragma sched target(gpu) split(i, io, ii, 4) bind(io, blockIdx.x) bind(ii, threadIdx.y)
#pragma sched bind(j_2, threadIdx.x)
  for (i = 0; i < n; i++) {
    s = 0.0;
    for (j = 0; j < m; j++)
      s = s + A[i][j];
    mu = s / m;
    s = 0.0;
    for (j = 0; j < m; j++)
      s = s + (A[i][j] - mu) * (A[i][j] - mu);
    sd = std::sqrt(s / m);
    if (sd <= 0.1)
      sd = 1.0;
    for (j = 0; j < m; j++)
      A[i][j] = (A[i][j] - mu) / sd;
  }
}

// Counts above a threshold per row: a histogram-free reduction into an
// integer temporary.
static void countAbove(int n, int m, Mat A, double thr, int count[NP]) {
  int i, j, k;
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched split(j, jo, ji, 4) unroll(ji)
  for (i = 0; i < n; i++) {
    k = 0;
    for (j = 0; j < m; j++)
      k = k + (A[i][j] > thr ? 1 : 0);
    count[i] = k;
  }
}

// Column means and centring (covariance's rectangular part): the means
// staged in shared memory for the centring tile.
static void centre(int n, int m, Mat D, double mean[NP]) {
  int i, j;
  double s;
#pragma sched target(gpu) split(j, jo, ji, 16) bind(jo, blockIdx.x) bind(ji, threadIdx.x)
  for (j = 0; j < m; j++) {
    s = 0.0;
    for (i = 0; i < n; i++)
      s = s + D[i][j];
    mean[j] = n > 0 ? s / n : 0.0;
  }
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 8, 8)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched cache_read(mean, shared, ms) compute_at(ms, jo)
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      D[i][j] = D[i][j] - mean[j];
}

// Pairwise Euclidean distances between the rows of X (all pairs).
static void pairwise(int npts, int nf, double X[NP][NF], Mat Dst) {
  int i, j, f;
  double d, t;
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 8, 8)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
  for (i = 0; i < npts; i++)
    for (j = 0; j < npts; j++) {
      d = 0.0;
      for (f = 0; f < nf; f++) {
        t = X[i][f] - X[j][f];
        d = d + t * t;
      }
      Dst[i][j] = std::sqrt(d);
    }
}

// Softmax per row: maximum, sum of exponentials, normalise (sibling loops,
// -INFINITY start).
static void softmax(int n, int m, Mat A, Mat P) {
  int i, j;
  double mx, s;
#pragma sched target(gpu) bind(i, blockIdx.x) bind(j_1, threadIdx.x) bind(j_3, threadIdx.x)
  for (i = 0; i < n; i++) {
    mx = -INFINITY;
    for (j = 0; j < m; j++)
      mx = A[i][j] > mx ? A[i][j] : mx;
    for (j = 0; j < m; j++)
      P[i][j] = std::exp(A[i][j] - mx);
    s = 0.0;
    for (j = 0; j < m; j++)
      s = s + P[i][j];
    for (j = 0; j < m; j++)
      P[i][j] = P[i][j] / s;
  }
}

static double X[NP][NF], Cn[NC][NF], dist[NP], lo[NP], hi[NP], mean[NP];
static int label[NP], count[NP];
static Mat A, P;

static void init(void) {
  int i, j;
  for (i = 0; i < NP; i++) {
    for (j = 0; j < NF; j++)
      X[i][j] = ((i * 5 + j * 3) % 11) * 0.5 + (i % 4) * 2.0;
    for (j = 0; j < NP; j++) {
      A[i][j] = ((i * 3 + j * 7) % 13) * 0.25 - 1.0;
      P[i][j] = -1.0;
    }
    dist[i] = lo[i] = hi[i] = mean[i] = -5.0;
    label[i] = count[i] = -3;
  }
  for (i = 0; i < NC; i++)
    for (j = 0; j < NF; j++)
      Cn[i][j] = i * 2.0 + (j % 3) * 0.5;
}

static double sumMat(Mat M) {
  double s = 0.0;
  int i, j;
  for (i = 0; i < NP; i++)
    for (j = 0; j < NP; j++)
      s += M[i][j] * ((i * 7 + j * 3) % 10 + 1);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 24;
  int m = n > 3 ? n - 3 : n;
  int nf = n < NF ? n : NF;
  int i, j, it;
  double s;

  init();
  for (it = 0; it < 3; it++) {
    kmeansAssign(n, nf, NC, X, Cn, label, dist);
    kmeansUpdate(n, nf, NC, X, label, Cn);
  }
  s = 0.0;
  for (i = 0; i < NP; i++)
    s += (label[i] + 0.5 * dist[i]) * (i % 10 + 1);
  for (i = 0; i < NC; i++)
    for (j = 0; j < NF; j++)
      s += Cn[i][j] * (i + j + 1);
  std::printf("kmeans %.10g\n", s);

  init();
  rowStats(n, m, A, lo, hi, mean);
  s = 0.0;
  for (i = 0; i < NP; i++)
    s += (lo[i] + 2.0 * hi[i] + 3.0 * mean[i]) * (i % 10 + 1);
  std::printf("row-stats %.10g\n", s);

  init();
  rowNormalise(n, m, A);
  std::printf("row-normalise %.10g\n", sumMat(A));

  init();
  countAbove(n, m, A, 0.5, count);
  s = 0.0;
  for (i = 0; i < NP; i++)
    s += count[i] * (i % 10 + 1);
  std::printf("count-above %.10g\n", s);

  init();
  centre(n, m, A, mean);
  s = sumMat(A);
  for (i = 0; i < NP; i++)
    s += mean[i] * (i + 1);
  std::printf("centre %.10g\n", s);

  init();
  pairwise(n, nf, X, A);
  std::printf("pairwise %.10g\n", sumMat(A));

  init();
  softmax(n, m, A, P);
  std::printf("softmax %.10g\n", sumMat(P));
  return 0;
}
