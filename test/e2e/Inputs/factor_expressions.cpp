// Tile sizes written as expressions over constants (issue 22, item 6):
// `TS*2`, `TS/2`, `(N+1)`, `2*TS-1`, `nparts=TS/4` and a macro that expands
// to an expression, over a constexpr local, a macro, a template parameter
// (two instantiations) and an enumerator, and storage_align with expressions.
// Run with n as argument.
#include <cstdio>
#include <cstdlib>

#define TS 8
#define HALF (TS / 2)
enum { N = 3 };

static float X[256], Y[256], A[64][64], B[64][64];

static void products(int n) {
  constexpr int W = 4;
#pragma sched target(gpu) split(i, io, ii, W*2) split(io, ioo, ioi, nparts=TS/4)
#pragma sched bind(ioo, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    X[i] = X[i] * 2.f + 1.f;
}

static void sumsAndDifferences(int n) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, (N+1), 2*TS-1)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      A[i][j] += i - 0.5f * j;
}

template <int T> static void scaled(int n, float s) {
#pragma sched target(gpu) split(i, io, ii, T/2) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    Y[i] = Y[i] * s + T;
}

static void staged(int n) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, TS, TS) bind(io, blockIdx.y) bind(jo, blockIdx.x)
#pragma sched bind(ii, threadIdx.y) bind(ji, threadIdx.x) cache_read(A, shared, As) compute_at(As, jo)
#pragma sched storage_align(As, As.ax0, HALF*2, HALF-3)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      B[i][j] = A[i][j] * 3.f - 1.f;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 50;
  for (int i = 0; i < 256; ++i) {
    X[i] = i * 0.25f;
    Y[i] = 3.f - i;
  }
  products(n);
  sumsAndDifferences(n < 64 ? n : 64);
  scaled<16>(n, 0.5f);
  scaled<6>(n, 2.f);
  staged(n < 64 ? n : 64);
  double Sum = 0;
  for (int i = 0; i < 256; ++i)
    Sum += X[i] * (i + 1) + Y[i] * (2 * i + 1);
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      Sum += A[i][j] * (i + j + 1) + B[i][j] * (i + 2 * j + 1);
  std::printf("%.3f\n", Sum);
}
