// A chain of + and - is an update of y only for integers, with y one term of
// coefficient 1: a floating-point chain would be reassociated (each partial
// would round differently from the loop), 1 - y flips y's sign every
// iteration and y + y doubles it.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void flt(float *y, const float *x) {
  // expected-error@+1 {{cannot bind reduction loop 'k' to threadIdx.x as a cross-thread reduction into 'y': 'y[0] = ((y[0] - x[k]) - 1.0f)' is not an update of 'y'}}
#pragma sched target(gpu) bind(k, threadIdx.x)
  for (int k = 0; k < 64; k++)
    y[0] = y[0] - x[k] - 1.0f;
}

void negated(int *y, const int *x) {
  // expected-error@+1 {{cannot bind reduction loop 'k' to threadIdx.x as a cross-thread reduction into 'y': 'y[0] = ((x[k] - y[0]) + 1)' is not an update of 'y'}}
#pragma sched target(gpu) bind(k, threadIdx.x)
  for (int k = 0; k < 64; k++)
    y[0] = x[k] - y[0] + 1;
}

void twice(int *y, const int *x) {
  // expected-error@+1 {{cannot bind reduction loop 'k' to threadIdx.x as a cross-thread reduction into 'y': 'y[0] = ((y[0] + y[0]) - x[k])' is not an update of 'y'}}
#pragma sched target(gpu) bind(k, threadIdx.x)
  for (int k = 0; k < 64; k++)
    y[0] = y[0] + y[0] - x[k];
}
