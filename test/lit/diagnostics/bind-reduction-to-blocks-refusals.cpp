// What a reduction across blocks cannot do, each refused at its directive:
// an operation the GPU has no atomic form of (a product), a temporary of the
// nest (blocks share only the global arrays the nest is given), atomic() of
// a name that is no parameter array, and a vthread (never a reduction).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void product(int n, const float *x, float *p) {
  // expected-error@+1 {{cannot bind reduction loop 'k' to blockIdx.x as a reduction across blocks into 'p': the GPU has no atomic * on float32}}
#pragma sched target(gpu) atomic(p) bind(k, blockIdx.x)
  for (int k = 0; k < n; k++)
    p[0] *= x[k];
}

void temporary(int n, const float *x, float *y) {
  // expected-error@+1 {{cannot bind reduction loop 'kb' to blockIdx.x as a reduction across blocks into 'acc': 'acc' is a temporary of the nest, and blocks share only the global arrays the nest is given}}
#pragma sched target(gpu) split(k, kb, ki, 64) bind(kb, blockIdx.x)
  for (int r = 0; r < 1; r++) {
    float acc = 0;
    for (int k = 0; k < n; k++)
      acc += x[k];
    y[r] = acc;
  }
}

void no_such_array(int n, const float *x, float *s) {
  // expected-error@+1 {{atomic(t): no array named 't' is a parameter of the nest}}
#pragma sched target(gpu) atomic(t)
  for (int k = 0; k < n; k++)
    s[0] += x[k];
}

void virtual_thread(const float *x, float *s) {
  // expected-error@+1 {{cannot bind reduction loop 'k' to vthread: it carries a reduction into 's' (a reduction can be bound to threadIdx, or to blockIdx with atomic updates)}}
#pragma sched target(gpu) bind(k, vthread)
  for (int k = 0; k < 4; k++)
    s[0] += x[k];
}
