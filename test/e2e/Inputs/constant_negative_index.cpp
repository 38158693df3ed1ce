// Constant negative offsets from pointer parameters (`y[i - 1]`, `x[i - 2]`
// on pointers into the middle of arrays) are legal C++: the nest schedules
// (it used to fall back with "an index of 'y' is negative") and the copy
// regions start below the pointers.
#include <cstdio>
#include <cstdlib>
static void diff(const float *x, float *y, int n) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i - 1] = x[i - 2] - x[i];
}
int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 20;
  float a[64], b[64];
  for (int i = 0; i < 64; ++i) { a[i] = float(i * i); b[i] = -1.f; }
  diff(a + 8, b + 4, n);
  for (float v : b) std::printf("%g ", v);
  std::printf("n=%d\n", n);
}
