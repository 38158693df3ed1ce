// A max together with the index where it occurs, written as C does it (a
// guarded pair of assignments), is no commutative update of one element (the
// loop carries no reduction the plugin recognises): binding its loop to
// threads is refused, naming the dependence on m.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void argmax(int n, const float *x, float *m, int *at) {
  // expected-error@+1 {{cannot bind 'ki' to threadIdx.x: its iterations are not independent (loop-carried dependence on 'm': m[0] (read) and m[0] (written))}}
#pragma sched target(gpu) split(k, ko, ki, 32) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    if (x[k] > m[0]) {
      m[0] = x[k];
      at[0] = k;
    }
}
