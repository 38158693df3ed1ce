// `for (i = 2; i < n - 3; ++i)` with n = 1 runs zero times: the regions of x
// and z (sized by the largest index, n - 4 + ...) are empty, not negative, and
// the vectors of n elements may be empty too (issue 8: "buffer 'z' has
// negative size -2").
#include <cstdio>
#include <cstdlib>
#include <vector>

static void smooth(const float *x, float *z, int n) {
#pragma sched target(gpu) split(i, io, ii, 32) bind(ii, threadIdx.x)
  for (int i = 2; i < n - 3; ++i)
    z[i] = x[i - 2] + x[i + 3];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 40;
  std::vector<float> x(n), z(n, -1.f);
  for (int i = 0; i < n; ++i)
    x[i] = float(i * i);
  smooth(x.data(), z.data(), n);
  for (float v : z)
    std::printf("%g ", v);
  std::printf("n=%d\n", n);
  return 0;
}
