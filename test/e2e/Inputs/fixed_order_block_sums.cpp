// Floating-point sums across blocks without atomic(C) (issue 23): each
// block writes its partial to a scratch buffer the launcher allocates and
// takes a ticket; the last block of each group adds the partials up in
// block order, so the result has the same bits on every run.
#include <cstdio>
#include <vector>
float dot(int n, const float *x, const float *y) {
  float s = 0;
#pragma sched target(gpu) split(k, kb, ki, 128) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    s += x[k] * y[k];
  return s;
}
// Row sums of an m x n matrix: rows on blockIdx.y, each row's columns over
// blocks of 64 threads along x (one group of blocks per row).
void row_sums(int m, int n, const double *A, double *r) {
#pragma sched target(gpu) split(j, jb, ji, 64) bind(i, blockIdx.y) bind(jb, blockIdx.x) bind(ji, threadIdx.x)
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      r[i] += A[i * n + j];
}
// One thread per block.
float sum1(int n, const float *x) {
  float s = 1;
#pragma sched target(gpu) bind(k, blockIdx.x)
  for (int k = 0; k < n; k++)
    s += x[k];
  return s;
}
// The rows left serial in every block: each row its own group (its
// partials and its counter), so a block that runs ahead into the next row
// takes a ticket of another counter.
void row_sums_serial(int m, int n, const float *A, float *r) {
#pragma sched target(gpu) split(j, jb, ji, 32) bind(jb, blockIdx.x) bind(ji, threadIdx.x)
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      r[i] += A[i * n + j];
}
// Two reduction loops into s, one after the other, each over the blocks:
// two sets of scratch (s.tickets, s.blocks and s.tickets.2, s.blocks.2).
float twice(int n, const float *x) {
  float s = 0.5f;
#pragma sched target(gpu) bind(k, blockIdx.x) bind(k2, blockIdx.x)
  for (int r = 0; r < 1; r++) {
    for (int k = 0; k < n; k++)
      s += x[k];
    for (int k2 = 0; k2 < n; k2++)
      s += 2 * x[k2];
  }
  return s;
}
int main(int argc, char **) {
  if (argc > 1) {
    // General data: the sum's bits depend on the order of its additions,
    // which is fixed, so every run and every backend that runs the kernel
    // prints the same bits (not those of the sequential loop).
    int n = 100000;
    std::vector<float> x(n), y(n);
    for (int k = 0; k < n; ++k) { x[k] = 1.0f / float(k + 1); y[k] = float((k * 7919) % 1013) / 3.0f; }
    std::printf("general dot %a\n", dot(n, x.data(), y.data()));
    return 0;
  }
  for (int n : {100000, 1000, 129, 1, 0}) {
    std::vector<float> x(n), y(n);
    for (int k = 0; k < n; ++k) { x[k] = float(k % 7 - 3); y[k] = float(k % 5 - 2); }
    std::printf("%d: dot %.1f sum1 %.1f twice %.1f\n", n, dot(n, x.data(), y.data()),
                sum1(n, x.data()), twice(n, x.data()));
    int m = 3;
    std::vector<double> A(size_t(m) * n), r(m, 0.5);
    for (size_t e = 0; e < A.size(); ++e) A[e] = double(e % 11) - 5;
    row_sums(m, n, A.data(), r.data());
    std::printf("rows %.1f %.1f %.1f\n", r[0], r[1], r[2]);
    std::vector<float> Af(A.begin(), A.end()), rf(m, 0.25f);
    row_sums_serial(m, n, Af.data(), rf.data());
    std::printf("serial rows %.2f %.2f %.2f\n", rf[0], rf[1], rf[2]);
  }
}
