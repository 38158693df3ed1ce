// A reduction bound to blockIdx combines the blocks' partial results with
// atomic updates, in the order the blocks finish. For a floating-point sum
// that order changes the rounding from run to run, which the schedule must
// accept with atomic(s): without it the bind is refused, saying so; with it
// the nest is accepted. Integer sums and min/max give the same result in any
// order: no atomic() is needed.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

#include <cmath>

void float_sum(int n, const float *x, float *s) {
  // expected-error@+1 {{cannot bind reduction loop 'kb' to blockIdx.x as a reduction across blocks into 's': blocks add their partial results to 's' in the order they finish, so the rounding of the float32 sum would change from run to run: atomic(s) before the bind accepts that (a fixed-order combine across blocks is not implemented yet)}}
#pragma sched target(gpu) split(k, kb, ki, 64) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    s[0] += x[k];
}

void double_sum(int n, const double *x, double *s) {
  // expected-error@+1 {{the rounding of the float64 sum would change from run to run: atomic(s) before the bind accepts that}}
#pragma sched target(gpu) bind(k, blockIdx.x)
  for (int k = 0; k < n; k++)
    s[0] += x[k];
}

void float_sum_with_atomic(int n, const float *x, float *s) {
#pragma sched target(gpu) split(k, kb, ki, 64) atomic(s) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    s[0] += x[k];
}

void int_sum(int n, const int *x, int *s) {
#pragma sched target(gpu) split(k, kb, ki, 64) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    s[0] += x[k];
}

void float_max(int n, const float *x, float *m) {
#pragma sched target(gpu) split(k, kb, ki, 64) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    m[0] = std::fmax(m[0], x[k]);
}

void unsigned_xor(int n, const unsigned *x, unsigned *h) {
#pragma sched target(gpu) bind(k, blockIdx.x)
  for (int k = 0; k < n; k++)
    h[0] ^= x[k];
}
