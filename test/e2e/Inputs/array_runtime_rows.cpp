// A global array declared flat (int A[400]) with rows of a run-time length C
// and N <= C columns written per row: A[r*C + c]. Rows to blocks, columns to
// threads. The extractor makes A [R, C] under the assumptions N <= C and
// R*C <= 400, checked at each launch (arguments: R C N). Integer data.
#include <cstdio>
#include <cstdlib>

int A[400], B[400];

void fill(int R, int C, int N) {
#pragma sched target(gpu) bind(r, blockIdx.x) bind(c, threadIdx.x)
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < N; ++c)
      A[r * C + c] = B[r * C + c] * 2 + r;
}

int main(int argc, char **argv) {
  int R = argc > 3 ? std::atoi(argv[1]) : 20;
  int C = argc > 3 ? std::atoi(argv[2]) : 20;
  int N = argc > 3 ? std::atoi(argv[3]) : 17;
  for (int i = 0; i < 400; ++i) {
    A[i] = -1;
    B[i] = i % 9;
  }
  fill(R, C, N);
  for (int i = 0; i < 400; ++i)
    std::printf("%d%c", A[i], i % 20 == 19 ? '\n' : ' ');
  return 0;
}
