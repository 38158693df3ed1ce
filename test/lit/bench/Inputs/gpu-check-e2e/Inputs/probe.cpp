// The program of gpu-check's harness test: a scheduled loop whose output
// the plugin build can be made to skew (SKEW, added to every number) or to
// crash (CRASH), so the harness's match / close / MISMATCH / fail are each
// seen; plain, SKEW and CRASH are 0. The last word is a NaN of sign NANSIGN
// (-1: `-nan`, as x86 makes it; 1: `nan`, as a GPU makes it). Argument: the
// length (default 100).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifndef SKEW
#define SKEW 0
#endif
#ifndef NANSIGN
#define NANSIGN -1
#endif

static void scale(int n, const float *x, float *y) {
#pragma sched target(gpu) split(i, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = 3.f * x[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i)
    x[i] = float(i % 7);
  scale(n, x.data(), y.data());
#ifdef CRASH
  std::abort();
#endif
  double sum = 0;
  for (float v : y)
    sum += v;
  std::printf("n %d sum %.6f %f\n", n, sum + SKEW, std::copysign(NAN, NANSIGN));
  return 0;
}
