// Reductions over rows of x narrower than a warp (issue 23): 16 and 8 lanes
// along threadIdx.x, 8 and 16 rows along threadIdx.y (128 threads, whole
// warps, each holding several rows). Where every row of a block is there
// (64 rows, 8 per block), each row's lanes combine with shuffles that stay in
// the row (one barrier); where the last block's rows are guarded (n rows),
// a shared-memory tree (the rows of one warp would not all reach a shuffle).
// Built without the plugin it is the reference.
#include <cmath>
#include <cstdio>
#include <vector>
// Rows of 16 summed by 16 lanes each, 8 rows per block.
void rowsums16(int n, const float *A, float *y) {
#pragma sched target(gpu) split(i, ib, iy, 8) bind(ib, blockIdx.x) bind(iy, threadIdx.y) bind(j, threadIdx.x)
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int j = 0; j < 16; j++)
      s += A[i * 16 + j];
    y[i] = s;
  }
}
// Rows of m summed by 8 lanes each (each lane m/8 columns), 4 rows of 8 per warp.
void rowmax8(int n, int m, const float *A, float *y) {
#pragma sched target(gpu) split(i, ib, iy, 16) bind(ib, blockIdx.x) bind(iy, threadIdx.y) split(j, jo, ji, 8) bind(ji, threadIdx.x)
  for (int i = 0; i < n; i++) {
    float s = -1e30f;
    for (int j = 0; j < m; j++)
      s = std::fmax(s, A[i * m + j]);
    y[i] = s;
  }
}
// 64 rows of 16 (a multiple of the 8 rows of a block): no row guard, so
// each group of 16 lanes combines its row with shuffles.
void rowsums16_exact(const float *A, float *y) {
#pragma sched target(gpu) split(i, ib, iy, 8) bind(ib, blockIdx.x) bind(iy, threadIdx.y) bind(j, threadIdx.x)
  for (int i = 0; i < 64; i++) {
    float s = 0;
    for (int j = 0; j < 16; j++)
      s += A[i * 16 + j];
    y[i] = s;
  }
}
int main() {
  {
    std::vector<float> A(64 * 16), y(64);
    for (int k = 0; k < 64 * 16; ++k) A[k] = float(k % 29) - 14;
    rowsums16_exact(A.data(), y.data());
    double c = 0; for (int i = 0; i < 64; ++i) c += y[i] * (i + 1);
    std::printf("rowsums16_exact %.1f\n", c);
  }
  for (int n : {37, 8, 1}) {
    std::vector<float> A(n * 16), y(n);
    for (int k = 0; k < n * 16; ++k) A[k] = float(k % 13) - 6;
    rowsums16(n, A.data(), y.data());
    double c = 0; for (int i = 0; i < n; ++i) c += y[i] * (i + 1);
    std::printf("rowsums16 %d %.1f\n", n, c);
    for (int m : {100, 8, 3}) {
      std::vector<float> B(n * m), z(n);
      for (int k = 0; k < n * m; ++k) B[k] = float((k * 7) % 23) - 11;
      rowmax8(n, m, B.data(), z.data());
      double d = 0; for (int i = 0; i < n; ++i) d += z[i] * (i + 1);
      std::printf("rowmax8 %d %d %.1f\n", n, m, d);
    }
  }
}
