// Shared-memory GEMMs with sizes known only at run time, which no tile
// divides: the schedule's tile guards depend on the thread and, but for the
// first nest, enclose the shared stages. Each stage is filled by all the
// block's threads together, so the guard is sunk below it and the barriers
// land where every thread passes them; nothing falls back to the host loop.
//  - gemm64: the GEMM of DESIGN section 2 with cache_read A/B shared at ko;
//  - gemm16: a 16x16 tile bound straight to threadIdx.y/x, stages at ko
//    (the guards `if (io*16 + ii < M)`, `if (jo*16 + ji < N)` enclose them);
//  - matvec: a non-dividing split of the loop bound to threadIdx.x (24 of
//    M rows per block) with a shared stage of x inside it.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void gemm64(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu)
#pragma sched tile(i, j, io, jo, ii, ji, 64, 64) split(k, ko, ki, 16)
#pragma sched split(ii, ty, ii2, 8) split(ji, tx, ji2, 8) reorder(io, jo, ty, tx, ko, ki, ii2, ji2)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ty, threadIdx.y) bind(tx, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

static void gemm16(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu)
#pragma sched tile(i, j, io, jo, ii, ji, 16, 16) split(k, ko, ki, 16)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

static void matvec(const float *A, const float *x, float *y, int M, int K) {
#pragma sched target(gpu) split(i, io, ii, 24) split(k, ko, ki, 16)
#pragma sched bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched cache_read(x, shared, xs) compute_at(xs, ko)
  for (int i = 0; i < M; ++i) {
    float acc = 0.f;
    for (int k = 0; k < K; ++k)
      acc += A[i * K + k] * x[k];
    y[i] = acc;
  }
}

static double checksum(const std::vector<float> &V) {
  double Sum = 0;
  for (size_t I = 0; I < V.size(); ++I)
    Sum += V[I] * double((I % 7) + 1);
  return Sum;
}

int main(int argc, char **argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 100;
  int N = argc > 2 ? std::atoi(argv[2]) : 70;
  int K = argc > 3 ? std::atoi(argv[3]) : 50;
  std::vector<float> A(M * K), B(K * N), C64(M * N, -1.f), C16(M * N, -1.f), y(M, -1.f);
  unsigned seed = 4242;
  auto next = [&] { seed = seed * 1103515245u + 12345u; return float((seed >> 16) % 9) - 4.f; };
  for (float &V : A) V = next();
  for (float &V : B) V = next();
  gemm64(A.data(), B.data(), C64.data(), M, N, K);
  gemm16(A.data(), B.data(), C16.data(), M, N, K);
  matvec(A.data(), B.data(), y.data(), M, K);
  std::printf("gemm %dx%dx%d\n", M, N, K);
  std::printf("gemm64 %.1f\n", checksum(C64));
  std::printf("gemm16 %.1f\n", checksum(C16));
  std::printf("matvec %.1f\n", checksum(y));
  return 0;
}
