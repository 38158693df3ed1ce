// A matmul scheduled as an ordinary CUDA kernel, with tensorcore(auto):
// shared stages of A and B at each k step of 16, each thread a few
// accumulators. Variants by macro: TA (A stored k-major: A[k][i]), TB (B
// stored n-major: B[j][k]), INT8 (int8 operands, int32 accumulators), and
// SHAPE: 1616 (threadIdx.x over 32 columns, threadIdx.y over two 16-row
// halves, each thread a column of 16 accumulators: a warp is 16 x 32, two
// 16x16x16 tiles), 832 (each thread a column of 8: one 8x32x16 tile per warp),
// 328 (threadIdx.x over 32 rows, each thread a row of 8: one 32x8x16 tile).
// Prints every output element.
#include <cstdio>

#ifndef SHAPE
#define SHAPE 1616
#endif
#if INT8
typedef signed char In;
typedef int Acc;
#else
typedef _Float16 In;
typedef float Acc;
#endif
constexpr int M = 64, N = 64, K = 64;
#if TA
#define AIDX(i, k) ((k) * M + (i))
#else
#define AIDX(i, k) ((i) * K + (k))
#endif
#if TB
#define BIDX(k, j) ((j) * K + (k))
#else
#define BIDX(k, j) ((k) * N + (j))
#endif

// (A #pragma sched group must be contiguous: each variant is its own function.)
#if SHAPE == 1616
void gemm(const In *A, const In *B, Acc *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, 32, 32) split(k, ko, ki, 16)
#pragma sched split(ii, ty, ir, 16) reorder(io, jo, ty, ji, ko, ki, ir) bind(ty, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        Acc acc = 0;
        for (int k = 0; k < K; ++k)
          acc += (Acc)A[AIDX(i, k)] * (Acc)B[BIDX(k, j)];
        C[i * N + j] = acc;
      }
}
#elif SHAPE == 832
void gemm(const In *A, const In *B, Acc *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, 32, 32) split(k, ko, ki, 16)
#pragma sched split(ii, ty, ir, 8) reorder(io, jo, ty, ji, ko, ki, ir) bind(ty, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        Acc acc = 0;
        for (int k = 0; k < K; ++k)
          acc += (Acc)A[AIDX(i, k)] * (Acc)B[BIDX(k, j)];
        C[i * N + j] = acc;
      }
}
#else
void gemm(const In *A, const In *B, Acc *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, 32, 32) split(k, ko, ki, 16)
#pragma sched split(ji, ty, jr, 8) reorder(io, jo, ty, ii, ko, ki, jr) bind(ty, threadIdx.y) bind(ii, threadIdx.x)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        Acc acc = 0;
        for (int k = 0; k < K; ++k)
          acc += (Acc)A[AIDX(i, k)] * (Acc)B[BIDX(k, j)];
        C[i * N + j] = acc;
      }
}
#endif

int main() {
  static In A[M * K], B[K * N];
  static Acc C[M * N];
  for (int x = 0; x < M * K; ++x)
#if INT8
    A[x] = (In)((x * 37 + 11) % 256 - 128);
#else
    A[x] = (In)((double)((x * 37) % 97 - 48) / 64.0 * (double)(1 << (x % 7)));
#endif
  for (int x = 0; x < K * N; ++x)
#if INT8
    B[x] = (In)((x * 53 + 5) % 256 - 128);
#else
    B[x] = (In)((double)((x * 29) % 89 - 44) / 32.0 * (double)(1 << (x % 5)));
#endif
  gemm(A, B, C);
  for (int x = 0; x < M * N; ++x)
#if INT8
    printf("%d\n", C[x]);
#else
    printf("%a\n", (double)C[x]);
#endif
}
