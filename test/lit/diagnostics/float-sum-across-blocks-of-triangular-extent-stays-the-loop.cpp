// A float sum bound to blockIdx is added up in block order, in scratch
// buffers the launcher sizes from the nest's scalar parameters: a block
// loop whose extent is another loop's variable (k < i) cannot size them, so
// the nest stays the original loop with a warning saying why (atomic(s)
// would need no scratch).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void triangular_sum(int n, const float *A, float *s) {
#pragma sched target(gpu) bind(k, blockIdx.x)
  // expected-warning@+1 {{cannot lower nest: the reduction loop 'k' bound to blockIdx.x (a fixed-order combine across blocks): its extent i is not a function of the nest's scalar parameters; the loop stays as written}}
  for (int i = 0; i < n; i++)
    for (int k = 0; k < i; k++)
      s[i] += A[i * n + k];
}

void triangular_sum_with_atomic(int n, const float *A, float *s) {
#pragma sched target(gpu) atomic(s) bind(k, blockIdx.x)
  for (int i = 0; i < n; i++)
    for (int k = 0; k < i; k++)
      s[i] += A[i * n + k];
}
