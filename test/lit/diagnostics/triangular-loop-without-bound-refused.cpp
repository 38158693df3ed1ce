// What is still refused of a triangular nest, with the reason: a bound of
// the inner loop with no known range over the outer loop's (a division by
// the outer variable) can neither be interchanged with it (an error on the
// directive) nor bound to threads (the block's extent is unknown: the nest
// stays as written).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void interchanged(float (&A)[64][64], int n) {
#pragma sched target(gpu) reorder(j, i) bind(j, threadIdx.x) // expected-error {{cannot reorder 'j' outside 'i': the bounds of 'j' depend on 'i', and no range of it over the range of 'i' is known}}
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 64 / (i + 1); ++j)
      A[i][j] = 0.f;
}

void bound(float (&A)[64][64], int n) {
#pragma sched target(gpu) bind(i, blockIdx.x) bind(j, threadIdx.x)
  for (int i = 0; i < n; ++i) // expected-warning {{cannot lower nest: the extent of loop 'j' bound to threadIdx.x depends on 'i', and no bound of it over the kernel's parameters is known; launch extents must be loop-invariant}}
    for (int j = 0; j < 64 / (i + 1); ++j)
      A[i][j] = 0.f;
}
