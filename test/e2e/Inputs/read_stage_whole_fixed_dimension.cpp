// A shared read stage of a fixed-size array `float C[2][24]` computed at a
// loop fused from a row loop and a run-time column loop, then tiled: the row
// `i = ij / M` of a tile spans a number of rows that depends on M, with no
// constant bound, but the array has 2 rows: the stage copies both (fuzzer
// seed 522).
#include <cstdio>
#include <cstdlib>
#include <vector>

static void scale(float *A, const float *B, const float C[2][24], int M, int N) {
#pragma sched target(gpu) fuse(i, j, ij) tile(ij, k, ijo, ko, iji, ki, 8, 4)
#pragma sched fuse(ijo, ko, ijoko) cache_read(C, shared, Cs) compute_at(Cs, ijoko)
#pragma sched bind(iji, threadIdx.x)
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < N; ++k) {
        float acc = 0.f;
        for (int l = 0; l < 3; ++l)
          acc += B[6 * N * i + 3 * k + l] * C[i][k];
        A[M * N * i + N * j + k] = acc;
      }
}

int main(int argc, char **argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 5;
  int N = argc > 2 ? std::atoi(argv[2]) : 24;
  std::vector<float> A(2 * M * N + 1, -1.f), B(6 * N * 2 + 1);
  float C[2][24];
  unsigned seed = 5;
  auto next = [&] { seed = seed * 1103515245u + 12345u; return float((seed >> 16) % 9) - 4.f; };
  for (float &V : B) V = next();
  for (auto &Row : C)
    for (float &V : Row) V = next();
  scale(A.data(), B.data(), C, M, N);
  double Sum = 0;
  for (size_t I = 0; I < A.size(); ++I)
    Sum += A[I] * double((I % 7) + 1);
  std::printf("M=%d N=%d checksum %.1f\n", M, N, Sum);
  for (size_t I = 0; I < A.size(); I += 13)
    std::printf("A[%zu] %.1f\n", I, A[I]);
  return 0;
}
