// C = int8(max(A, B)) over 64 elements with the ALU pragma on the inner loop
// of a split of the element loop (io = ioo*2 + ioi): the chain MIN A, MAX A,
// MAX B runs under the outer host loop ioo, whose body FoldUopLoops
// distributes into one nest per step. The two MAX steps (same opcode, same
// elements) must be two instructions, not two uops of one kernel that write
// one element back to back (refused by the runtime's hazard rule; VTA
// fuzzer, seed 541). Built without the plugin it is the reference.
#include <algorithm>
#include <cstdint>
#include <cstdio>

void vmax(const int32_t A[64], const int32_t B[64], int8_t C[64]) {
#pragma sched target(vta)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
#pragma sched split(i, io, ii, 16) split(io, ioo, ioi, 2)
#pragma sched pragma(Ab.ax0, dma_copy) pragma(Bb.ax0, dma_copy) pragma(Cb.ax0, dma_copy) pragma(ioi, alu)
  for (int i = 0; i < 64; ++i)
    C[i] = (int8_t)std::max(A[i], B[i]);
}

int main() {
  int32_t A[64], B[64];
  int8_t C[64];
  for (int i = 0; i < 64; ++i) {
    A[i] = (i * 37) % 301 - 150;
    B[i] = (i * 53) % 211 - 105;
  }
  vmax(A, B, C);
  for (int i = 0; i < 64; ++i)
    std::printf("%d ", C[i]);
  std::printf("\n");
  return 0;
}
