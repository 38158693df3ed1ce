// -Werror=sched-fallback makes only that group an error.
// RUN: %sched_cc -fsyntax-only -Wno-unknown-warning-option -Werror=sched-fallback -Xclang -verify %s

void gather(int n, float *a, const float *b, const int *idx) {
#pragma sched split(i, bo, ti, 4) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[idx[i]]; // expected-error {{indirect index 'idx[i]'}}
}

void unused(int &n) {
  // expected-warning@+1 {{must be followed by a for loop; ignored [-Wsched-ignored]}}
#pragma sched split(i, io, ii, 4)
  n = 3;
}
