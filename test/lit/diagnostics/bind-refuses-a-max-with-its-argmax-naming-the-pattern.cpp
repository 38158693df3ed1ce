// A max together with the index where it occurs, written as C does it (a
// guarded pair of assignments), is no commutative update of one element (the
// loop carries a dependence, not a reduction the plugin recognises): binding
// its loop to threads or blocks is refused, naming the dependence on m and
// the pattern, with what to do instead. A guarded max with nothing kept
// beside it gets no such hint.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void argmax(int n, const float *x, float *m, int *at) {
  // expected-error@+1 {{cannot bind 'ki' to threadIdx.x: its iterations are not independent (loop-carried dependence on 'm': m[0] (read) and m[0] (written)); 'm' is a maximum or minimum kept together with other values it selects (an argmax or argmin), which sched does not combine across threads or blocks: reduce the extremum alone (fmax, fmin, std::max, std::min), then find where it occurs in a second nest}}
#pragma sched target(gpu) split(k, ko, ki, 32) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    if (x[k] > m[0]) {
      m[0] = x[k];
      at[0] = k;
    }
}

void argmin_across_blocks(int n, const float *x, float *m, int *at) {
  // expected-error@+1 {{cannot bind 'k' to blockIdx.x: its iterations are not independent (loop-carried dependence on 'm': m[0] (read) and m[0] (written)); 'm' is a maximum or minimum kept together}}
#pragma sched target(gpu) bind(k, blockIdx.x)
  for (int k = 0; k < n; k++)
    if (m[0] >= x[k]) {
      at[0] = k;
      m[0] = x[k];
    }
}

void guarded_max(int n, const float *x, float *m) {
  // expected-error-re@+1 {{cannot bind 'ki' to threadIdx.x: its iterations are not independent (loop-carried dependence on 'm': m[0] (read) and m[0] (written)){{$}}}}
#pragma sched target(gpu) split(k, ko, ki, 32) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    if (x[k] > m[0])
      m[0] = x[k];
}
