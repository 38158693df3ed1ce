// A three-point stencil stepped ten times between two arrays, as a solver's
// time loop is written. With -DSCOPE=1 the steps run inside a data scope
// (runtime/SchedRuntime.h): the arrays go to the device at the first step
// and come back when the scope ends, instead of at every step. The plain
// build of the same file links without sched: the scope calls do nothing.
// Arguments: the length (default 1000), the steps (default 10).
#include "SchedRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

static void step(const float *in, float *out, int n) {
#pragma sched target(gpu) split(i, bx, tx, 64) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 1; i < n - 1; ++i)
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  int steps = argc > 2 ? std::atoi(argv[2]) : 10;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i)
    a[i] = b[i] = float(i % 17) * 4.f;
  {
#if SCOPE
    sched::DataScope Scope;
    Scope.map(a.data(), n).map(b.data(), n);
#endif
    for (int t = 0; t < steps; ++t)
      t % 2 ? step(b.data(), a.data(), n) : step(a.data(), b.data(), n);
    // A step over the first three elements only: one block of 64 threads
    // for one element, the same kernel.
    step(a.data(), b.data(), 3);
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += (a[i] + 2 * b[i]) * ((i % 5) + 1);
  std::printf("n %d steps %d checksum %.4f a[1] %.4f b[%d] %.4f\n", n, steps, sum, a[1], n / 2,
              b[n / 2]);
  return 0;
}
