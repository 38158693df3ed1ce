//===- check_reference_gpu.cu - The reference GEMMs on a GPU --------------===//
//
// Built by check-reference.sh once per reference kernel with
// -DREFERENCE_FILE="NAME.cu" -DREFERENCE_KERNEL=NAME and -DREFERENCE_LAUNCH=
// the text of its `check-reference:` line (check_reference.h; "" when it has
// none): runs the kernel on the GPU at check_reference.h's shapes and at
// 1024^3 and 1000x1030x517 against the CPU GEMM, then times it at 1024^3,
// 2048^3 and 4096^3 (gpu-check's timing sizes; the best of 10 runs, after a
// warm-up). The input type is the kernel's (float or __half), which must be
// the one the line declares. Without a usable GPU it prints `skip: ...` and
// succeeds.
//
//===----------------------------------------------------------------------===//
#include "check_reference.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include REFERENCE_FILE

#ifndef REFERENCE_LAUNCH
#define REFERENCE_LAUNCH ""
#endif

#define STRINGIFY2(X) #X
#define STRINGIFY(X) STRINGIFY2(X)

using namespace check_reference;

static const char *Kernel = STRINGIFY(REFERENCE_KERNEL);
static Launch L;

static bool check(cudaError_t E, const char *What) {
  if (E == cudaSuccess)
    return true;
  std::printf("gpu %s: error: %s: %s\n", Kernel, What, cudaGetErrorString(E));
  return false;
}

/// The input type of the kernel's A and B.
template <class In> static In inputOf(void (*)(const In *, const In *, float *, int, int, int));
using Input = decltype(inputOf(REFERENCE_KERNEL));

/// Runs the kernel on device copies of A and B; the result in C. Ms: the
/// kernel's time of one run (the best of Runs).
static bool runOnGpu(const Shape &S, const std::vector<float> &A, const std::vector<float> &B,
                     std::vector<float> &C, int Runs, float &Ms) {
  std::vector<unsigned char> InA = inputBytes(A, L), InB = inputBytes(B, L);
  Input *DA = nullptr, *DB = nullptr;
  float *DC = nullptr;
  // One element at least: cudaMalloc(0) gives null.
  size_t BytesA = InA.size() + 16, BytesB = InB.size() + 16, BytesC = (C.size() + 1) * 4;
  bool Ok = check(cudaMalloc(&DA, BytesA), "cudaMalloc") &&
            check(cudaMalloc(&DB, BytesB), "cudaMalloc") &&
            check(cudaMalloc(&DC, BytesC), "cudaMalloc") &&
            check(cudaMemcpy(DA, InA.data(), InA.size(), cudaMemcpyHostToDevice), "copy A") &&
            check(cudaMemcpy(DB, InB.data(), InB.size(), cudaMemcpyHostToDevice), "copy B") &&
            check(cudaMemcpy(DC, C.data(), C.size() * 4, cudaMemcpyHostToDevice), "copy C");
  cudaEvent_t Start, Stop;
  cudaEventCreate(&Start);
  cudaEventCreate(&Stop);
  Ms = 0;
  for (int R = 0; Ok && R < Runs && S.M && S.N; ++R) {
    cudaEventRecord(Start);
    REFERENCE_KERNEL<<<dim3(L.blocks(S.N), L.blocks(S.M)),
                       dim3(L.Block[0], L.Block[1], L.Block[2])>>>(DA, DB, DC, S.M, S.N, S.K);
    cudaEventRecord(Stop);
    Ok = check(cudaGetLastError(), "launch") && check(cudaEventSynchronize(Stop), "run");
    float T = 0;
    cudaEventElapsedTime(&T, Start, Stop);
    if (R > 0 || Runs == 1) // run 0 of several is the warm-up
      Ms = Ms == 0 || T < Ms ? T : Ms;
  }
  Ok = Ok && check(cudaMemcpy(C.data(), DC, C.size() * 4, cudaMemcpyDeviceToHost), "copy C back");
  cudaEventDestroy(Start);
  cudaEventDestroy(Stop);
  cudaFree(DA);
  cudaFree(DB);
  cudaFree(DC);
  return Ok;
}

int main() {
  std::string Error;
  if (!launchOf(REFERENCE_LAUNCH, L, Error)) {
    std::printf("gpu %s: error: %s\n", Kernel, Error.c_str());
    return 1;
  }
  if (sizeof(Input) != L.inputBytes()) {
    std::printf("gpu %s: error: the kernel takes %zu-byte inputs, its check-reference line says "
                "%s\n", Kernel, sizeof(Input), L.HalfInputs ? "half" : "float");
    return 1;
  }
  int Devices = 0;
  cudaError_t E = cudaGetDeviceCount(&Devices);
  if (E != cudaSuccess || Devices == 0) {
    std::printf("skip: %s on a GPU needs one: %s\n", Kernel,
                E != cudaSuccess ? cudaGetErrorString(E) : "no CUDA device");
    return 0;
  }
  std::vector<Shape> All(std::begin(Shapes), std::end(Shapes));
  All.push_back({1024, 1024, 1024});
  All.push_back({1000, 1030, 517});
  bool Ok = true;
  for (const Shape &S : All) {
    std::vector<float> A = smallIntegers(size_t(S.M) * S.K, 7), B = smallIntegers(size_t(S.K) * S.N, 11);
    std::vector<float> C(size_t(S.M) * S.N, Sentinel), Want(C.size());
    cpuGemm(A, B, Want, S);
    float Ms;
    if (!runOnGpu(S, A, B, C, 1, Ms))
      return 1;
    Ok &= report("gpu", Kernel, S, maxDifference(C.data(), Want));
  }
  for (int Size : {1024, 2048, 4096}) {
    Shape Big = {Size, Size, Size};
    std::vector<float> A = smallIntegers(size_t(Big.M) * Big.K, 7),
                       B = smallIntegers(size_t(Big.K) * Big.N, 11), C(size_t(Big.M) * Big.N);
    float Ms;
    if (!runOnGpu(Big, A, B, C, 11, Ms))
      return 1;
    std::printf("gpu %s %dx%dx%d: %.3f ms, %.0f GFLOP/s\n", Kernel, Big.M, Big.N, Big.K, Ms,
                2.0 * Big.M * Big.N * Big.K / (Ms * 1e6));
  }
  return Ok ? 0 : 1;
}
