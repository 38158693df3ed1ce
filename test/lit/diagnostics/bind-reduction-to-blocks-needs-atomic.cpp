// A reduction bound to blockIdx combines the blocks' partial results with
// atomic updates, which the schedule must ask for (the order in which blocks
// add up is then not fixed): without atomic(s) the bind is refused, saying
// so; with it the nest is accepted.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void without(int n, const float *x, float *s) {
  // expected-error@+1 {{cannot bind reduction loop 'kb' to blockIdx.x as a reduction across blocks into 's': blocks combine their partial results with atomic updates of 's', which the schedule must ask for: atomic(s) before the bind (the order in which blocks add up is then not fixed)}}
#pragma sched target(gpu) split(k, kb, ki, 64) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    s[0] += x[k];
}

void with(int n, const float *x, float *s) {
#pragma sched target(gpu) split(k, kb, ki, 64) atomic(s) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    s[0] += x[k];
}
