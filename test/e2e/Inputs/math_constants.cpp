// The math constants as initial values (issue 22, item 8): `-INFINITY` (a call
// to `__builtin_inff`), `HUGE_VAL`, `std::numeric_limits<T>::lowest()` and
// `max()` are constants, not calls with side effects. Run with n.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

static float A[32][32], RowMax[32], ColMin[32];
static double D[32][32], Range[32];

static void rowMax(int n) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    float best = -INFINITY;
    for (int j = 0; j < n; ++j)
      best = std::fmax(best, A[i][j]);
    RowMax[i] = best;
  }
}

static void colMin(int n) {
#pragma sched target(gpu) bind(j, threadIdx.x)
  for (int j = 0; j < n; ++j) {
    float best = std::numeric_limits<float>::max();
    for (int i = 0; i < n; ++i)
      best = A[i][j] < best ? A[i][j] : best;
    ColMin[j] = best;
  }
}

static void range(int n) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    double lo = HUGE_VAL, hi = std::numeric_limits<double>::lowest();
    for (int j = 0; j < n; ++j) {
      lo = std::fmin(lo, D[i][j]);
      hi = std::fmax(hi, D[i][j]);
    }
    Range[i] = hi - lo;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 32;
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      A[i][j] = ((i * 13 + j * 7) % 23) - 11.5f;
      D[i][j] = ((i * 5 + j * 11) % 17) * 0.75 - 4.0;
    }
  rowMax(n);
  colMin(n);
  range(n);
  for (int i = 0; i < 32; ++i)
    std::printf("%d %g %g %g\n", i, RowMax[i], ColMin[i], Range[i]);
}
