// A producer and its consumer under the tile guard of a split that does not
// divide (`if (io*8 + ii < n)`, ii bound to threadIdx.y): the row of A one
// thread writes is read by other threads (k bound to threadIdx.x), which
// needs a barrier between them. The guard depends on the thread, so it is
// sunk into each statement and the barrier goes between (fuzzer seed 483).
#include <cstdio>
#include <cstdlib>
#include <vector>

static void rows(int *A, const int *C, int *D, int n) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x)
#pragma sched bind(ii, threadIdx.y) bind(k, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 12; ++j)
      A[12 * i + j] = C[12 * i + j] + j;
    for (int k = 0; k < 12; ++k)
      D[12 * i + k] = A[12 * i + 11 - k] * 2;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 11;
  std::vector<int> A(12 * n + 1, -1), C(12 * n + 1), D(12 * n + 1, -1);
  for (size_t I = 0; I < C.size(); ++I)
    C[I] = int(I * 7 % 13) - 6;
  rows(A.data(), C.data(), D.data(), n);
  long Sum = 0;
  for (size_t I = 0; I < D.size(); ++I)
    Sum += long(D[I]) * long(I % 5 + 1) + A[I];
  std::printf("n=%d checksum %ld\n", n, Sum);
  return 0;
}
