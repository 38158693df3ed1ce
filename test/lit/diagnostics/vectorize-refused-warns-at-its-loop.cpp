// vectorize(x) that cannot become CUDA vector accesses is never a silent
// no-op: a -Wsched-ignored warning with the caret on the loop argument says
// why (a stride other than 1, an unaligned first element, a run-time row
// stride, a width CUDA has no vector type for, control flow in the body),
// and the loop is unrolled instead; -Wno-sched-ignored silences it and
// -Werror=sched-ignored makes it an error.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s
// RUN: %sched_cc -fsyntax-only -Wno-unknown-warning-option -Wno-sched-ignored -Xclang -verify=quiet %s
// RUN: not %sched_cc -fsyntax-only -Wno-unknown-warning-option -Werror=sched-ignored %s 2>&1 | FileCheck %s
// quiet-no-diagnostics
// CHECK: error: vectorize(v) has no effect: X is read with stride 2 in 'v' (a vector access needs stride 1); the loop is unrolled instead [-Werror,-Wsched-ignored]

void strided(const float *X, float *Z) {
#pragma sched split(i, io, v, 4) bind(io, threadIdx.x)
  // expected-warning@+1 {{vectorize(v) has no effect: X is read with stride 2 in 'v' (a vector access needs stride 1); the loop is unrolled instead}}
#pragma sched vectorize(v)
  for (int i = 0; i < 256; ++i)
    Z[i] = X[2 * i];
}

void offset(const float *X, float *Z) {
#pragma sched split(i, io, v, 4) bind(io, threadIdx.x)
  // expected-warning@+1 {{vectorize(v) has no effect: X is read from index ((io*4) + 1), not provably a multiple of 4 (the vector access would be unaligned)}}
#pragma sched vectorize(v)
  for (int i = 0; i < 256; ++i)
    Z[i] = X[i + 1];
}

void rows(int ld, const float *X, float *Z) {
#pragma sched split(j, jo, v, 4) bind(i, blockIdx.x) bind(jo, threadIdx.x)
  // expected-warning@+1 {{vectorize(v) has no effect: X is read from index}}
#pragma sched vectorize(v)
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      Z[i * 64 + j] = X[i * ld + j];
}

void wide(const float *X, float *Z) {
#pragma sched split(i, io, v, 8) bind(io, threadIdx.x)
  // expected-warning@+1 {{vectorize(v) has no effect: its extent is 8, and CUDA's vector types have 2 or 4 elements (split it by 4 or 2 first)}}
#pragma sched vectorize(v)
  for (int i = 0; i < 256; ++i)
    Z[i] = X[i];
}

void branchy(const float *X, float *Z) {
#pragma sched split(i, io, v, 4) bind(io, threadIdx.x)
  // expected-warning@+1 {{vectorize(v) has no effect: its body has control flow (an if)}}
#pragma sched vectorize(v)
  for (int i = 0; i < 256; ++i)
    if (X[i] > 0.f)
      Z[i] = X[i];
}
