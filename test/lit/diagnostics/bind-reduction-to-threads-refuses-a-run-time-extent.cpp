// The block combines one partial result per thread, in an array of known
// size: a reduction loop of run-time extent must be split first.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void f(int n, float *y, const float *x) {
  // expected-error@+1 {{cannot bind reduction loop 'k' to threadIdx.x as a cross-thread reduction into 'y': its extent n is not a constant (the block combines one partial result per thread; split it first: split(k, ko, ki, 128) bind(ki, threadIdx.x))}}
#pragma sched target(gpu) bind(k, threadIdx.x)
  for (int k = 0; k < n; k++)
    y[0] += x[k];
}
