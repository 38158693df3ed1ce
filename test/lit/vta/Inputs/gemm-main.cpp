// Drives the C++ that sched-opt --emit=vta made of the tutorial's GEMM
// (Inputs/tutorial-gemm.ir): `main vta` prints C as the VTA runtime computes
// it, `main ref` the reference int8(A . B^T) of research/vta.md 4, computed
// here on the unpacked matrices.
#include <cstdint>
#include <cstdio>
#include <cstring>

extern "C" int gemm(int8_t *A, int8_t *B, int8_t *C);

int main(int Argc, char **Argv) {
  static int8_t A[256], BOrig[256][256], B[16][16][16][16], C[256];
  uint32_t Seed = 12345;
  auto Next = [&Seed] {
    Seed = Seed * 1103515245u + 12345u;
    return int8_t(Seed >> 16);
  };
  for (int8_t &V : A)
    V = Next();
  for (auto &Row : BOrig)
    for (int8_t &V : Row)
      V = Next();
  // B packed as (co, ko, ci, ki): each 16x16 tile k-contiguous.
  for (int J = 0; J < 256; ++J)
    for (int K = 0; K < 256; ++K)
      B[J / 16][K / 16][J % 16][K % 16] = BOrig[J][K];
  if (Argc > 1 && !std::strcmp(Argv[1], "vta")) {
    if (int Status = gemm(A, &B[0][0][0][0], C)) {
      std::printf("gemm failed: %d\n", Status);
      return 1;
    }
  } else {
    for (int J = 0; J < 256; ++J) {
      int32_t Sum = 0;
      for (int K = 0; K < 256; ++K)
        Sum += int32_t(A[K]) * int32_t(BOrig[J][K]);
      C[J] = int8_t(Sum);
    }
  }
  for (int J = 0; J < 256; ++J)
    std::printf("%d%c", C[J], J % 16 == 15 ? '\n' : ' ');
  return 0;
}
