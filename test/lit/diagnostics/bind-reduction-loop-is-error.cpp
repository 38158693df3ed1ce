// Binding a reduction into a temporary of the nest to a block index is illegal:
// blocks share only the global arrays the nest is given (issue 23).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void rowsum(int n, float *a, const float *b) {
  // expected-error@+1 {{cannot bind reduction loop 'k' to blockIdx.x}}
#pragma sched bind(k, blockIdx.x)
  for (int i = 0; i < n; ++i) {
    float acc = 0;
    for (int k = 0; k < n; ++k)
      acc += b[i * n + k];
    a[i] = acc;
  }
}
