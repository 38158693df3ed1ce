// C += relu-clip((A . W^T) >> 9) in place on VTA: the accumulator starts from
// the int8 output itself (`int acc = C[i*N + j]`), which the launcher copies
// in and one ACC_8BIT LOAD moves into vta.acc, each byte sign-extended to an
// int32 lane (where a zero start would be a GEMM reset). The initialisation
// is no statement of its own (the accumulator is C's stage, which starts from
// C's values), so the epilogue is the reorder's first split-off nest, i_1.
#include <algorithm>
#include <cstdint>
#include <cstdio>

constexpr int M = 4, N = 64, K = 32;

static void accumulate(const int8_t *A, const int8_t *W, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(j, jo, ji, 16) split(k, ko, ki, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(i, ko, jo, ji, ki) compute_at(Ab, ko) compute_at(Wb, ko) compute_at(Cb, i)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched pragma(jo_1, alu) tensorize(ji, vta.gemm)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int acc = C[i * N + j];
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * W[j * K + k];
      C[i * N + j] = (int8_t)std::min(std::max(acc >> 9, -100), 100);
    }
}

static int8_t A[M * K], W[N * K], C[M * N];

int main() {
  uint32_t Seed = 99;
  auto next = [&] {
    Seed = Seed * 1103515245u + 12345u;
    return (int8_t)(Seed >> 16);
  };
  for (int8_t &X : A)
    X = next();
  for (int8_t &X : W)
    X = next();
  for (int8_t &X : C)
    X = next();
  accumulate(A, W, C);
  long Sum = 0;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      std::printf(" %4d", C[i * N + j]);
      Sum += (i * N + j + 1) * C[i * N + j];
    }
    std::printf("\n");
  }
  std::printf("checksum %ld\n", Sum);
  return 0;
}
