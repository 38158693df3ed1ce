// The ALU computes in vta.acc: pragma(alu) on a loop that stores into a
// global tensor (no cache_write to vta.acc) is refused, naming the access.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

#include <cstdint>

void noStage(const int32_t A[64], int32_t C[64]) {
  // expected-warning@+1 {{pragma(io, alu): `C[((io*16) + ii)]` is in global memory; the ALU reads and writes vta.acc stage elements only (cache_read or cache_write the tensor into vta.acc)}}
#pragma sched target(vta) split(i, io, ii, 16) pragma(io, alu)
  for (int i = 0; i < 64; ++i)
    C[i] = A[i] + 1;
}
