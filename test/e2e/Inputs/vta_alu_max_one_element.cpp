// C = int8(max(A, B)) over one VTA element (16 lanes): the ALU chain is MIN A,
// MAX A (the copy of A into the destination), MAX B, all on the same
// accumulator element. VTA's runtime refuses a kernel whose uop writes the
// element one of the two uops before it wrote, so the two MAX steps (same
// opcode) must be two instructions, not two uops of one (found by the VTA
// fuzzer, seed 534). Built without the plugin it is the reference.
#include <algorithm>
#include <cstdint>
#include <cstdio>

void vmax(const int32_t A[16], const int32_t B[16], int8_t C[16]) {
#pragma sched target(vta)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
#pragma sched split(i, io, ii, 16)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Bb.ax0, dma_copy) pragma(Cb.ax0, dma_copy) pragma(io, alu)
  for (int i = 0; i < 16; ++i)
    C[i] = (int8_t)std::max(A[i], B[i]);
}

int main() {
  int32_t A[16], B[16];
  int8_t C[16];
  for (int i = 0; i < 16; ++i) {
    A[i] = (i * 37) % 301 - 150;
    B[i] = (i * 53) % 211 - 105;
  }
  vmax(A, B, C);
  for (int i = 0; i < 16; ++i)
    std::printf("%d ", C[i]);
  std::printf("\n");
  return 0;
}
