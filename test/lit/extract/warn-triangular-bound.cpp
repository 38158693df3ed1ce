// A bound that depends on an outer loop (a triangular nest) is not supported.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void lower(float *A, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) // expected-warning {{cannot schedule this nest: loop bound of 'j' depends on loop 'i' (triangular nests are not supported)}}
      A[i * n + j] = 0.f;
}
