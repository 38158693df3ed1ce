//===- cublas_gemm.h - cuBLAS as the reference GEMM of the benchmarks -----===//
//
// What every benchmark that sets a scheduled GEMM against cuBLAS shares
// (bench/tensorcore/driver.inc, bench/gpu-check/time_example_gemm.cpp): the
// small-integer operands that make any summation order exact, the largest
// difference of two results, the host-clock and CUDA-event timers, and one
// row-major C = A B through cuBLAS (cublasSgemm for fp32, cublasGemmEx on the
// tensor cores for fp16 and int8) on device arrays.
//
// Without SCHED_BENCH_CUDA (no CUDA toolkit at build time) only the parts
// that need no CUDA are defined.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_BENCH_CUBLAS_GEMM_H
#define SCHED_BENCH_CUBLAS_GEMM_H

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#if SCHED_BENCH_CUDA
#include <cublas_v2.h>
#include <cuda_runtime.h>
#endif

namespace bench {

/// Small integers (A in -4..4, B in -3..3): with K up to 2^20 / 12 every
/// partial sum is exact in fp32 accumulators and in int32, and every product
/// of fp16 operands is exact, so ours and cuBLAS's agree bit for bit whatever
/// order each sums in.
template <typename T> void fillSmallIntegers(std::vector<T> &A, std::vector<T> &B) {
  for (size_t X = 0; X < A.size(); ++X)
    A[X] = (T)((int)((X * 7 + 3) % 9) - 4);
  for (size_t X = 0; X < B.size(); ++X)
    B[X] = (T)((int)((X * 5 + 1) % 7) - 3);
}

template <typename T> double maxDiff(const std::vector<T> &X, const std::vector<T> &Y) {
  double D = 0;
  for (size_t I = 0; I < X.size(); ++I) {
    double E = (double)X[I] - (double)Y[I];
    D = E > D ? E : -E > D ? -E : D;
  }
  return D;
}

/// Mean microseconds per call of F over Iters calls, after Warmup calls, by
/// the host clock (F synchronizes, as the launcher always does).
template <typename Fn> double meanMicroseconds(Fn F, int Warmup, int Iters) {
  for (int I = 0; I < Warmup; ++I)
    F();
  auto Start = std::chrono::steady_clock::now();
  for (int I = 0; I < Iters; ++I)
    F();
  auto End = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(End - Start).count() / Iters;
}

#if SCHED_BENCH_CUDA
/// In a function returning int: print the failed CUDA runtime call and
/// return 1.
#define BENCH_CHECK_CUDA(X)                                                                        \
  do {                                                                                             \
    cudaError_t E = (X);                                                                           \
    if (E != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "%s: %s\n", #X, cudaGetErrorString(E));                                 \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

enum class GemmType { F32, F16, I8 };

/// Row-major C (M x N) = A (M x K) B, B row-major (K x N) or, with ColB,
/// column-major (N x K), on device arrays: fp32 through cublasSgemm, fp16
/// (fp32 C) and int8 (int32 C) through cublasGemmEx. Row-major C = A B is
/// column-major C^T = B^T A^T, so the operands swap; a column-major B is a
/// row-major B^T, read transposed.
inline cublasStatus_t gemmRowMajor(cublasHandle_t H, GemmType T, int M, int N, int K,
                                   const void *A, const void *B, bool ColB, void *C) {
  const cublasOperation_t OpB = ColB ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int LdB = ColB ? K : N;
  if (T == GemmType::F32) {
    const float One = 1, Zero = 0;
    return cublasSgemm(H, OpB, CUBLAS_OP_N, N, M, K, &One, (const float *)B, LdB,
                       (const float *)A, K, &Zero, (float *)C, N);
  }
  const bool Int8 = T == GemmType::I8;
  const float AlphaF = 1, BetaF = 0;
  const int AlphaI = 1, BetaI = 0;
  return cublasGemmEx(H, OpB, CUBLAS_OP_N, N, M, K,
                      Int8 ? (const void *)&AlphaI : (const void *)&AlphaF, B,
                      Int8 ? CUDA_R_8I : CUDA_R_16F, LdB, A, Int8 ? CUDA_R_8I : CUDA_R_16F, K,
                      Int8 ? (const void *)&BetaI : (const void *)&BetaF, C,
                      Int8 ? CUDA_R_32I : CUDA_R_32F, N,
                      Int8 ? CUBLAS_COMPUTE_32I : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

/// The median over Iters calls of F (after Warmup calls) of the device time
/// between two CUDA events recorded on the default stream around each call:
/// the kernels' time, without the host's. Negative when events fail.
template <typename Fn> double medianEventMilliseconds(Fn F, int Warmup, int Iters) {
  for (int I = 0; I < Warmup; ++I)
    F();
  cudaEvent_t Start, Stop;
  if (cudaEventCreate(&Start) != cudaSuccess || cudaEventCreate(&Stop) != cudaSuccess)
    return -1;
  std::vector<float> Ms;
  for (int I = 0; I < Iters; ++I) {
    float T = 0;
    cudaEventRecord(Start, 0);
    F();
    cudaEventRecord(Stop, 0);
    if (cudaEventSynchronize(Stop) != cudaSuccess ||
        cudaEventElapsedTime(&T, Start, Stop) != cudaSuccess)
      return -1;
    Ms.push_back(T);
  }
  cudaEventDestroy(Start);
  cudaEventDestroy(Stop);
  if (Ms.empty())
    return -1;
  std::sort(Ms.begin(), Ms.end());
  return Ms[Ms.size() / 2];
}
#endif

} // namespace bench

#endif // SCHED_BENCH_CUBLAS_GEMM_H
