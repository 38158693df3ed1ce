// Parameters that are references to arrays (`float (&v)[64]`): the launcher
// passes the array's address, which is the address of its first element, not
// the address of a pointer (issue 8: the runtime read the array's contents as
// a pointer, SIGSEGV). `n` elements of 64 are updated.
#include <cstdio>
#include <cstdlib>

static void scale(float (&v)[64], const float (&w)[64], int n) {
#pragma sched target(gpu) split(i, io, ii, 16) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    v[i] = 2.f * w[i] + v[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 64;
  float v[64], w[64];
  for (int i = 0; i < 64; ++i) {
    v[i] = -1.f;
    w[i] = float(i);
  }
  scale(v, w, n);
  for (float x : v)
    std::printf("%g ", x);
  std::printf("n=%d\n", n);
  return 0;
}
