// An array declared inside the block loop that the block's threads exchange
// values through: thread u reads the elements threads 15 - u and u wrote.
// In C++ `tile` is one array per iteration of b, shared by the t and u loops;
// the plugin makes it shared memory (one array per block) with a barrier
// between the fill and the reads, not a private copy per thread.
#include <cstdio>
#include <vector>

static void mirror(const float *x, float *y, int blocks) {
#pragma sched target(gpu) bind(b, blockIdx.x) bind(t, threadIdx.x) bind(u, threadIdx.x)
  for (int b = 0; b < blocks; ++b) {
    float tile[16];
    for (int t = 0; t < 16; ++t)
      tile[t] = x[b * 16 + t] * 2.f;
    for (int u = 0; u < 16; ++u)
      y[b * 16 + u] = tile[15 - u] - tile[u];
  }
}

int main() {
  const int blocks = 5;
  std::vector<float> x(blocks * 16), y(blocks * 16, -1.f);
  for (int i = 0; i < blocks * 16; ++i)
    x[i] = float((i * 7) % 23) - 11.f;
  mirror(x.data(), y.data(), blocks);
  double sum = 0;
  for (int i = 0; i < blocks * 16; ++i)
    sum += y[i] * ((i % 5) + 1);
  std::printf("checksum %.1f\n", sum);
  for (int i = 0; i < blocks * 16; i += 7)
    std::printf("y[%d] %.1f\n", i, y[i]);
  return 0;
}
