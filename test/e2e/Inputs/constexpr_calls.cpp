// constexpr functions in loop bounds and bodies: constant arguments fold to
// their value, others are inlined (one `return` statement each).
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int tile() { return 4; }
constexpr int rows(int n) { return n * 2 - n / 2; }
constexpr float weight() { return 0.25f * 3.0f; }
template <typename T> constexpr T lerp(T a, T b, T t) { return a + t * (b - a); }
struct Layout {
  static constexpr int at(int i, int j) { return i * tile() + j; }
};
constexpr int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

static void blend(float *y, const float *x, int n) {
#pragma sched target(gpu) bind(i, blockIdx.x) bind(j, threadIdx.x)
  for (int i = 0; i < rows(n); ++i)
    for (int j = 0; j < tile(); ++j)
      y[Layout::at(i, j)] = lerp(x[i], float(j), weight()) + factorial(5);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 40;
  int m = rows(n);
  std::vector<float> x(m + 1), y(m * tile() + 1, -1.f);
  for (int i = 0; i < m; ++i)
    x[i] = 0.1f * i - 1.3f;
  blend(y.data(), x.data(), n);
  for (int i = 0; i < m * tile(); ++i)
    std::printf("%a%c", y[i], i % 4 == 3 ? '\n' : ' ');
  std::printf("done %d\n", n);
  return 0;
}
