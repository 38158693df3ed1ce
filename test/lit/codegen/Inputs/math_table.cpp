// Every family of the math table in float and double, and a _Float16
// argument (widened to float first).
#include <cmath>

void f(float *y, const float *x, double *z, _Float16 *h, int n) {
#pragma sched target(gpu) split(i, bx, tx, 64) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    y[i] = sqrtf(v) + cbrtf(v) + expf(v) + exp2f(v) + expm1f(v) + logf(v) + log2f(v) + log10f(v);
    y[i] += log1pf(v) + sinf(v) + cosf(v) + tanf(v) + asinf(v) + acosf(v) + atanf(v) + sinhf(v);
    y[i] += coshf(v) + tanhf(v) + fabsf(v) + floorf(v) + ceilf(v) + roundf(v) + truncf(v);
    y[i] += powf(v, 3.f) + fminf(v, 1.f) + fmaxf(v, 1.f) + fmodf(v, 2.f) + atan2f(v, 2.f);
    y[i] += hypotf(v, 2.f) + copysignf(2.f, v) + fmaf(v, 2.f, 1.f) + sinf(h[i]);
    double d = z[i];
    z[i] = sqrt(d) + cbrt(d) + exp(d) + exp2(d) + expm1(d) + log(d) + log2(d) + log10(d);
    z[i] += log1p(d) + sin(d) + cos(d) + tan(d) + asin(d) + acos(d) + atan(d) + sinh(d);
    z[i] += cosh(d) + tanh(d) + fabs(d) + floor(d) + ceil(d) + round(d) + trunc(d);
    z[i] += pow(d, 3.0) + fmin(d, 1.0) + fmax(d, 1.0) + fmod(d, 2.0) + atan2(d, 2.0);
    z[i] += hypot(d, 2.0) + copysign(2.0, d) + fma(d, 2.0, 1.0);
  }
}
