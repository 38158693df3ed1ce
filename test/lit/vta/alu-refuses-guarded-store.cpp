// A split that does not divide guards the store; an ALU operation covers
// whole elements unconditionally, so pragma(alu) refuses it.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

#include <cstdint>

void sixtyElements(const int32_t A[60], const int32_t B[60], int8_t C[60]) {
#pragma sched target(vta) split(i, io, ii, 16)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
  // expected-warning@+1 {{pragma(io, alu): the store to `Cb[((io*16) + ii)]` is guarded by `(((io*16) + ii) < 60)`; an ALU operation covers whole elements unconditionally}}
#pragma sched pragma(io, alu)
  for (int i = 0; i < 60; ++i)
    C[i] = (int8_t)(A[i] + B[i]);
}
