// A counter declared before the nest whose loop sits under a branch: after
// the nest it holds the loop's final value or its old one, depending on data
// the compiler cannot see; the program reads it, so the nest stays as written.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

int branch(int n, const int *on, float *x) {
  int i, j = 0;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) // expected-warning {{cannot schedule this nest: loop counter 'j' is declared outside the nest and may be read after it, but its final value depends on a branch of the nest; the loop stays as written}}
    if (on[i])
      for (j = 0; j < 8; j++)
        x[i * 8 + j] = 1.f;
  return j;
}
