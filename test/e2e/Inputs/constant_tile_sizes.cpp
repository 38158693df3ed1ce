// Tile sizes kept in one place, as performance engineers write them (issue
// 22, item 6): a constexpr local, a namespace-scope constexpr, an object-like
// macro, an enumerator, a static constexpr member and template parameters
// (two instantiations, each with its own tile size). Run with n as argument.
#include <cstdio>
#include <cstdlib>

#define TILE_ROWS 4
#define TILE_COLS (TILE_ROWS)
namespace cfg {
constexpr int Threads = 2 * 8;
enum { Block = 32 };
} // namespace cfg
using namespace cfg;

static float X[256], Y[256], A[64][64];

static void localConstexpr(int n) {
  constexpr int TS = 8;
#pragma sched target(gpu) split(i, io, ii, TS) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    X[i] = X[i] * 2.f + 1.f;
}

static void macroTile(int n) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, TILE_ROWS, TILE_COLS)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      A[i][j] += i - 0.5f * j;
}

static void namespaceConstants(int n) {
#pragma sched target(gpu) split(i, io, ii, Threads) split(io, ioo, ioi, nparts=Block)
#pragma sched bind(ioo, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    Y[i] = Y[i] - X[i];
}

struct Kernel {
  static constexpr int Width = 4;
  void run(int n) {
#pragma sched target(gpu) split(i, io, ii, Width) bind(io, blockIdx.x) bind(ii, threadIdx.x)
    for (int i = 0; i < n; ++i)
      X[i] += Y[i];
  }
};

template <int TS> static void scaled(int n, float s) {
#pragma sched target(gpu) split(i, io, ii, TS) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    Y[i] = Y[i] * s + TS;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 50;
  for (int i = 0; i < 256; ++i) {
    X[i] = i * 0.25f;
    Y[i] = 3.f - i;
  }
  localConstexpr(n);
  macroTile(n < 64 ? n : 64);
  namespaceConstants(n);
  Kernel().run(n);
  scaled<16>(n, 0.5f);
  scaled<3>(n, 2.f);
  double Sum = 0;
  for (int i = 0; i < 256; ++i)
    Sum += X[i] * (i + 1) + Y[i] * (2 * i + 1);
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      Sum += A[i][j] * (i + j + 1);
  std::printf("%.3f\n", Sum);
}
