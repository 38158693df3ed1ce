// reorder(ko, i) moves the reduction outside the spatial loop i, so `acc`
// becomes an array over i, initialized by one copy of i (i_1) and stored by
// another (i_2), both bound to threadIdx.x, and updated by the serial
// reduction in between: the reduction reads and writes elements other threads
// initialized and reads back. One array for the block, so the plugin makes it
// shared: the reduction runs once (on thread 0), between two barriers.
#include <cstdio>
#include <vector>

static void rowdot(float *A, const float *B, const float *C) {
#pragma sched target(gpu) reorder(j, i) split(k, ko, ki, nparts=4)
#pragma sched reorder(ko, i) split(j, jo, ji, 2) bind(i_2, threadIdx.x)
#pragma sched bind(i_1, threadIdx.x) unroll(jo)
  for (int i = 0; i < 2; ++i) {
    float acc = 0.f;
    for (int j = 0; j < 4; ++j) {
      for (int k = 0; k < 4; ++k) {
        acc += (B[4 * i + j] * C[16 * i + 4 * j + k]);
      }
    }
    A[i] = acc;
  }
}

int main() {
  std::vector<float> A(2, -1.f), B(8), C(32);
  for (int i = 0; i < 8; ++i)
    B[i] = float((i * 5) % 9) - 4.f;
  for (int i = 0; i < 32; ++i)
    C[i] = float((i * 3) % 7) - 3.f;
  rowdot(A.data(), B.data(), C.data());
  std::printf("A[0] %.1f\nA[1] %.1f\n", A[0], A[1]);
  return 0;
}
