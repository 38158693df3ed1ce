// Two buffers of the nest derived from the same pointer may overlap.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void shifted(float *A, int n) {
  float *B = A + 4;
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    B[i] = A[i] * 2.f; // expected-warning {{cannot schedule this nest: pointer 'B' is derived from 'A'; aliasing cannot be ruled out}}
}
