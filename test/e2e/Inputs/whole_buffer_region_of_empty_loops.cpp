// A pointer the extractor sizes by the largest index it reaches
// (2*M*i - i + 2*j: 12*M - 6 elements) and whose copy region has no known
// bound (the launcher takes the whole buffer): with M = 0 the inner loops run
// zero times and the size is negative; the kernel touches nothing of A, so
// the launch must go ahead with an empty region (fuzzer seed 1280: "buffer 'A'
// has negative size -6").
#include <cstdio>
#include <cstdlib>
#include <vector>

static void update(float *A, const float *B, int M) {
#pragma sched target(gpu) bind(i, blockIdx.x)
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < M; ++j) {
      float acc = A[2 * M * i - i + 2 * j];
      for (int k = 0; k < M; ++k)
        acc += B[k];
      A[2 * M * i - i + 2 * j] = acc;
    }
  }
}

int main(int argc, char **argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 0;
  std::vector<float> A(M > 0 ? 12 * M : 1, 1.f), B(M > 0 ? M : 1, 2.f);
  update(A.data(), B.data(), M);
  double Sum = 0;
  for (float V : A)
    Sum += V;
  std::printf("M=%d sum %g\n", M, Sum);
  return 0;
}
