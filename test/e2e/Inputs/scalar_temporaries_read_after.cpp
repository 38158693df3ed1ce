// Scalar temporaries of a nest that the program reads after it (issue 22,
// item 4): after the nest each holds the last iteration's value, as C
// leaves it: a row sum's accumulator, an innermost temporary of a 2-D nest
// (a downward inner loop), an integer temporary, each scheduled to
// blocks/threads; where no iteration runs, the value from before the nest.
// Run with n as argument.
#include <cstdio>
#include <cstdlib>

#define NMAX 40
static double A[NMAX][NMAX], x[NMAX], y[NMAX];

static double rowSums(int n) {
  int i, j;
  double t = -1.5;
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (i = 0; i < n; i++) {
    t = 0;
    for (j = 0; j < n; j++)
      t += A[i][j] * x[j];
    y[i] = t;
  }
  return t;
}

static double scaled(int n) {
  int i, j;
  double s = 7;
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 4, 8)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
  for (i = 0; i < n; i++)
    for (j = n - 1; j >= 0; j--) {
      s = A[i][j] * 0.5 + x[i];
      A[i][j] = s - y[j];
    }
  return s;
}

static long counted(int n) {
  int i;
  long c = 42;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    c = (long)(x[i] * 10) % 7;
    x[i] += c;
  }
  return c;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : NMAX;
  for (int i = 0; i < NMAX; ++i) {
    x[i] = 0.25 * i - 3;
    y[i] = 1.0 / (i + 1);
    for (int j = 0; j < NMAX; ++j)
      A[i][j] = (i * 7 + j * 3) % 11 - 5.0;
  }
  double t = rowSums(n);
  double s = scaled(n);
  long c = counted(n);
  double Sum = 0;
  for (int i = 0; i < NMAX; ++i) {
    Sum += x[i] * (i + 1) + y[i] * (2 * i + 1);
    for (int j = 0; j < NMAX; ++j)
      Sum += A[i][j] * (i + j + 1);
  }
  std::printf("%.6f %.6f %ld %.6f\n", t, s, c, Sum);
}
