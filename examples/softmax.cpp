// A row-wise softmax, y[i][j] = exp(x[i][j] - max_j x[i]) / sum_j exp(...):
// one block per row, 128 threads across the columns. The row's max and its
// sum of exponentials are reductions bound to threads (issue 23): each
// thread reduces its columns, the block combines the partials (warp
// shuffles, then the warps' totals), and every thread uses the totals.
// docs/tutorials/reductions.md builds this schedule step by step.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static void softmax(int n, int m, const float *x, float *y) {
#pragma sched target(gpu) bind(i, blockIdx.x) \
    split(j, jo, ji, 128) bind(ji, threadIdx.x) \
    split(j_1, jo_1, ji_1, 128) bind(ji_1, threadIdx.x) \
    split(j_2, jo_2, ji_2, 128) bind(ji_2, threadIdx.x)
  for (int i = 0; i < n; i++) {
    float mx = -INFINITY;
    for (int j = 0; j < m; j++)
      mx = std::fmax(mx, x[i * m + j]);
    float sum = 0;
    for (int j = 0; j < m; j++)
      sum += std::exp(x[i * m + j] - mx);
    for (int j = 0; j < m; j++)
      y[i * m + j] = std::exp(x[i * m + j] - mx) / sum;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 37;
  int m = argc > 2 ? std::atoi(argv[2]) : 1000;
  std::vector<float> x(size_t(n) * m), y(size_t(n) * m);
  // Quarters of small integers: every partial sum of exponentials differs
  // from the plain loop's by rounding only, and the printed digits do not.
  for (size_t k = 0; k < x.size(); ++k)
    x[k] = float(int(k * 37 % 23) - 11) / 4;
  softmax(n, m, x.data(), y.data());
  double rows = 0, weighted = 0;
  for (size_t k = 0; k < y.size(); ++k) {
    rows += y[k];
    weighted += y[k] * double(k % 7 + 1);
  }
  std::printf("softmax n=%d m=%d\n", n, m);
  std::printf("sum of rows %.4f (n)\n", rows);
  std::printf("checksum %.4f\n", weighted);
  return 0;
}
