// _Float16 arithmetic as Clang computes it on x86 (excess precision): a*b + c
// in float, rounded to half once; a compound assignment likewise; a
// comparison, a conversion and a local variable round first. Values chosen
// so that rounding after each operation gives other bits.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void fp16(_Float16 *y, _Float16 *acc, float *f, const _Float16 *a, const _Float16 *b,
                 const _Float16 *c, int n) {
#pragma sched target(gpu) split(i, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    y[i * 4 + 0] = a[i] * b[i] + c[i];
    y[i * 4 + 1] = (a[i] - c[i]) * (b[i] + c[i]) / a[i];
    _Float16 t = a[i] * b[i];
    y[i * 4 + 2] = t + c[i];
    y[i * 4 + 3] = a[i] * b[i] < c[i] ? -(a[i] * b[i]) : a[i] * b[i] - c[i];
    acc[i] += a[i] * b[i];
    acc[i] -= a[i] * c[i] + b[i];
    f[i] = a[i] * b[i] + c[i] * 0.5f + (float)(a[i] * a[i] * a[i]);
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 200;
  std::vector<_Float16> y(4 * n + 1), acc(n + 1), a(n + 1), b(n + 1), c(n + 1);
  std::vector<float> f(n + 1);
  for (int i = 0; i < n; ++i) {
    a[i] = (_Float16)(1.0f + 0.0009765625f * (i % 37) + 0.13f * (i % 5));
    b[i] = (_Float16)(1.0f + 0.0009765625f * (i % 29) - 0.07f * (i % 7));
    c[i] = (_Float16)((i % 2 ? -1.f : 1.f) * (0.0004882812f * (i % 11) + 0.37f * (i % 3)));
    acc[i] = (_Float16)(0.25f * (i % 13));
  }
  fp16(y.data(), acc.data(), f.data(), a.data(), b.data(), c.data(), n);
  for (int i = 0; i < n; ++i)
    std::printf("%a %a %a %a %a %a\n", (double)y[i * 4], (double)y[i * 4 + 1], (double)y[i * 4 + 2],
                (double)y[i * 4 + 3], (double)acc[i], (double)f[i]);
  std::printf("done %d\n", n);
  return 0;
}
