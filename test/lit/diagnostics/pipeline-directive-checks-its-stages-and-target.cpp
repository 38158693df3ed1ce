// pipeline(x, stages=S) takes a loop and stages=<2 to 8>; it needs
// target(gpu) and a serial loop; a second pipeline of one loop is an error.
// Each error's caret is on what is wrong.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void copy(int n, float *a, const float *b) {
  // expected-error@+1 {{a pipeline has 2 to 8 stages, not 1}}
#pragma sched target(gpu) bind(i, threadIdx.x) pipeline(i, stages=1)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}

void word(int n, float *a, const float *b) {
  // expected-error@+1 {{expected stages=<count>, got 'depth=3'}}
#pragma sched target(gpu) bind(i, threadIdx.x) pipeline(i, depth=3)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}

void vta(int n, int *a, const int *b) {
  // expected-error@+1 {{pipeline(i, stages=3) needs target(gpu)}}
#pragma sched target(vta) pipeline(i, stages=3)
  for (int i = 0; i < 16; ++i)
    a[i] = b[i];
}

void bound(int n, float *a, const float *b) {
  // expected-error@+1 {{cannot pipeline 'i': it is already bound to threadIdx.x}}
#pragma sched target(gpu) bind(i, threadIdx.x) pipeline(i, stages=3)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}

void twice(int n, float *a, const float *b) {
  // expected-error@+1 {{loop 'k' is already pipelined}}
#pragma sched target(gpu) bind(i, threadIdx.x) pipeline(k, stages=3) pipeline(k, stages=2)
  for (int i = 0; i < 64; ++i)
    for (int k = 0; k < n; ++k)
      a[i] += b[k];
}
