// A loop of one iteration beside a thread loop, holding updates that do not
// use it: it runs once, on one thread, rather than spread over the threads
// under a guard `f < 1` that only thread 0 passes (which lowering could not
// tell from divergence, and fell back; fuzzer seed 3248).
#include <cstdio>
#include <cstdlib>
#include <vector>

static void rows(float *A, const float *B, float *X, const float *Y, int n) {
#pragma sched target(gpu) split(j, jo, ji, 2) bind(ji, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 6; ++j)
      A[6 * i + j] = B[6 * i + j] * 2.f;
    for (int k = 0; k < 1; ++k)
      X[i] += Y[i] + 1.f;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 5;
  std::vector<float> A(6 * n + 1, -1.f), B(6 * n + 1), X(n + 1, 0.5f), Y(n + 1);
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = float(I % 7) - 3.f;
  for (size_t I = 0; I < Y.size(); ++I)
    Y[I] = float(I % 5);
  rows(A.data(), B.data(), X.data(), Y.data(), n);
  double Sum = 0;
  for (size_t I = 0; I < A.size(); ++I)
    Sum += A[I] * double(I % 3 + 1);
  for (size_t I = 0; I < X.size(); ++I)
    Sum += X[I] * double(I + 7);
  std::printf("n=%d checksum %.2f\n", n, Sum);
  return 0;
}
