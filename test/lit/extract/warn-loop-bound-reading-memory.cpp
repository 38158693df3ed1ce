// A bound may use the enclosing loops' counters (a triangular nest), but not
// a value the nest reads from memory (a row length from an array): that nest
// stays as written.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void rows(float (&A)[64][64], int n, const int *len) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < len[i]; ++j) // expected-warning {{cannot schedule this nest: loop bound of 'j' depends on a value computed in the nest}}
      A[i][j] = 0.f;
}
