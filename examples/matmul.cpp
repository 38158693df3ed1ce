// Tiled matrix multiply, scheduled for a GPU the way DESIGN.md section 2 shows:
// 64x64 block tiles bound to blockIdx, 8x8 threads each computing an 8x8
// sub-tile, k split by 16, and the scalar accumulator `acc` turned into a
// per-thread 8x8 local array because the reduction loop moves outside the
// thread's own ii2/ji2 loops. The sizes divide by no tile (100x70x50), so the
// schedule's guards are exercised too.
//
// Without the plugin this is ordinary C++ and its output is the reference.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void matmul(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu)
#pragma sched tile(i, j, io, jo, ii, ji, 64, 64) split(k, ko, ki, 16)
#pragma sched split(ii, ty, ii2, 8) split(ji, tx, ji2, 8) reorder(io, jo, ty, tx, ko, ki, ii2, ji2)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ty, threadIdx.y) bind(tx, threadIdx.x)
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
  std::vector<float> A(M * K), B(K * N), C(M * N, -1.f);
  unsigned seed = 12345;
  auto next = [&] { seed = seed * 1103515245u + 12345u; return float((seed >> 16) % 201) / 100.f - 1.f; };
  for (float &x : A) x = next();
  for (float &x : B) x = next();

  matmul(A.data(), B.data(), C.data(), M, N, K);

  double checksum = 0;
  for (int i = 0; i < M * N; ++i) checksum += C[i] * ((i % 7) + 1);
  std::printf("matmul %dx%dx%d\n", M, N, K);
  std::printf("checksum %.6f\n", checksum);
  for (int i = 0; i < M * N; i += (M * N) / 9 + 1) std::printf("C[%d] %.6f\n", i, C[i]);
  return 0;
}
