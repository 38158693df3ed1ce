// A select inside a product, issue 17's example: A[i] = 2 * |B[i]| - 1
// written with ?:. C reads `2.f * c ? x : y` as `(2.f * c) ? x : y`, so the
// CUDA emitter must keep the select's own parentheses. (The product sits in a
// difference: a stored product alone is printed as __fmul_rn(2.0f, ...),
// whose arguments need no parentheses.)
#include <cstdio>
#include <cstdlib>
#include <vector>

static void twiceAbs(float *A, const float *B, int n) {
#pragma sched target(gpu) split(i, io, ii, 32) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    A[i] = 2.f * (B[i] > 0.f ? B[i] : -B[i]) - 1.f;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100;
  std::vector<float> A(n), B(n);
  for (int i = 0; i < n; ++i)
    B[i] = float(i % 7) - 3.25f;
  twiceAbs(A.data(), B.data(), n);
  for (int i = 0; i < n; ++i)
    std::printf("%d %a\n", i, A[i]);
  return 0;
}
