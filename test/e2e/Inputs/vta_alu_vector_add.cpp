// TVM's get-started vector add on VTA's ALU: C = int8(A + B) with int32 A, B
// in vta.acc stages. Built without the plugin it is the reference.
#include <cstdint>
#include <cstdio>

void vadd(const int32_t A[1024], const int32_t B[1024], int8_t C[1024]) {
#pragma sched target(vta)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
#pragma sched split(i, io, ii, 16)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Bb.ax0, dma_copy) pragma(Cb.ax0, dma_copy) pragma(io, alu)
  for (int i = 0; i < 1024; ++i)
    C[i] = (int8_t)(A[i] + B[i]);
}

int main() {
  static int32_t A[1024], B[1024];
  static int8_t C[1024];
  for (int i = 0; i < 1024; ++i) {
    A[i] = (i * 37) % 301 - 150;
    B[i] = (i * 11) % 97 - 48;
  }
  vadd(A, B, C);
  long Sum = 0;
  for (int i = 0; i < 1024; ++i)
    Sum += C[i] * (i % 7 + 1);
  std::printf("checksum %ld\n", Sum);
  for (int i = 0; i < 1024; i += 97)
    std::printf("C[%d] = %d\n", i, C[i]);
  return 0;
}
