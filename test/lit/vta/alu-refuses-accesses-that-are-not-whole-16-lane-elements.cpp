// Every access of an ALU region must be 16*e + l, l the destination's lane
// loop of extent 16 (a uop covers the 16 lanes of an element): pragma(alu)
// refuses other indices, naming the access and the rule.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

#include <cstdint>

void lanesOf8(const int32_t A[64], const int32_t B[64], int8_t C[64]) {
#pragma sched target(vta) split(i, io, ii, 8)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
  // expected-warning@+1 {{pragma(io, alu): in `Cb[((io*8) + ii)]` (flattened: ((io*8) + ii)) no loop of extent 16 under the pragma has coefficient 1; the ALU works on whole elements of 16 lanes: the flattened index of a stage must be 16*e + l with l a loop of extent 16 under the pragma (the lanes, the destination's) and every term of e a multiple of 16}}
#pragma sched pragma(io, alu)
  for (int i = 0; i < 64; ++i)
    C[i] = (int8_t)(A[i] + B[i]);
}

void reversedLanes(const int32_t A[64], const int32_t B[64], int8_t C[64]) {
#pragma sched target(vta) split(i, io, ii, 16)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
  // expected-warning@+1 {{pragma(io, alu): in `Bb[((63 - (io*16)) - ii)]` (flattened: ((63 - (io*16)) - ii)) 'ii' has the coefficient -1; the ALU works on whole elements}}
#pragma sched pragma(io, alu)
  for (int i = 0; i < 64; ++i)
    C[i] = (int8_t)(A[i] + B[63 - i]);
}
