// The refusal to bind a reduction loop names the array the loop reduces
// into (y: every iteration of i adds into the same y[k]), not another array
// the loop writes after reading it (t[i], a new element each iteration)
// (issue 17, item 5), and why it is no cross-thread reduction: it also
// writes t[i], which is no update of one element (issue 23).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void f(int n, float *t, float *y, const float (*A)[16]) {
  // expected-error@+1 {{cannot bind reduction loop 'i' to threadIdx.x as a cross-thread reduction into 'y': it writes 't[i]', an element that moves with 'i'}}
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < n; i++) {
    t[i] = 2 * t[i];
    for (int k = 0; k < 16; k++)
      y[k] = y[k] + A[i][k] * t[i];
  }
}
