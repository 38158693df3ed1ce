// The nest assigns a loop counter outside its loop: the value the launcher
// would store after the nest is no longer the loop's.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void reset(int n, float *x) {
  int i, j;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    for (j = 0; j < 8; j++)
      x[i * 8 + j] = 1.f;
    j = 0; // expected-warning {{cannot schedule this nest: the nest assigns loop counter 'j' outside its loop; the loop stays as written}}
  }
}
