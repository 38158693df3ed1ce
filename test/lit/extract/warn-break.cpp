// `break` leaves the loop early: the nest cannot be scheduled.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void stop(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i) {
    if (y[i] < 0.f)
      break; // expected-warning {{cannot schedule this nest: 'break' statement}}
    y[i] = 1.f;
  }
}
