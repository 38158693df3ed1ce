// A float dot product on general data (not small integers), by 128 threads
// of one block: each thread sums its own 1/128 of the terms, then the block
// combines the 128 partials through warp shuffles and shared memory. The
// additions happen in another order than the sequential loop's, so the two
// roundings differ. Each stays within the classical bound of a sum whose
// terms pass through at most m rounded additions, |s - exact| <= gamma(m) *
// sum |x_k w_k|, gamma(m) = m u / (1 - m u), u = 2^-24: m = n for the
// sequential loop, but only ceil(n / 128) + 5 + 4 for the block's order (a
// thread's own terms, five shuffle steps, the four warps' totals), a bound
// 100 times tighter here that a lost or doubled partial would break. The
// program prints both values, whether they differ, and the two bounds.
#include <cmath>
#include <cstdio>
#include <vector>

float dot(int n, const float *x, const float *w) {
  float s = 0.f;
#pragma sched target(gpu) split(k, ko, ki, 128) bind(ki, threadIdx.x)
  for (int k = 0; k < n; ++k)
    s += x[k] * w[k];
  return s;
}

// The sequential order, never scheduled.
float dot_sequential(int n, const float *x, const float *w) {
  float s = 0.f;
  for (int k = 0; k < n; ++k)
    s += x[k] * w[k];
  return s;
}

int main() {
  const int n = 5000;
  std::vector<float> x(n), w(n);
  for (int k = 0; k < n; ++k) {
    x[k] = std::sin(0.37f * k) * 1000.f + 1.f / (k + 3);
    w[k] = std::cos(0.11f * k) + 0.001f * k;
  }
  float s = dot(n, x.data(), w.data());
  float seq = dot_sequential(n, x.data(), w.data());
  double magnitude = 0, exact = 0;
  for (int k = 0; k < n; ++k) {
    magnitude += std::fabs(double(x[k]) * w[k]);
    exact += double(x[k]) * w[k]; // exact: 48-bit products, sums far from 2^53
  }
  auto bound = [&](int m) {
    double u = std::ldexp(1.0, -24);
    return m * u / (1 - m * u) * magnitude;
  };
  int blocked = (n + 127) / 128 + 5 + 4;
  double err = std::fabs(s - exact), seq_err = std::fabs(seq - exact);
  bool ok = err <= bound(blocked) && seq_err <= bound(n);
  std::printf("sequential %.9g (error %.3g, bound for %d additions %.3g)\n", seq, seq_err, n,
              bound(n));
  std::printf("scheduled  %.9g (error %.3g, bound for %d additions %.3g)\n", s, err, blocked,
              bound(blocked));
  std::printf("differ: %s\n%s\n", s == seq ? "no" : "yes",
              ok ? "within the bounds" : "BEYOND A BOUND");
  return ok ? 0 : 1;
}
