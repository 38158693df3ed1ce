// Issue 7, case 11: a global array is filled by one thread distribution (k)
// and read by another (lo), reversed: each thread reads elements other
// threads of the block wrote, so the two need a barrier, as a shared stage
// does.
#include <cstdio>
#include <vector>

static void handoff(const float *A, float *C, float *D) {
#pragma sched target(gpu) split(l, lo, li, 16) bind(k, threadIdx.x) bind(lo, threadIdx.x)
  for (int r = 0; r < 1; ++r) {
    for (int k = 0; k < 64; ++k)
      C[k] = A[k] * 2.f;
    for (int l = 0; l < 64; ++l)
      D[l] = C[63 - l] + 1.f;
  }
}

int main() {
  std::vector<float> A(64), C(64, -1.f), D(64, -1.f);
  for (int i = 0; i < 64; ++i) A[i] = float(i % 11) - 5.f;
  handoff(A.data(), C.data(), D.data());
  double sum = 0;
  for (int i = 0; i < 64; ++i) sum += D[i] * ((i % 5) + 1);
  std::printf("checksum %.1f\n", sum);
  for (int i = 0; i < 64; i += 7) std::printf("D[%d] %.1f\n", i, D[i]);
  return 0;
}
