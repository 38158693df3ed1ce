// Issue 17, item 2: the guard `ii < 9` of the computation (i, 9 iterations,
// split by 12 over threadIdx.x) used to enclose the cooperative fetch of Bs
// too, which is spread over all 12 threads: the elements threads 9..11
// fetch were never written, and the computation read uninitialized shared
// memory (checksum 157835 instead of 0 under sim). B is all zeros, so C must
// be too. A test input.
#include <cstdio>
static int B[20][11];
static void kernel(float *C, int n0, int n1) {
#pragma sched target(gpu)
#pragma sched reorder(j, i, k, m, l) split(i, io, ii, 12) bind(j, blockIdx.y)
#pragma sched bind(ii, threadIdx.x) bind(io, vthread)
#pragma sched cache_read(B, shared, Bs) compute_at(Bs, k) fuse(Bs.ax0, Bs.ax1, Bs.f1) split(Bs.f1, Bs.o, Bs.t, 12) bind(Bs.t, threadIdx.x)
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < n0; ++j)
      for (int k = 0; k < n1; ++k)
        for (int l = 0; l < 12; ++l) {
          float acc0 = B[k + i][i];
          for (int m = 0; m < 8; ++m)
            acc0 -= (((j % 3) == 2) ? (B[k + i + 2][i] + B[k + i + 2][i]) : B[k + i][i + 2]);
          C[((i * n0 + j) * n1 + k) * 12 + l] = acc0;
        }
}
int main() {
  static float C[9 * 10 * 10 * 12];
  kernel(C, 10, 10);
  double s = 0;
  for (float v : C)
    s += v;
  printf("%f\n", s);
}
