// A cache_write stage in shared memory computed inside a loop bound to
// vthread (fuzz seed 24542): the stage's region spans the virtual threads,
// its write-back is distributed by the user and runs once for all of them.
// Run with M as the argument.
#include <cstdio>
#include <cstdlib>

static float A[36], B[64];

static void nest(int M, bool Double) {
  int i, j, k, l;
  if (Double) {
#pragma sched target(gpu) split(i, io, ii, 2) cache_write(A, shared, As)
#pragma sched compute_at(As, l) double_buffer(As) fuse(As.ax0, As.ax1, As.f1)
#pragma sched fuse(As.f1, As.ax2, As.f2) split(As.f2, As.o, As.t, 3) bind(io, blockIdx.x)
#pragma sched bind(ii, blockIdx.y) bind(k, threadIdx.x) bind(j, vthread)
#pragma sched bind(As.t, threadIdx.x)
    for (i = 0; i < 4; ++i)
      for (j = 0; j < 3; ++j)
        for (k = 0; k < 3; ++k)
          for (l = 0; l < M; ++l)
            A[9 * i + 3 * j + k] += B[l] * (j + 1);
  } else {
#pragma sched target(gpu) split(i, io, ii, 2) cache_write(A, shared, As)
#pragma sched compute_at(As, l) fuse(As.ax0, As.ax1, As.f1)
#pragma sched fuse(As.f1, As.ax2, As.f2) split(As.f2, As.o, As.t, 3) bind(io, blockIdx.x)
#pragma sched bind(ii, blockIdx.y) bind(k, threadIdx.x) bind(j, vthread)
#pragma sched bind(As.t, threadIdx.x)
    for (i = 0; i < 4; ++i)
      for (j = 0; j < 3; ++j)
        for (k = 0; k < 3; ++k)
          for (l = 0; l < M; ++l)
            A[9 * i + 3 * j + k] += B[l] - k;
  }
  std::printf("i=%d j=%d k=%d\n", i, j, k);
}

int main(int argc, char **argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 17;
  for (int l = 0; l < 64; ++l)
    B[l] = (l % 7) * 0.5f - 1.f;
  for (int x = 0; x < 36; ++x)
    A[x] = x * 0.25f;
  nest(M, true);
  nest(M, false);
  double Sum = 0;
  for (int x = 0; x < 36; ++x)
    Sum += A[x] * (x + 1);
  std::printf("%.4f\n", Sum);
}
