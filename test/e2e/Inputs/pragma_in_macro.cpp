// `_Pragma("sched ...")` in a macro that also expands the `for` (issue 8: the
// pragma was "not followed by a for loop" and ignored). GPU_FOR2 expands two
// pragmas (one schedule) and two nested loops: the nest is the outer one.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define GPU_FOR(v, n)                                                          \
  _Pragma("sched target(gpu) bind(i, threadIdx.x)") for (int v = 0; v < (n); ++v)
#define GPU_FOR2(a, m, b, n)                                                   \
  _Pragma("sched target(gpu) bind(r, blockIdx.x)")                             \
  _Pragma("sched bind(c, threadIdx.x)")                                        \
  for (int a = 0; a < (m); ++a)                                                \
    for (int b = 0; b < (n); ++b)

static void twice(float *y, int n) {
  GPU_FOR(i, n)
    y[i] = 2.f * y[i] + 1.f;
}

static void addRows(const float *x, float *z, int m, int n) {
  GPU_FOR2(r, m, c, n)
    z[r * n + c] = x[r * n + c] + float(r);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 20;
  std::vector<float> y(n), x(3 * n), z(3 * n, -1.f);
  for (int i = 0; i < n; ++i)
    y[i] = float(i);
  for (int i = 0; i < 3 * n; ++i)
    x[i] = float(i % 7);
  twice(y.data(), n);
  addRows(x.data(), z.data(), 3, n);
  for (float v : y)
    std::printf("%g ", v);
  for (float v : z)
    std::printf("%g ", v);
  std::printf("n=%d\n", n);
  return 0;
}
