// An n x n nest bound straight to a 2-D thread block (issue 17, item 5): the
// block has n * n threads, which fits CUDA's 1024 for n <= 32 only, and one
// block (no grid dimension). Integer data, so every backend must print
// exactly what the plain build prints.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void mix(int *A, int n) {
#pragma sched target(gpu) bind(i, threadIdx.y) bind(j, threadIdx.x)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      A[i * n + j] = A[i * n + j] * 3 + i - 2 * j;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 33;
  std::vector<int> A(n * n);
  for (int k = 0; k < n * n; ++k)
    A[k] = k % 17 - 8;
  mix(A.data(), n);
  long long Sum = 0;
  for (int k = 0; k < n * n; ++k)
    Sum += (long long)A[k] * (k % 5 + 1);
  std::printf("n=%d sum %lld first %d last %d\n", n, Sum, n ? A[0] : 0, n ? A[n * n - 1] : 0);
  return 0;
}
