// Loops with a constant step other than +1, downward ones included, as C
// codes write them (issue 22, item 3): each is normalised to count its
// iterations, directives name it by its counter, and a counter declared
// before the nest holds its C value after it. Run with n as the argument.
#include <cstdio>
#include <cstdlib>

static float X[64], Y[64], A[16][16];

static void downToZero(int n) {
  int i;
#pragma sched target(gpu) split(i, io, ii, 4) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (i = n - 2; i >= 0; i--)
    X[i] = Y[i + 1] * 2.f + i;
  std::printf("downToZero: i=%d\n", i);
}

static void byThree(int n) {
  int i;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 1; i < n; i += 3)
    X[i] += 100.f;
  std::printf("byThree: i=%d\n", i);
}

static void downByTwoAboveZero(int n) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = n; i > 0; i = i - 2)
    X[i] -= 7.f;
}

static void unsignedDown(unsigned n) {
  unsigned u;
#pragma sched target(gpu) bind(u, threadIdx.x)
  for (u = n; u > 0; --u)
    Y[u] += 0.25f;
  std::printf("unsignedDown: u=%u\n", u);
}

// Back substitution's shape: rows bottom up, the inner loop downward too.
static void rowsBottomUp(int n) {
  int i, j;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = n - 1; i >= 0; --i)
    for (j = n - 1; j >= 0; j--)
      A[i][j] = A[i][j] * 0.5f + j;
  std::printf("rowsBottomUp: i=%d\n", i);
}

// The inner loop goes down by 2 to a constant bound; its counter is read
// after it inside the nest and after the nest.
static void innerDown(int n) {
  int i, j;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    for (j = 14; j >= 1; j -= 2)
      A[i][j] += 1.f;
    A[i][15] = j;
  }
  std::printf("innerDown: i=%d", i);
  if (n > 0)
    std::printf(" j=%d", j);
  std::printf("\n");
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 16;
  for (int k = 0; k < 64; ++k)
    Y[k] = k * 0.5f;
  downToZero(n);
  byThree(n);
  downByTwoAboveZero(n);
  unsignedDown(static_cast<unsigned>(n));
  rowsBottomUp(n < 16 ? n : 16);
  innerDown(n < 16 ? n : 16);
  double Sum = 0;
  for (int k = 0; k < 64; ++k)
    Sum += X[k] * (k + 1) + Y[k] * (k + 3);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c)
      Sum += A[r][c] * (r + 2 * c + 1);
  std::printf("sum %.2f\n", Sum);
}
