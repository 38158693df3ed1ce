// _Pragma("clang diagnostic error \"-Wsched\"") makes every sched warning
// after it an error; before it they stay warnings.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void warned(int n, float *a, const float *b, const int *idx) {
#pragma sched split(i, bo, ti, 4) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[idx[i]]; // expected-warning {{indirect index 'idx[i]'}}
}

_Pragma("clang diagnostic error \"-Wsched\"")
void promoted(int n, float *a, const float *b, const int *idx) {
#pragma sched split(i, bo, ti, 4) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[idx[i]]; // expected-error {{indirect index 'idx[i]'}}
}
