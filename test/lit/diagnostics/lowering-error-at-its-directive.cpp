// A lowering error about a cache stage is reported at the directive that
// placed the stage (its compute_at), not at the loop.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void transpose(int n, const float (*A)[8], float (*B)[8]) {
#pragma sched bind(i, blockIdx.x) cache_read(A, shared, As)
  // expected-warning@+1 {{sched: cannot lower nest: the region of stage 'As' at 'i' has no constant size}}
#pragma sched compute_at(As, i)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      B[i][j] = A[j][i];
}
