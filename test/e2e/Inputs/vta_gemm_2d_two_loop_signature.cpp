// The natural 2-D GEMM with the output blocks jo outside the reduction ko and
// the accumulator staged whole: the GEMM kernel under ko writes acc element
// i*4 + jo, which depends on two host loops. The runtime selects a cached uop
// kernel by one 4-byte signature, so the kernel gets the combined signature
// i*4 + jo (CombineUopSignatures) and reads i and jo back from it; the nest
// runs on VTA (it fell back to the original loop before, VTA fuzzer).
#include <cstdint>
#include <cstdio>

constexpr int M = 4, N = 64, K = 32;

static void gemm(const int8_t *A, const int8_t *W, int8_t *C) {
#pragma sched target(vta)
#pragma sched split(j, jo, ji, 16) split(k, ko, ki, 16)
#pragma sched cache_read(A, vta.inp, Ab) cache_read(W, vta.wgt, Wb) cache_write(C, vta.acc, Cb)
#pragma sched reorder(i, jo, ko, ji, ki) compute_at(Ab, ko) compute_at(Wb, ko)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Wb.ax0, dma_copy) pragma(Cb.ax0, dma_copy)
#pragma sched tensorize(ji, vta.gemm)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * W[j * K + k];
      C[i * N + j] = (int8_t)acc;
    }
}

static int8_t A[M * K], W[N * K], C[M * N];

int main() {
  uint32_t Seed = 777;
  auto next = [&] {
    Seed = Seed * 1103515245u + 12345u;
    return (int8_t)(Seed >> 16);
  };
  for (int8_t &X : A)
    X = next();
  for (int8_t &X : W)
    X = next();
  gemm(A, W, C);
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
