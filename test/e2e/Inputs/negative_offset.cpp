// `y[i] = x[i + off]` with a negative run-time `off` on a pointer into the
// middle of an array reads below the pointer, which is legal C++: the copy
// region of x starts at min(off, 0) (issue 8: the simulator stopped with an
// out-of-bounds load at index -5).
#include <cstdio>
#include <cstdlib>

static void shift(const float *x, float *y, int n, int off) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = x[i + off];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 20;
  int off = argc > 2 ? std::atoi(argv[2]) : -5;
  float a[64], y[32];
  for (int i = 0; i < 64; ++i)
    a[i] = float(i);
  for (float &v : y)
    v = -1.f;
  shift(a + 32, y, n, off);
  for (float v : y)
    std::printf("%g ", v);
  std::printf("n=%d off=%d\n", n, off);
  return 0;
}
