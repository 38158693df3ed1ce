// examples/gemm_vthread.cpp with both shared stages double-buffered and the
// rows of As padded to a stride of 17 (storage_align): a test input.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void gemm(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu)
#pragma sched tile(i, j, io, jo, ii, ji, 64, 64) split(k, ko, ki, 8)
#pragma sched split(ii, vy, ii1, nparts=2) split(ji, vx, ji1, nparts=2)
#pragma sched split(ii1, ty, ii2, nparts=8) split(ji1, tx, ji2, nparts=8)
#pragma sched reorder(io, jo, vy, vx, ty, tx, ko, ki, ii2, ji2)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(vy, vthread) bind(vx, vthread)
#pragma sched bind(ty, threadIdx.y) bind(tx, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
#pragma sched double_buffer(As) double_buffer(Bs) storage_align(As, As.ax0, 16, 1)
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
  int N = argc > 2 ? std::atoi(argv[2]) : 130;
  int K = argc > 3 ? std::atoi(argv[3]) : 36;
  std::vector<float> A(M * K), B(K * N), C(M * N, -1.f);
  unsigned seed = 777;
  auto next = [&] { seed = seed * 1103515245u + 12345u; return float((seed >> 16) % 201) / 100.f - 1.f; };
  for (float &x : A) x = next();
  for (float &x : B) x = next();

  gemm(A.data(), B.data(), C.data(), M, N, K);

  double checksum = 0;
  for (int i = 0; i < M * N; ++i) checksum += C[i] * ((i % 5) + 1);
  std::printf("gemm %dx%dx%d\n", M, N, K);
  std::printf("checksum %.6f\n", checksum);
  for (int i = 0; i < M * N; i += (M * N) / 9 + 1) std::printf("C[%d] %.6f\n", i, C[i]);
  return 0;
}
