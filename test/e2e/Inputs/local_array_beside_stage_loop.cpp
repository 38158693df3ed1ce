// Fuzz seed 299, reduced: `tile` (filled on the y-threads, read by every k) is
// one array per block, so it becomes shared; the loop k, which holds a shared
// stage of C computed at k and writes B outside the threadIdx.y loop, runs on
// every thread (the stage filled by all of them together, the rest on
// y-thread 0), not spread over the threads, which would fill the one stage
// with different rows at once.
#include <cstdio>
#include <vector>

static void f(const float *A, float *B, const float *C) {
#pragma sched target(gpu) cache_read(C, shared, Cs) compute_at(Cs, k)
#pragma sched bind(i, blockIdx.x) bind(j, threadIdx.y)
  for (int i = 0; i < 3; ++i) {
    float tile[4];
    for (int j = 0; j < 4; ++j)
      tile[j] = A[4 * i + j] * 2.f;
    for (int k = 0; k < 4; ++k) {
      float s = 0.f;
      for (int l = 0; l < 4; ++l)
        s += tile[l] * C[4 * k + l];
      B[4 * i + k] = s;
    }
  }
}

int main() {
  std::vector<float> A(12), B(12, -1.f), C(16);
  for (int i = 0; i < 12; ++i)
    A[i] = float((i * 5) % 7) - 3.f;
  for (int i = 0; i < 16; ++i)
    C[i] = float((i * 3) % 5) - 2.f;
  f(A.data(), B.data(), C.data());
  for (int i = 0; i < 12; ++i)
    std::printf("B[%d] %.1f\n", i, B[i]);
  return 0;
}
