// Inside the nest, a counter read after a branch that may have run its loop
// holds one of two values: refused.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void afterBranch(int n, const int *on, float *x) {
  int i, j = 0;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    if (on[i])
      for (j = 0; j < 8; j++)
        x[i * 9 + j] = 1.f;
    x[i * 9 + 8] = j; // expected-warning {{cannot schedule this nest: 'j' is read after its loop where its value depends on whether a loop or a branch of the nest ran; the loop stays as written}}
  }
}
