// #pragma clang diagnostic ignored "-Wsched-fallback" silences the warning
// from where it stands until the pop, and Clang does not call the group
// unknown (-verify would see that warning).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wsched-fallback"
void silenced(int n, float *a, const float *b, const int *idx) {
#pragma sched split(i, bo, ti, 4) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[idx[i]];
}
#pragma clang diagnostic pop

void warned(int n, float *a, const float *b, const int *idx) {
#pragma sched split(i, bo, ti, 4) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[idx[i]]; // expected-warning {{indirect index 'idx[i]'}}
}
