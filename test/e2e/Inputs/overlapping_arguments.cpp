// A scheduled element-wise nest called with its input and output in one
// array, the output one element further (argument: the length, default 40):
// the loop chains through memory (y[i] is x[i + 1]), which the kernel, whose
// parameters are __restrict__, must not be run on.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void shift(const float *x, float *y, int n) {
#pragma sched target(gpu) split(i, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * 2.f + 1.f;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 40;
  std::vector<float> a(n + 1);
  for (int i = 0; i <= n; ++i)
    a[i] = float(i % 5);
  shift(a.data(), a.data() + 1, n);
  double sum = 0;
  for (int i = 0; i <= n; ++i)
    sum += a[i] * (i % 7 + 1);
  std::printf("n %d sum %.1f\n", n, sum);
  return 0;
}
