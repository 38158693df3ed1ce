// Four rows per block, one after the other, each summed across the block's
// 128 threads: the warps' totals of one row sit in the same shared array the
// next row's warps write, so a barrier must separate the last reads of one
// row from the first writes of the next (InjectThreadSync puts it at the end
// of the row loop; the simulator's race detector checks it).
#include <cstdio>
#include <vector>
void rowsums(int n, int m, const float *A, float *y) {
#pragma sched target(gpu) split(i, ib, ir, 4) bind(ib, blockIdx.x) split(j, jo, ji, 128) bind(ji, threadIdx.x)
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int j = 0; j < m; j++)
      s += A[i * m + j];
    y[i] = s * 2;
  }
}
int main() {
  for (int n : {13, 4, 1}) for (int m : {1000, 128, 5}) {
    std::vector<float> A(n * m), y(n);
    for (int k = 0; k < n * m; ++k) A[k] = float(k % 17) - 8;
    rowsums(n, m, A.data(), y.data());
    double c = 0; for (int i = 0; i < n; ++i) c += y[i] * (i + 1);
    std::printf("%d %d %.1f\n", n, m, c);
  }
}
