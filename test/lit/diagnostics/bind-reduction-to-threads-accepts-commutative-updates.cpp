// Every commutative update form is a cross-thread reduction: -=, *=,
// guarded updates, std::min/std::max on integers, fmaxf, &, |, ^, && and ||,
// several reduced elements in one loop, and temporaries private to an
// iteration.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <algorithm>
#include <cmath>

void f(int n, float *s, float *p, float *mx, int *lo, unsigned *bor, unsigned *band, unsigned *bxor, bool *all, bool *any,
       const float *x, const int *v) {
#pragma sched target(gpu) split(k, ko, ki, 64) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++) {
    float t = x[k] * 2;
    s[0] -= t;
    if (v[k] > 0)
      p[0] *= x[k];
    mx[0] = fmaxf(mx[0], x[k]);
    lo[0] = std::min(lo[0], v[k]);
    bor[0] |= unsigned(v[k]);
    band[0] &= unsigned(v[k]);
    bxor[0] ^= unsigned(v[k]);
    all[0] = all[0] && v[k] > 0;
    any[0] = any[0] || v[k] > 0;
  }
}
