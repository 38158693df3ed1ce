// One nest launched three times with different arguments: a backend error is
// reported once per nest, and each launch still computes its result (the
// original loop where the backend cannot run). Float data with exact values.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void axpy(int n, float a, const float *x, float *y) {
#pragma sched target(gpu) split(i, bx, tx, 64) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 300;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 9) * 0.25f;
    y[i] = float(i % 4) - 1.f;
  }
  for (int r = 1; r <= 3; ++r)
    axpy(n - r, float(r), x.data(), y.data());
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += y[i] * ((i % 3) + 1);
  std::printf("n=%d checksum %.4f y[0] %.4f y[%d] %.4f\n", n, sum, y[0], n - 1, y[n - 1]);
  return 0;
}
