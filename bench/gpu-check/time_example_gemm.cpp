//===- time_example_gemm.cpp - An fp32 GEMM example against cublasSgemm ---===//
//
// bench/gpu-check.sh builds this once per fp32 GEMM example with the plugin:
// EXAMPLE_FILE is the example's source (examples/matmul.cpp,
// examples/gemm_vthread.cpp), EXAMPLE_GEMM the name of its scheduled
// `void f(const float *A, const float *B, float *C, int M, int N, int K)`.
// The example is included whole, its main renamed, so its schedule is
// exactly the one the e2e tests check.
//
//   time_example_gemm M N K WARMUP ITERS
//
// runs the example's GEMM WARMUP + ITERS times on device arrays (the
// launcher uses device pointers in place: no copies) and cublasSgemm as
// often, on small-integer operands (every order of summation is exact), and
// prints one line:
//
//   cublas <median ms per call> maxdiff <largest |ours - cuBLAS|>
//
// Our kernel's times come from the runtime itself: run under SCHED_TIME=1,
// each launch prints `kernel time <ms> ms on cuda` (CUDA events around the
// launch), which gpu-check reads, so both sides are device time per call.
// Exit 77 when there is no CUDA device; 2 on bad arguments.
//
//===----------------------------------------------------------------------===//
#define main sched_example_main
#include EXAMPLE_FILE
#undef main

#include "cublas_gemm.h" // bench/: fill, maxDiff, timers, cuBLAS

#include <cstdio>
#include <cstdlib>
#include <vector>

static int timeGemm(int M, int N, int K, int Warmup, int Iters) {
  int Count = 0;
  cudaError_t E = cudaGetDeviceCount(&Count);
  if (E != cudaSuccess || Count == 0) {
    std::printf("no CUDA device: %s\n", E != cudaSuccess ? cudaGetErrorString(E) : "count is 0");
    return 77;
  }
  std::vector<float> A((size_t)M * K), B((size_t)K * N);
  std::vector<float> Ours((size_t)M * N), Theirs((size_t)M * N);
  bench::fillSmallIntegers(A, B);
  float *DA, *DB, *DC, *DC2;
  BENCH_CHECK_CUDA(cudaMalloc(&DA, A.size() * sizeof(float)));
  BENCH_CHECK_CUDA(cudaMalloc(&DB, B.size() * sizeof(float)));
  BENCH_CHECK_CUDA(cudaMalloc(&DC, Ours.size() * sizeof(float)));
  BENCH_CHECK_CUDA(cudaMalloc(&DC2, Theirs.size() * sizeof(float)));
  BENCH_CHECK_CUDA(cudaMemcpy(DA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  BENCH_CHECK_CUDA(cudaMemcpy(DB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
  // The first call compiles the kernel with NVRTC; every call synchronizes.
  for (int I = 0; I < Warmup + Iters; ++I)
    EXAMPLE_GEMM(DA, DB, DC, M, N, K);

  cublasHandle_t H;
  if (cublasCreate(&H) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasCreate failed\n");
    return 1;
  }
  cublasStatus_t Status = CUBLAS_STATUS_SUCCESS;
  double TheirsMs = bench::medianEventMilliseconds(
      [&] {
        if (Status == CUBLAS_STATUS_SUCCESS)
          Status = bench::gemmRowMajor(H, bench::GemmType::F32, M, N, K, DA, DB, false, DC2);
      },
      Warmup, Iters);
  BENCH_CHECK_CUDA(cudaDeviceSynchronize());
  BENCH_CHECK_CUDA(
      cudaMemcpy(Ours.data(), DC, Ours.size() * sizeof(float), cudaMemcpyDeviceToHost));
  BENCH_CHECK_CUDA(
      cudaMemcpy(Theirs.data(), DC2, Theirs.size() * sizeof(float), cudaMemcpyDeviceToHost));
  if (Status != CUBLAS_STATUS_SUCCESS)
    std::printf("cublas status-%d maxdiff -\n", (int)Status);
  else
    std::printf("cublas %.4f maxdiff %g\n", TheirsMs, bench::maxDiff(Ours, Theirs));
  cublasDestroy(H);
  cudaFree(DA);
  cudaFree(DB);
  cudaFree(DC);
  cudaFree(DC2);
  return 0;
}

int main(int argc, char **argv) {
  int Values[5] = {0, 0, 0, 0, 0};
  for (int I = 1; I < argc && I <= 5; ++I)
    Values[I - 1] = std::atoi(argv[I]);
  // Positive sizes only: a launch the runtime refuses (an empty grid) runs
  // the original loop, which cannot read device pointers.
  if (argc != 6 || Values[0] < 1 || Values[1] < 1 || Values[2] < 1 || Values[3] < 0 ||
      Values[4] < 1) {
    std::fprintf(stderr, "usage: %s M N K WARMUP ITERS (M, N, K, ITERS >= 1)\n", argv[0]);
    return 2;
  }
  return timeGemm(Values[0], Values[1], Values[2], Values[3], Values[4]);
}
