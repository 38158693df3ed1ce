// Issue 7, case 5: `D[i] += 1` sits beside the threadIdx.x loop `j`, outside
// every thread loop, in a block of 2 threads. Run under the simulator it must
// either add 1 once per row (what the plain build prints) or be reported as a
// race on D; applying it once per thread, silently, is the bug. A test input.
#include <cstdio>

static void beside(float *C, const float *A, float *D) {
#pragma sched target(gpu)
#pragma sched bind(i, blockIdx.x) bind(j, threadIdx.x)
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 2; ++j)
      C[i * 2 + j] = A[i * 2 + j] * 2;
    D[i] += 1;
  }
}

int main() {
  float A[8], C[8], D[4];
  for (int i = 0; i < 8; ++i) {
    A[i] = float(i);
    C[i] = 0;
  }
  for (int i = 0; i < 4; ++i)
    D[i] = float(10 * i);
  beside(C, A, D);
  for (int i = 0; i < 8; ++i)
    std::printf("C[%d] %g\n", i, C[i]);
  for (int i = 0; i < 4; ++i)
    std::printf("D[%d] %g\n", i, D[i]);
  return 0;
}
