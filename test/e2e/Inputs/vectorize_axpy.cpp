// Z = a*X + Y over n elements, in float, int, double and half, each with its
// innermost loop vectorized: 4 floats or ints, 2 doubles or halves per
// thread (float4/int4/double2/__half2 accesses in the emitted CUDA). Prints
// every result. A second argument S starts every array S elements in (a
// pointer into the middle of an array: not aligned for the vectors unless S
// is a multiple of 4).
#include <cstdio>
#include <cstdlib>
#include <vector>

void axpyFloat(int n, float a, const float *X, const float *Y, float *Z) {
#pragma sched split(i, io, v, 4) split(io, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
#pragma sched vectorize(v)
  for (int i = 0; i < n; ++i)
    Z[i] = a * X[i] + Y[i];
}

void axpyInt(int n, int a, const int *X, const int *Y, int *Z) {
#pragma sched split(i, io, v, 4) split(io, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
#pragma sched vectorize(v)
  for (int i = 0; i < n; ++i)
    Z[i] = a * X[i] + Y[i];
}

void axpyDouble(int n, double a, const double *X, const double *Y, double *Z) {
#pragma sched split(i, io, v, 2) split(io, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
#pragma sched vectorize(v)
  for (int i = 0; i < n; ++i)
    Z[i] = a * X[i] + Y[i];
}

void axpyHalf(int n, const _Float16 *X, const _Float16 *Y, _Float16 *Z) {
#pragma sched split(i, io, v, 2) split(io, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
#pragma sched vectorize(v)
  for (int i = 0; i < n; ++i)
    Z[i] = X[i] + Y[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  int S = argc > 2 ? std::atoi(argv[2]) : 0;
  std::vector<float> Xf(n + 1), Yf(n + 1), Zf(n + 1, -1.f);
  std::vector<int> Xi(n + 1), Yi(n + 1), Zi(n + 1, -1);
  std::vector<double> Xd(n + 1), Yd(n + 1), Zd(n + 1, -1.0);
  std::vector<_Float16> Xh(n + 1), Yh(n + 1), Zh(n + 1, (_Float16)-1.f);
  for (int i = 0; i < n; ++i) {
    Xf[i] = 0.25f * (i % 37);
    Yf[i] = 1.5f - 0.125f * (i % 11);
    Xi[i] = i % 101 - 50;
    Yi[i] = 3 * i;
    Xd[i] = 0.1 * (i % 53);
    Yd[i] = -0.7 * (i % 7);
    Xh[i] = (_Float16)(0.5f * (i % 13));
    Yh[i] = (_Float16)(0.25f * (i % 9));
  }
  int m = n > S ? n - S : 0;
  axpyFloat(m, 1.75f, Xf.data() + S, Yf.data() + S, Zf.data() + S);
  axpyInt(m, -3, Xi.data() + S, Yi.data() + S, Zi.data() + S);
  axpyDouble(m, 2.5, Xd.data() + S, Yd.data() + S, Zd.data() + S);
  axpyHalf(m, Xh.data() + S, Yh.data() + S, Zh.data() + S);
  for (int i = 0; i <= n; ++i)
    std::printf("%d %a %d %a %a\n", i, Zf[i], Zi[i], Zd[i], (float)Zh[i]);
  return 0;
}
