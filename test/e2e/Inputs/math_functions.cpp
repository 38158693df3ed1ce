// Every family of the math table, in float (C names, std:: overloads) and in
// double, on values that exercise the libm paths (negative, tiny, large).
// Printed as hex floats: the plugin build under sim must give the same bits
// as the plain build, which calls libm.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static void unary(float *y, const float *x, int n) {
#pragma sched target(gpu) split(i, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    y[i * 25 + 0] = sinf(v) + cosf(v);
    y[i * 25 + 1] = tanf(v);
    y[i * 25 + 2] = floorf(v) + ceilf(v) * 3.f;
    y[i * 25 + 3] = roundf(v) - truncf(v);
    y[i * 25 + 4] = fmodf(v, 0.7f);
    y[i * 25 + 5] = exp2f(v);
    y[i * 25 + 6] = log2f(std::fabs(v) + 1e-30f);
    y[i * 25 + 7] = log10f(std::abs(v) + 1e-30f);
    y[i * 25 + 8] = expm1f(v * 1e-3f);
    y[i * 25 + 9] = log1pf(std::abs(v) * 1e-4f);
    y[i * 25 + 10] = atan2f(v, 1.5f - v);
    y[i * 25 + 11] = hypotf(v, 2.f * v + 1.f);
    y[i * 25 + 12] = copysignf(1.25f, v);
    y[i * 25 + 13] = fmaf(v, v, -1.f);
    y[i * 25 + 14] = std::clamp(v, -1.f, 1.f);
    y[i * 25 + 15] = std::sin(v) * std::exp(v * 0.01f);
    y[i * 25 + 16] = std::pow(v, 2.f);
    y[i * 25 + 17] = std::pow(std::abs(v), 0.5f);
    y[i * 25 + 18] = std::cbrt(v) + std::atan(v) + std::asin(v * 1e-3f);
    y[i * 25 + 19] = std::tanh(v) + std::sinh(v * 1e-2f) + std::cosh(v * 1e-2f);
    y[i * 25 + 20] = std::fmin(v, 0.f) + std::fmax(v, 0.f) + sqrtf(std::fabs(v));
    y[i * 25 + 21] = logf(std::fabs(v) + 1.f) + std::acos(v * 1e-3f);
    y[i * 25 + 22] = static_cast<float>(std::abs(static_cast<int>(v)));
    y[i * 25 + 23] = std::fma(v, 3.f, v);
    y[i * 25 + 24] = powf(v, -1.f);
  }
}

static void unaryDouble(double *y, const double *x, int n) {
#pragma sched target(gpu) split(i, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    double v = x[i];
    y[i * 8 + 0] = sin(v) + std::cos(v) + tan(v);
    y[i * 8 + 1] = std::floor(v) + ceil(v) + round(v) + std::trunc(v) + fmod(v, 0.3);
    y[i * 8 + 2] = exp2(v) + std::log2(fabs(v) + 1e-300) + log10(std::abs(v) + 1.0);
    y[i * 8 + 3] = expm1(v * 1e-3) + std::log1p(fabs(v));
    y[i * 8 + 4] = atan2(v, 0.5) + hypot(v, 3.0) + copysign(2.0, v);
    y[i * 8 + 5] = fma(v, v, 0.1) + std::clamp(v, -0.5, 0.5);
    y[i * 8 + 6] = std::pow(v, 2) + std::pow(fabs(v), 1.5);
    y[i * 8 + 7] = static_cast<double>(std::abs(static_cast<long>(v * 10)));
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100;
  std::vector<float> x(n + 1), y(25 * n + 1, 0.f);
  std::vector<double> xd(n + 1), yd(8 * n + 1, 0.0);
  for (int i = 0; i < n; ++i) {
    x[i] = (i % 2 ? -1.f : 1.f) * (0.37f * i + 1e-3f * i * i);
    xd[i] = (i % 3 ? 1.0 : -1.0) * (0.91 * i - 7.5e-4 * i * i);
  }
  // At -O2 pow(x, 2) is x*x and pow(x, -1) is 1/x, which differ from libm's
  // pow where the result is subnormal or near the top of the range.
  if (n > 3) {
    x[2] = 0x1.1p-71f;
    x[3] = 0x1.0080ap-128f;
    xd[2] = 0x1.1p-530;
  }
  unary(y.data(), x.data(), n);
  unaryDouble(yd.data(), xd.data(), n);
  for (int i = 0; i < 25 * n; ++i)
    std::printf("%a%c", y[i], i % 25 == 24 ? '\n' : ' ');
  for (int i = 0; i < 8 * n; ++i)
    std::printf("%a%c", yd[i], i % 8 == 7 ? '\n' : ' ');
  std::printf("done %d\n", n);
  return 0;
}
