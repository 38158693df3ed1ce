// A factor expression whose value is not positive (or a negative offset), or
// that divides by zero, is an error at the argument (at the operator for a
// division by zero).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

constexpr int TS = 8;
void f(float *y, int n) {
#pragma sched target(gpu) split(i, io, ii, TS - 8) bind(ii, threadIdx.x) // expected-error {{split factor must be a positive integer}}
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
#pragma sched target(gpu) split(i, io, ii, 4 - 8) bind(ii, threadIdx.x) // expected-error {{split factor must be a positive integer}}
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
#pragma sched target(gpu) split(i, io, ii, nparts=-TS) bind(ii, threadIdx.x) // expected-error {{split factor must be a positive integer}}
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
#pragma sched target(gpu) split(i, io, ii, TS / (TS - 8)) bind(ii, threadIdx.x) // expected-error {{factor expression 'TS / (TS - 8)' in 'split': division by zero in the factor expression}}
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
#pragma sched target(gpu) split(i, io, ii, 4 / 0) bind(ii, threadIdx.x) // expected-error {{division by zero in the factor expression}}
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
#pragma sched target(gpu) split(i, io, ii, TS * ) bind(ii, threadIdx.x) // expected-error {{expected an operand}}
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
}

void alignedFactor(float *c, const float *a) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 8, 8) bind(io, blockIdx.y) bind(jo, blockIdx.x)
#pragma sched bind(ii, threadIdx.y) bind(ji, threadIdx.x) cache_read(a, shared, As) compute_at(As, jo)
#pragma sched storage_align(As, As.ax0, TS - TS, 0) // expected-error {{storage_align factor must be a positive integer}}
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      c[i * 64 + j] = a[i * 64 + j] * 2.f;
}

void alignedOffset(float *c, const float *a) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 8, 8) bind(io, blockIdx.y) bind(jo, blockIdx.x)
#pragma sched bind(ii, threadIdx.y) bind(ji, threadIdx.x) cache_read(a, shared, As) compute_at(As, jo)
#pragma sched storage_align(As, As.ax0, TS, 1 - TS) // expected-error {{storage_align offset must be a non-negative integer}}
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      c[i * 64 + j] = a[i * 64 + j] * 2.f;
}
