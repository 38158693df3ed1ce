// Loop counters declared before the nest (C89 style), read after it: after
// the replaced statement each holds what the original loop leaves (issue 17,
// item 1). Run with n as the first argument (0: loops that run zero times).
#include <cstdio>
#include <cstdlib>

static double A[10][10];
static float Y[12];

// The issue's example: counters not initialised; i = n, j = n after it (j
// only when the outer loop ran: otherwise it stays indeterminate, so it is
// printed only then).
static void issueExample(int n) {
  int i, j;
#pragma sched target(gpu) split(i, io, ii, 4) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = A[i][j] * 2.0 + 1.0;
  std::printf("issueExample: i=%d", i);
  if (n > 0)
    std::printf(" j=%d", j);
  std::printf("\n");
}

// Initialised counters, the nest inside a loop of the program, an inclusive
// bound that starts at 1: i = n + 1 (or 1), j keeps -7 when i ran zero times.
static void insideALoop(int n) {
  int i = -7, j = -7;
  for (int t = 0; t < 2; ++t) {
#pragma sched target(gpu) bind(i, threadIdx.x)
    for (i = 1; i <= n; ++i)
      for (j = 2; j < n + 3; j += 1)
        A[i - 1][j - 2] += t + 1;
    std::printf("insideALoop t=%d: i=%d j=%d\n", t, i, j);
  }
}

// Unsigned and 64-bit counters, the bound on the left (`m >= u`).
static void unsignedCounters(unsigned m) {
  unsigned u = 99;
  long k = 99;
#pragma sched target(gpu) bind(u, threadIdx.x)
  for (u = 2; m >= u; u++)
    for (k = -3; k < 2; k = k + 1)
      Y[u] += static_cast<float>(k);
  std::printf("unsignedCounters: u=%u k=%ld\n", u, k);
}

// Inside the nest, a counter read after its loop holds its final value;
// a second loop over the same counter (siblings) leaves its own.
static void readAfterItsLoop(int n) {
  int i, j;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      A[i][j] += 1.0;
    A[i][0] += j;
    for (j = 1; j < 4; j++)
      A[i][j] += 0.5;
  }
  std::printf("readAfterItsLoop: i=%d", i);
  if (n > 0)
    std::printf(" j=%d", j);
  std::printf("\n");
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 10;
  issueExample(n);
  insideALoop(n < 8 ? n : 8);
  unsignedCounters(n + 1 < 12 ? n + 1 : 11);
  readAfterItsLoop(n);
  double Sum = 0;
  for (int r = 0; r < 10; ++r)
    for (int c = 0; c < 10; ++c)
      Sum += A[r][c] * (r + 2 * c + 1);
  for (float V : Y)
    Sum += V;
  std::printf("sum %.1f\n", Sum);
}
