// An array declared inside a loop bound to threadIdx.y and exchanged along x:
// each row i (a y-thread) fills `tile` (j on the x-threads) and every x-thread
// k reads all of it. One array per iteration of i, so the plugin gives each
// y-thread its own slice of a shared array, tile[i][..], with a barrier
// between the fill and the reads.
#include <cstdio>
#include <vector>

static void rows(const float *A, const float *C, float *B) {
#pragma sched target(gpu) bind(i, threadIdx.y) bind(j, threadIdx.x) bind(k, threadIdx.x)
  for (int i = 0; i < 4; ++i) {
    float tile[8];
    for (int j = 0; j < 8; ++j)
      tile[j] = A[8 * i + j] * 2.f;
    for (int k = 0; k < 8; ++k) {
      float s = 0.f;
      for (int l = 0; l < 8; ++l)
        s += tile[l] * C[8 * k + l];
      B[8 * i + k] = s;
    }
  }
}

int main() {
  std::vector<float> A(32), C(64), B(32, -1.f);
  for (int i = 0; i < 32; ++i)
    A[i] = float((i * 5) % 13) - 6.f;
  for (int i = 0; i < 64; ++i)
    C[i] = float((i * 3) % 7) - 3.f;
  rows(A.data(), C.data(), B.data());
  double sum = 0;
  for (int i = 0; i < 32; ++i)
    sum += B[i] * ((i % 5) + 1);
  std::printf("checksum %.1f\n", sum);
  for (int i = 0; i < 32; i += 3)
    std::printf("B[%d] %.1f\n", i, B[i]);
  return 0;
}
