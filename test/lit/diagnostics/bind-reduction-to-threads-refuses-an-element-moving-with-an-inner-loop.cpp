// Bound to threads, k reduces into y[j] for every j of the loop inside it:
// one partial per thread and j. Refused; reordering j outside k makes it one
// element per reduction.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void f(float *y, const float (*A)[8]) {
  // expected-error@+1 {{cannot bind reduction loop 'k' to threadIdx.x as a cross-thread reduction into 'y': it writes 'y[j]', an element that moves with 'j'}}
#pragma sched target(gpu) bind(k, threadIdx.x)
  for (int k = 0; k < 64; k++)
    for (int j = 0; j < 8; j++)
      y[j] += A[k][j];
}
