// A guard that reads memory (issue 7, case 12): the launcher's copy region
// of A must not depend on A[0], which lives in memory the host cannot read
// through the kernel's parameters. Integer data: sim equals host exactly.
#include <cstdio>
#include <cstdlib>

void addIfPositive(const int *A, int *C, int n) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < n; ++i)
    if (A[0] > 0)
      C[i] += A[1];
}

int main(int argc, char **argv) {
  int A[2] = {argc > 1 ? atoi(argv[1]) : 1, 5};
  int C[16];
  for (int i = 0; i < 16; ++i)
    C[i] = i * 3 - 7;
  addIfPositive(A, C, 16);
  for (int i = 0; i < 16; ++i)
    std::printf("%d ", C[i]);
  std::printf("\n");
  return 0;
}
