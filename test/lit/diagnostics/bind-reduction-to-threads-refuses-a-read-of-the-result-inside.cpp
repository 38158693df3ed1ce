// A cross-thread reduction combines its threads' partials only after the
// loop: a read of the reduced element inside the loop would see a partial.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void f(int n, float *s, float *t, const float *x) {
  // expected-error@+1 {{cannot bind reduction loop 'k' to threadIdx.x as a cross-thread reduction into 's': it reads 's[0]' besides updating 's'}}
#pragma sched target(gpu) bind(k, threadIdx.x)
  for (int k = 0; k < 64; k++) {
    s[0] += x[k];
    t[0] += s[0];
  }
}
