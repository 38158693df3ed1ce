// Every error of a schedule is reported, not only the first; a directive that
// names what a failed one would have made is skipped silently (no cascade).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void copy(int n, float *a, const float *b) {
  // expected-error@+2 {{no loop named 'q'}}
  // expected-error@+1 {{no loop named 'z'}}
#pragma sched split(q, qo, qi, 4) bind(qo, blockIdx.x) split(i, io, ii, 4) bind(z, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}
