// An indirect index cannot be scheduled: a warning names the access, the
// program still compiles, and the original loop runs (no launch at all).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 -Wno-unknown-pragmas %s -o %t.ref
// RUN: %sched_cc -Wno-everything %s %sched_link -o %t
// RUN: %t.ref > %t.ref.out
// RUN: env SCHED_BACKEND=sim SCHED_VERBOSE=1 %t > %t.out 2> %t.err
// RUN: diff %t.ref.out %t.out
// RUN: not grep -q 'ran on' %t.err
// RUN: nm %t > %t.nm
// RUN: not grep -q __sched_launch %t.nm

#include <cstdio>

void gather(int n, float *a, const float *b, const int *idx) {
#pragma sched split(i, bo, ti, 4) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[idx[i]]; // expected-warning {{indirect index 'idx[i]'}}
}

int main() {
  float a[8], b[8];
  int idx[8];
  for (int i = 0; i < 8; ++i) {
    b[i] = float(i * i);
    idx[i] = (i * 5) % 8;
  }
  gather(8, a, b, idx);
  for (int i = 0; i < 8; ++i)
    std::printf("%g\n", a[i]);
  return 0;
}
