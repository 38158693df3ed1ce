// Loop variables with non-ASCII names, named by the schedule as written.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void rowSums(int n, const float *x, float *y) {
#pragma sched split(α, αo, αi, 4) bind(αo, blockIdx.x) bind(αi, threadIdx.x)
  for (int α = 0; α < n; ++α) {
    float σ = 0.f;
    for (int β = 0; β < 3; ++β)
      σ += x[α * 3 + β] * float(β + 1);
    y[α] = σ;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 37;
  std::vector<float> x(3 * n + 1), y(n + 1, -1.f);
  for (int i = 0; i < 3 * n; ++i)
    x[i] = float(i % 7);
  rowSums(n, x.data(), y.data());
  std::printf("n = %d\n", n);
  for (int i = 0; i < n; ++i)
    std::printf("%g\n", y[i]);
  return 0;
}
