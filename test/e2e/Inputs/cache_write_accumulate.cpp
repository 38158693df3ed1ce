// Issue 7 case 2: an output updated with no init in the nest (C[i] += ...),
// its updates staged in a local cache_write computed at the thread loop. The
// stage must start from C's values: the nest reads C[i] before writing it.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void rowsum(const float *A, float *C, int n, int k) {
#pragma sched target(gpu) split(i, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
#pragma sched cache_write(C, local, Cl) compute_at(Cl, tx)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < k; ++j)
      C[i] += A[i * k + j];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 70;
  int k = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<float> A(n * k + 1), C(n); // + 1: never a null A, even for k = 0
  for (int i = 0; i < n * k; ++i)
    A[i] = float(i % 11) - 5.f;
  for (int i = 0; i < n; ++i)
    C[i] = float(i % 9) + 100.f;
  rowsum(A.data(), C.data(), n, k);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += C[i] * double((i % 5) + 1);
  std::printf("rowsum n=%d k=%d\n", n, k);
  std::printf("checksum %.6f\n", sum);
  for (int i = 0; i < n; i += 7)
    std::printf("C[%d] %.6f\n", i, C[i]);
  return 0;
}
