// pragma(alu) refuses a value that is no chain of ALU operations on its
// destination, naming the operation and why; the loop stays as written.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

#include <cstdint>

void twoCompoundOperands(const int32_t A[64], const int32_t B[64], int8_t C[64]) {
#pragma sched target(vta) split(i, io, ii, 16)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
  // expected-warning@+1 {{pragma(io, alu): `((Ab[((io*16) + ii)] + Bb[((io*16) + ii)])*(Ab[((io*16) + ii)] + 1))` combines two compound values (`(Ab[((io*16) + ii)] + Bb[((io*16) + ii)])` and `(Ab[((io*16) + ii)] + 1)`); the ALU computes in place, a chain of operations on the destination, and this needs a temporary}}
#pragma sched pragma(io, alu)
  for (int i = 0; i < 64; ++i)
    C[i] = (int8_t)((A[i] + B[i]) * (A[i] + 1));
}

void subtraction(const int32_t A[64], const int32_t B[64], int8_t C[64]) {
#pragma sched target(vta) split(i, io, ii, 16)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
  // expected-warning@+1 {{pragma(io, alu): `(Ab[((io*16) + ii)] - Bb[((io*16) + ii)])` is a subtraction (VTA's ALU has no SUB; only a constant can be subtracted, as ADD of its negation)}}
#pragma sched pragma(io, alu)
  for (int i = 0; i < 64; ++i)
    C[i] = (int8_t)(A[i] - B[i]);
}

void division(const int32_t A[64], const int32_t B[64], int8_t C[64]) {
#pragma sched target(vta) split(i, io, ii, 16)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
  // expected-warning@+1 {{pragma(io, alu): `(Ab[((io*16) + ii)]/Bb[((io*16) + ii)])` is a division (VTA's ALU has none)}}
#pragma sched pragma(io, alu)
  for (int i = 0; i < 64; ++i)
    C[i] = (int8_t)(A[i] / B[i]);
}

void selection(const int32_t A[64], const int32_t B[64], int8_t C[64]) {
#pragma sched target(vta) split(i, io, ii, 16)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
  // expected-warning@+1 {{is a selection (VTA's ALU has none)}}
#pragma sched pragma(io, alu)
  for (int i = 0; i < 64; ++i)
    C[i] = (int8_t)(A[i] < B[i] ? A[i] : B[i] + 1);
}

void shiftByElement(const int32_t A[64], const int32_t B[64], int8_t C[64]) {
#pragma sched target(vta) split(i, io, ii, 16)
#pragma sched cache_read(A, vta.acc, Ab) cache_read(B, vta.acc, Bb) cache_write(C, vta.acc, Cb)
  // expected-warning@+1 {{pragma(io, alu): `(Ab[((io*16) + ii)] >> Bb[((io*16) + ii)])` shifts by `Bb[((io*16) + ii)]`; the ALU shifts by a constant only}}
#pragma sched pragma(io, alu)
  for (int i = 0; i < 64; ++i)
    C[i] = (int8_t)(A[i] >> B[i]);
}

