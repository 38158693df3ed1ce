// Drives the C++ that sched-opt --emit=vta made of Inputs/gemm-row-major-weights.ir:
// `main vta` prints C as the VTA runtime computes it, `main ref` the
// reference C[i][j] = int8(sum_k A[i][k] * W[j][k]) on the same row-major W.
// With -DK_MAJOR it drives Inputs/gemm-k-major-weights.ir: W[k][j].
#include <cstdint>
#include <cstdio>
#include <cstring>

extern "C" int g(int8_t *A, int8_t *W, int8_t *C);

int main(int Argc, char **Argv) {
  constexpr int M = 4, N = 64, K = 64;
  static int8_t A[M][K], W[N][K], C[M][N];
  uint32_t Seed = 4242;
  auto Next = [&Seed] {
    Seed = Seed * 1103515245u + 12345u;
    return int8_t(Seed >> 16);
  };
  for (auto &Row : A)
    for (int8_t &V : Row)
      V = Next();
  for (auto &Row : W)
    for (int8_t &V : Row)
      V = Next();
  if (Argc > 1 && !std::strcmp(Argv[1], "vta")) {
    if (int Status = g(&A[0][0], &W[0][0], &C[0][0])) {
      std::printf("g failed: %d\n", Status);
      return 1;
    }
  } else {
    for (int I = 0; I < M; ++I)
      for (int J = 0; J < N; ++J) {
        int32_t Sum = 0;
        for (int Kk = 0; Kk < K; ++Kk)
#ifdef K_MAJOR
          Sum += int32_t(A[I][Kk]) * int32_t(W[Kk][J]);
#else
          Sum += int32_t(A[I][Kk]) * int32_t(W[J][Kk]);
#endif
        C[I][J] = int8_t(Sum);
      }
  }
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J)
      std::printf("%d%c", C[I][J], J == N - 1 ? '\n' : ' ');
  return 0;
}
