// The program of docs/tutorials/gemm.md: one fp32 GEMM, C = A * B (row-major,
// M x K times K x N), scheduled five ways, one function per step of the
// tutorial. main runs every step and compares it with the plain loop of
// step 0 (exactly: the data are small integers, so every order of the sums
// gives the same floats). Without the plugin every step is that plain loop.
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <vector>

// Step 0: the reference: no pragma, so the plugin leaves it alone.
static void step0(const float *A, const float *B, float *C, int M, int N, int K) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

// Step 1: one thread per element of C, 16 x 16 threads per block.
static void step1(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 16, 16) bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

// Step 2: 64 x 64 tiles of C per block, 8 x 8 threads, each thread an 8 x 8
// register tile (examples/matmul.cpp).
static void step2(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 64, 64) split(k, ko, ki, 16) split(ii, ty, ii2, 8) split(ji, tx, ji2, 8) reorder(io, jo, ty, tx, ko, ki, ii2, ji2) bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ty, threadIdx.y) bind(tx, threadIdx.x)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

// Step 3: A and B staged through shared memory at each step of k, fetched by
// the whole block; 2 x 2 virtual threads so each thread's 4 x 4 elements are
// 32 rows and columns apart (examples/gemm_vthread.cpp).
static void step3(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 64, 64) split(k, ko, ki, 8) split(ii, vy, ii1, nparts=2) split(ji, vx, ji1, nparts=2) split(ii1, ty, ii2, nparts=8) split(ji1, tx, ji2, nparts=8) reorder(io, jo, vy, vx, ty, tx, ko, ki, ii2, ji2) bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(vy, vthread) bind(vx, vthread) bind(ty, threadIdx.y) bind(tx, threadIdx.x) cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

// Step 4: step 3 with the stages double-buffered (the next k tile fetched
// while this one is computed, one barrier per step) and As's rows padded.
static void step4(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 64, 64) split(k, ko, ki, 8) split(ii, vy, ii1, nparts=2) split(ji, vx, ji1, nparts=2) split(ii1, ty, ii2, nparts=8) split(ji1, tx, ji2, nparts=8) reorder(io, jo, vy, vx, ty, tx, ko, ki, ii2, ji2) bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(vy, vthread) bind(vx, vthread) bind(ty, threadIdx.y) bind(tx, threadIdx.x) cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko) double_buffer(As) double_buffer(Bs) storage_align(As, As.ax0, 16, 1)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

int main(int argc, char **argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 100;
  int N = argc > 2 ? std::atoi(argv[2]) : 70;
  int K = argc > 3 ? std::atoi(argv[3]) : 50;
  std::vector<float> A(size_t(M) * K), B(size_t(K) * N), Ref(size_t(M) * N), C(size_t(M) * N);
  for (size_t x = 0; x < A.size(); ++x)
    A[x] = float(int(x * 37 % 11) - 5);
  for (size_t x = 0; x < B.size(); ++x)
    B[x] = float(int(x * 53 % 7) - 3);
  step0(A.data(), B.data(), Ref.data(), M, N, K);
  void (*const Steps[])(const float *, const float *, float *, int, int, int) = {step1, step2,
                                                                                 step3, step4};
  int Bad = 0;
  for (int S = 0; S < 4; ++S) {
    std::fill(C.begin(), C.end(), -1.f);
    Steps[S](A.data(), B.data(), C.data(), M, N, K);
    bool Same = C == Ref;
    Bad += !Same;
    std::printf("step %d %dx%dx%d: %s\n", S + 1, M, N, K, Same ? "matches step 0" : "DIFFERS");
  }
  return Bad;
}
