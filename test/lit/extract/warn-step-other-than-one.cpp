// A loop whose step is not +1 is not canonical: decrementing, a step of 2, a
// step that is not a constant, a product. The warning says which steps are
// accepted, and the nest stays as written. (`i = 1 + i` is accepted: see
// e2e/loop-forms-run-every-iteration-under-sim.test.)
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void down(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; --i) // expected-warning {{cannot schedule this nest: non-canonical loop (the step of 'i' is not 1: expected '++i', 'i++', 'i += 1' or 'i = i + 1')}}
    y[i] = 1.f;
}

void byTwo(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; i += 2) // expected-warning {{non-canonical loop (the step of 'i' is not 1: expected '++i', 'i++', 'i += 1' or 'i = i + 1')}}
    y[i] = 1.f;
}

void twoPlus(float *y, unsigned n) {
#pragma sched target(gpu)
  for (unsigned u = 0; u < n; u = 2 + u) // expected-warning {{non-canonical loop (the step of 'u' is not 1: expected '++u', 'u++', 'u += 1' or 'u = u + 1')}}
    y[u] = 1.f;
}

void byStep(float *y, int n, int step) {
#pragma sched target(gpu)
  for (int i = 0; i < n; i = i + step) // expected-warning {{non-canonical loop (the step of 'i' is not 1: expected '++i', 'i++', 'i += 1' or 'i = i + 1')}}
    y[i] = 1.f;
}

void doubling(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 1; i < n; i = i * 2) // expected-warning {{non-canonical loop (the step of 'i' is not 1: expected '++i', 'i++', 'i += 1' or 'i = i + 1')}}
    y[i] = 1.f;
}

void minusMinusOne(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; i -= -1) // expected-warning {{non-canonical loop (the step of 'i' is not 1: expected '++i', 'i++', 'i += 1' or 'i = i + 1')}}
    y[i] = 1.f;
}
