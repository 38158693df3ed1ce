// n = 0 with std::vectors of n elements: data() is null. The kernel's grid
// does not depend on n (four rows, one thread each), so it is launched, and
// touches none of the empty buffers: a null pointer with an empty region is
// fine (issue 8: "null argument for parameter 'x'").
#include <cstdio>
#include <cstdlib>
#include <vector>

static void rowsum(const float *x, float *y, float *z, int n) {
#pragma sched target(gpu) bind(r, threadIdx.x)
  for (int r = 0; r < 4; ++r) {
    float acc = 0.f;
    for (int k = 0; k < n; ++k) {
      acc += x[r * n + k];
      z[r * n + k] = float(r + k);
    }
    y[r] = acc;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 10;
  std::vector<float> x(4 * n), y(4, -1.f), z(4 * n);
  for (int i = 0; i < 4 * n; ++i)
    x[i] = float(i);
  rowsum(x.data(), y.data(), z.data(), n);
  for (float v : y)
    std::printf("%g ", v);
  for (float v : z)
    std::printf("%g ", v);
  std::printf("n=%d\n", n);
  return 0;
}
