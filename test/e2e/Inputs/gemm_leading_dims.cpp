// A BLAS-style GEMM: row-major operands with leading dimensions lda, ldb,
// ldc given at run time (arguments: lda ldb ldc). The plugin delinearizes
// A[i*lda + k] to A[i, k] under the assumption K <= lda (and N <= ldb,
// N <= ldc), which the launcher checks before each launch. With leading
// dimensions below the row lengths the rows overlap: the assumption fails
// and the original loop runs. Integer-valued data: every backend computes
// the same sums exactly.
#include <cstdio>
#include <cstdlib>

void gemm(int M, int N, int K, const float *A, int lda, const float *B, int ldb, float *C,
          int ldc) {
#pragma sched target(gpu) split(i, bi, ti, 4) split(j, bj, tj, 8) reorder(bi, bj, ti, tj)
#pragma sched bind(bi, blockIdx.y) bind(bj, blockIdx.x) bind(ti, threadIdx.y) bind(tj, threadIdx.x)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += A[i * lda + k] * B[k * ldb + j];
      C[i * ldc + j] = acc;
    }
}

int main(int argc, char **argv) {
  const int M = 10, N = 13, K = 7, Size = 1024;
  int lda = argc > 3 ? std::atoi(argv[1]) : 9;
  int ldb = argc > 3 ? std::atoi(argv[2]) : 16;
  int ldc = argc > 3 ? std::atoi(argv[3]) : 15;
  static float A[Size], B[Size], C[Size];
  for (int i = 0; i < Size; ++i) {
    A[i] = static_cast<float>((i * 7) % 5 - 2);
    B[i] = static_cast<float>((i * 3) % 7 - 3);
    C[i] = -1.f;
  }
  gemm(M, N, K, A, lda, B, ldb, C, ldc);
  for (int i = 0; i < M * ldc + N; ++i)
    std::printf("%g%c", C[i], i % 16 == 15 ? '\n' : ' ');
  std::printf("\n");
  return 0;
}
