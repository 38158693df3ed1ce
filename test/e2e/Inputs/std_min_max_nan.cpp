// std::min and std::max on floating point are `b < a ? b : a` and
// `a < b ? b : a`: with a NaN operand or signed zeros they return what that
// comparison picks, which fmin/fmax do not (fmin(NaN, 1) is 1, std::min(NaN,
// 1.f) is NaN). The nest computes exactly what the plain build computes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static void clampBoth(const float *x, const double *y, float *lo, float *hi, double *dlo, double *dhi,
                      int n) {
#pragma sched target(gpu) split(i, io, ii, 4) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    lo[i] = std::min(x[i], 1.f) + std::min(-0.f, x[i]);
    hi[i] = std::max(x[i], -1.f) - std::max(x[i], 0.f);
    dlo[i] = std::min(1.0, y[i]);
    dhi[i] = std::max(y[i], -2.0);
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 12;
  std::vector<float> x(n), lo(n), hi(n);
  std::vector<double> y(n), dlo(n), dhi(n);
  const float special[] = {NAN, 0.f, -0.f, 2.f, -3.f, INFINITY, -INFINITY, 1.f};
  for (int i = 0; i < n; ++i) {
    x[i] = special[i % 8];
    y[i] = i % 3 == 0 ? NAN : double(special[(i + 3) % 8]);
  }
  clampBoth(x.data(), y.data(), lo.data(), hi.data(), dlo.data(), dhi.data(), n);
  for (int i = 0; i < n; ++i)
    std::printf("%d %a %a %a %a\n", i, lo[i], hi[i], dlo[i], dhi[i]);
  std::printf("n=%d\n", n);
  return 0;
}
