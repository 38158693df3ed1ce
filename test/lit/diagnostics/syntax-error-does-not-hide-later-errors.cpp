// After a syntax error the parser skips to the end of that directive and
// reads on: the errors of the later directives are reported too.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void copy(int n, float *a, const float *b) {
  // expected-error@+2 {{expected an argument}}
  // expected-error@+1 {{unknown thread tag 'threadIdx.w'}}
#pragma sched split(i, io, ii, =) bind(ii, threadIdx.w)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}
