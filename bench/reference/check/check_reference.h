//===- check_reference.h - Checking the reference GEMMs against a CPU GEMM -===//
//
// What check_reference_emu.cpp (the kernels' CUDA run on the CPU by the emu
// backend) and check_reference_gpu.cu (run on a GPU) share: the shapes, the
// data, the CPU GEMM and the comparison. Every reference kernel in this
// folder is `extern "C" __global__ void NAME(const float *A, const float *B,
// float *C, int M, int N, int K)` computing C = A * B (row-major), one 64x64
// tile of C per block of 8x8 threads (the tilings of the examples they
// mirror). The inputs are small integers, so every order of summation gives
// exactly the CPU's result: the check asks for a difference of 0. C starts
// as a sentinel, so a store outside the M x N result, or a missing one,
// shows as a difference.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_BENCH_CHECK_REFERENCE_H
#define SCHED_BENCH_CHECK_REFERENCE_H

#include <cmath>
#include <cstdio>
#include <vector>

namespace check_reference {

constexpr int Tile = 64, BlockX = 8, BlockY = 8;
constexpr float Sentinel = -12345.f;

struct Shape {
  int M, N, K;
};

/// Full tiles; full tiles with a k remainder; nothing divides (the
/// examples' sizes); a single element; empty products (K = 0: C = 0) and an
/// empty result.
static const Shape Shapes[] = {{64, 64, 64},   {128, 192, 40}, {100, 130, 36}, {100, 70, 50},
                               {1, 1, 1},      {65, 63, 17},   {5, 7, 0},      {0, 9, 4}};

/// Values in -2..2 from a linear congruential generator.
inline std::vector<float> smallIntegers(size_t Count, unsigned Seed) {
  std::vector<float> V(Count);
  for (float &X : V) {
    Seed = Seed * 1103515245u + 12345u;
    X = float(int((Seed >> 16) % 5) - 2);
  }
  return V;
}

inline void cpuGemm(const std::vector<float> &A, const std::vector<float> &B,
                    std::vector<float> &C, const Shape &S) {
  for (int I = 0; I < S.M; ++I)
    for (int J = 0; J < S.N; ++J) {
      float Acc = 0.f;
      for (int K = 0; K < S.K; ++K)
        Acc += A[size_t(I) * S.K + K] * B[size_t(K) * S.N + J];
      C[size_t(I) * S.N + J] = Acc;
    }
}

inline double maxDifference(const float *Got, const std::vector<float> &Want) {
  double Max = 0;
  for (size_t I = 0; I < Want.size(); ++I)
    Max = std::fmax(Max, std::fabs(double(Got[I]) - double(Want[I])));
  return Max;
}

/// Prints `<mode> <kernel> MxNxK: max difference D`; whether D is 0.
inline bool report(const char *Mode, const char *Kernel, const Shape &S, double Max) {
  std::printf("%s %s %dx%dx%d: max difference %g\n", Mode, Kernel, S.M, S.N, S.K, Max);
  return Max == 0;
}

inline unsigned blocks(int Extent) { return unsigned((Extent + Tile - 1) / Tile); }

} // namespace check_reference

#endif // SCHED_BENCH_CHECK_REFERENCE_H
