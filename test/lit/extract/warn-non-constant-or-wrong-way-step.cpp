// A loop's step must be a constant other than 0 (up or down) and go the way
// its condition ends it: a step that is not a constant, a product, a zero
// step, an upward step under a downward condition (and the reverse), and an
// unsigned downward loop that would wrap below 0 are refused with a warning
// that says so; the nest stays as written. Constant steps both ways are
// accepted: e2e/stepped-and-downward-loops-match-under-sim.test.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void byStep(float *y, int n, int step) {
#pragma sched target(gpu)
  for (int i = 0; i < n; i = i + step) // expected-warning {{cannot schedule this nest: non-canonical loop (the step of 'i' is not a constant other than 0: expected '++i', '--i', 'i += c', 'i -= c' or 'i = i + c')}}
    y[i] = 1.f;
}

void doubling(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 1; i < n; i = i * 2) // expected-warning {{non-canonical loop (the step of 'i' is not a constant other than 0}}
    y[i] = 1.f;
}

void zero(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; i += 0) // expected-warning {{non-canonical loop (the step of 'i' is not a constant other than 0}}
    y[i] = 1.f;
}

void downUnderUpwardCondition(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; --i) // expected-warning {{non-canonical loop (the step of 'i' goes down but the condition 'i < n' ends a loop that goes up)}}
    y[i] = 1.f;
}

void upUnderDownwardCondition(float *y, int n) {
#pragma sched target(gpu)
  for (int i = n; i > 0; i += 2) // expected-warning {{non-canonical loop (the step of 'i' goes up but the condition 'i > 0' ends a loop that goes down)}}
    y[i] = 1.f;
}

void unsignedDownToZeroInclusive(float *y, unsigned n) {
#pragma sched target(gpu)
  for (unsigned u = n; u >= 0; --u) // expected-warning {{non-canonical loop (a loop over 'u' that goes down, compared as unsigned with 'u >= 0', may wrap below 0 instead of ending: write 'u > b' or count up)}}
    y[u] = 1.f;
}

void unsignedByTwoDownToZero(float *y, unsigned n) {
#pragma sched target(gpu)
  for (unsigned u = n; u > 0; u -= 2) // expected-warning {{may wrap below 0 instead of ending}}
    y[u] = 1.f;
}
