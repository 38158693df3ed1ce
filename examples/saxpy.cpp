// saxpy, y = a*x + y, split by a factor that does not divide the length: the
// last block's threads past n must be guarded off, never touching memory.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void saxpy(int n, float a, const float *x, float *y) {
#pragma sched target(gpu) split(i, bx, tx, 128) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 13) * 0.5f;
    y[i] = float(i % 5) - 2.f;
  }
  saxpy(n, 1.5f, x.data(), y.data());
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += y[i] * ((i % 3) + 1);
  std::printf("saxpy n=%d\n", n);
  std::printf("checksum %.6f\n", sum);
  std::printf("y[0] %.6f y[%d] %.6f\n", y[0], n - 1, y[n - 1]);
  return 0;
}
