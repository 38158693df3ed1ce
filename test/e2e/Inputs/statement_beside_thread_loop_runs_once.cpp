// Issue 7, case 5: a statement beside a threadIdx loop (outside every thread
// loop) runs once per block, not once per thread: D[i] += 1 is applied once,
// and both threads read its result.
#include <cstdio>
#include <vector>

static void beside(const float *A, float *C, float *D, int n) {
#pragma sched target(gpu) bind(i, blockIdx.x) bind(t, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    D[i] = D[i] + 1.f;
    for (int t = 0; t < 2; ++t)
      C[i * 2 + t] = A[i * 2 + t] * D[i];
  }
}

int main() {
  const int n = 5;
  std::vector<float> A(2 * n), C(2 * n, 0.f), D(n);
  for (int i = 0; i < 2 * n; ++i) A[i] = float(i % 7) - 3.f;
  for (int i = 0; i < n; ++i) D[i] = float(i);
  beside(A.data(), C.data(), D.data(), n);
  for (int i = 0; i < n; ++i) std::printf("D[%d] %.1f\n", i, D[i]);
  for (int i = 0; i < 2 * n; ++i) std::printf("C[%d] %.1f\n", i, C[i]);
  return 0;
}
