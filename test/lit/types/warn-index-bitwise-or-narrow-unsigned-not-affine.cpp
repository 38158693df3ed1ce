// An index computed with bitwise operators, or in 32-bit unsigned arithmetic
// (which wraps modulo 2^32: u - 1 at u = 0 is element 4294967295), is not
// affine: the nest stays as written, never miscompiled.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void xorIndex(float *y, const float *x, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    y[i] = x[i ^ 1]; // expected-warning {{cannot schedule this nest: non-affine index 'i ^ 1'; the loop stays as written}}
}

void shiftIndex(float *y, const float *x, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    y[i << 1] = x[i]; // expected-warning {{cannot schedule this nest: non-affine index 'i << 1'; the loop stays as written}}
}

void narrowUnsigned(float *y, const float *x, unsigned n) {
#pragma sched target(gpu)
  for (unsigned u = 1; u < n; ++u)
    y[u] = x[u - 1]; // expected-warning {{non-affine index 'u - 1' (unsigned arithmetic narrower than 64 bits wraps; compute the index in a signed or 64-bit type)}}
}
