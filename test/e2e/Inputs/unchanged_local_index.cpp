// `int p = i - 1; y[i] = x[p] + x[i];`: a local computed in the body and used
// as an index (issue 8: it fell back with "indirect index 'p'").
#include <cstdio>
#include <cstdlib>
#include <vector>

static void prev(const float *x, float *y, int n) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 1; i < n; ++i) {
    int p = i - 1;
    y[i] = x[p] + x[i];
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 20;
  std::vector<float> x(n), y(n, -1.f);
  for (int i = 0; i < n; ++i)
    x[i] = float(i * 3);
  prev(x.data(), y.data(), n);
  for (float v : y)
    std::printf("%g ", v);
  std::printf("n=%d\n", n);
  return 0;
}
