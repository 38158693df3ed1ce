// A buffer the source declares unaliased (`float *__restrict A`) through
// which the kernel also passes values between threads: thread x = 0 updates
// A[i] between barriers and every thread reads it after the next one. The
// barrier is given no pointer based on A, so with __restrict__ on A in the
// CUDA signature a compiler may keep A[i] in a register across
// __syncthreads() and read a stale value. Found by the fuzzer under emu
// (seed 391). A test input.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void scaleRows(float *__restrict A, const float *__restrict B, const float *__restrict U,
                      float *__restrict T, int L) {
#pragma sched target(gpu) bind(i, threadIdx.y) bind(q, threadIdx.x)
  for (int i = 0; i < 2; ++i)
    for (int p = 0; p < 4; ++p) {
      for (int q = 0; q < L; ++q)
        T[(i * 4 + p) * L + q] = U[q] - A[i];
      A[i] = A[i] * B[i];
    }
}

int main(int argc, char **argv) {
  int L = argc > 1 ? std::atoi(argv[1]) : 8;
  std::vector<float> A = {1.5f, -2.f}, B = {3.f, 0.5f}, U(L), T(8 * L);
  for (int q = 0; q < L; ++q)
    U[q] = float(q);
  scaleRows(A.data(), B.data(), U.data(), T.data(), L);
  for (int x = 0; x < 8 * L; ++x)
    std::printf("T[%d] %a\n", x, T[x]);
  std::printf("A %a %a\n", A[0], A[1]);
  return 0;
}
