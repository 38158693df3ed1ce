// ALU immediates are int16 and a shift amount is SHR's 5-bit signed field
// (right by at most 15, left by at most 16): pragma(alu) refuses a constant
// beyond them at compile time, naming it.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

#include <cstdint>

void immediateBeyondInt16(const int32_t A[64], const int32_t B[64], int8_t C[64]) {
#pragma sched target(vta) split(i, io, ii, 16)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
  // expected-warning@+1 {{pragma(io, alu): the constant 40000 does not fit the ALU's 16-bit signed immediate}}
#pragma sched pragma(io, alu)
  for (int i = 0; i < 64; ++i)
    C[i] = (int8_t)(A[i] + B[i] + 40000);
}

void shiftRightBy16(const int32_t A[64], const int32_t B[64], int8_t C[64]) {
#pragma sched target(vta) split(i, io, ii, 16)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
  // expected-warning@+1 {{shifts by 16; the ALU shifts right by at most 15 and left by at most 16 (SHR's amount is a 5-bit signed field)}}
#pragma sched pragma(io, alu)
  for (int i = 0; i < 64; ++i)
    C[i] = (int8_t)((A[i] + B[i]) >> 16);
}

void shiftLeftBy17(const int32_t A[64], const int32_t B[64], int8_t C[64]) {
#pragma sched target(vta) split(i, io, ii, 16)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
  // expected-warning@+1 {{shifts by 17; the ALU shifts right by at most 15 and left by at most 16 (SHR's amount is a 5-bit signed field)}}
#pragma sched pragma(io, alu)
  for (int i = 0; i < 64; ++i)
    C[i] = (int8_t)((A[i] + B[i]) << 17);
}

