// A variable-length row's length is evaluated once, where the array is
// declared; if the function may change the variable afterwards, the nest's
// `n` is not the row length, and the nest stays as written. Unchanged, the
// length is the row's size in the IR (the second function).
// RUN: %sched_c -std=c99 -fsyntax-only -Xclang -verify %s
// RUN: %sched_c -std=c99 -fsyntax-only -fplugin-arg-sched-dump=ir %s 2>/dev/null | FileCheck %s

void changed(int n, double A[n][n]) {
  int i, j;
  n = n / 2;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = 0.0; // expected-warning {{cannot schedule this nest: the row length 'n' of 'A' may change before the nest (C evaluates it once, where it is declared); the loop stays as written}}
}

void rows(int n, int m, float B[n][m]) {
  int i, j;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      B[i][j] = 1.0f;
}
// CHECK-LABEL: func sched_{{.*}}_20(B: float32*[n, m] global
