// Reductions across blocks (issue 23): a reduction loop's outer part bound
// to blockIdx.x with atomic(C), its inner part to threadIdx.x. Each block
// combines its threads' partials, then adds its total into the result with
// one atomic update (a floating-point max by a compare-and-swap loop, a
// 64-bit integer sum by atomicAdd). Max and integer sums are exact in any
// order, so every backend prints what the plain build prints; they need no
// atomic(C) (only a floating-point sum does, whose rounding would vary), which
// the *_exact versions leave out.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>
float array_max(int n, const float *x) {
  float mx = -INFINITY;
#pragma sched target(gpu) split(k, kb, kr, 256) split(kr, ko, ki, 64) atomic(mx) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    mx = std::fmax(mx, x[k]);
  return mx;
}
// The same without atomic(mx): a max is exact in any order.
float array_max_exact(int n, const float *x) {
  float mx = -INFINITY;
#pragma sched target(gpu) split(k, kb, kr, 256) split(kr, ko, ki, 64) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    mx = std::fmax(mx, x[k]);
  return mx;
}
// A 32-bit sum over blocks alone (one thread each), without atomic(s).
int int_sum_exact(int n, const int *v) {
  int s = 0;
#pragma sched target(gpu) bind(k, blockIdx.x)
  for (int k = 0; k < n; k++)
    s += v[k];
  return s;
}
long long int_sum(int n, const int *v) {
  long long s = 0;
#pragma sched target(gpu) split(k, kb, ki, 128) atomic(s) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    s += v[k];
  return s;
}
// Unsigned xor and int min of a whole array across blocks of 64 threads.
void bit_stats(int n, const unsigned *A, unsigned *x, int *lo) {
#pragma sched target(gpu) split(k, kb, ki, 64) atomic(x) atomic(lo) bind(kb, blockIdx.x) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++) {
    x[0] ^= A[k];
    lo[0] = std::min(lo[0], int(A[k] % 1000) - 500);
  }
}

int main() {
  for (int n : {100000, 256, 1000, 1, 0}) {
    std::vector<float> x(n); std::vector<int> v(n);
    for (int k = 0; k < n; ++k) { x[k] = float((k * 7919) % 100003) / 7 - 5000; v[k] = (k * 37) % 1001 - 500; }
    std::printf("%d: %.4f %lld\n", n, array_max(n, x.data()), int_sum(n, v.data()));
    std::printf("exact %d: %.4f %d\n", n, array_max_exact(n, x.data()), int_sum_exact(n, v.data()));
    std::vector<unsigned> A(n);
    for (int k = 0; k < n; ++k)
      A[k] = unsigned(k * 2654435761u);
    unsigned xs = 5u;
    int lo = 1000;
    bit_stats(n, A.data(), &xs, &lo);
    std::printf("bit_stats %d: %u %d\n", n, xs, lo);
  }
}
