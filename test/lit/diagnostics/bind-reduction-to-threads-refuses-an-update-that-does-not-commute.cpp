// y = 2*y + x[k] depends on the order of the iterations: no partial results
// can be combined.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void f(float *y, const float *x) {
  // expected-error@+1 {{cannot bind reduction loop 'k' to threadIdx.x as a cross-thread reduction into 'y': 'y[0] = ((2.0f*y[0]) + x[k])' is not an update of 'y' by +, -, *, min, max, &, |, ^, && or ||}}
#pragma sched target(gpu) bind(k, threadIdx.x)
  for (int k = 0; k < 64; k++)
    y[0] = 2 * y[0] + x[k];
}
