// A band stored flat and read under a guard, `L[i*5 + j - i + 2]` for
// j >= i - 2 && j <= i + 2, is 4*i + j + 2 when its layout is chosen: rows of
// 4 would need n <= 2 (the column j + 2 for j < n), an assumption that caps
// the rows too and fails at every real size, so the kernel never ran (issue
// 22). It stays one-dimensional, with no assumption. A leading dimension or a
// capacity caps only the columns and is still taken (`A[i*64 + j]`, j < m:
// m <= 64).
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s 2>&1 | FileCheck %s --implicit-check-not=warning:

void band(const double *L, const double *Y, double *out, int n) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++)
      if (j >= i - 2 && j <= i + 2)
        s += L[i * 5 + j - i + 2] * Y[j];
    out[i] = s;
  }
}
// CHECK-LABEL: func sched_{{.*}}_12(L: float64*[((n*5) - 2)] global, Y: float64*[n] global, out: float64*[n] global, n: int32) target=gpu {
// CHECK:         L[((((i*5) + j) - i) + 2)]

void capacity(const double *A, double *out, int n, int m) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      out[i * 64 + j] = A[i * 64 + j] * 2;
}
// CHECK-LABEL: func sched_{{.*}}_25(
// CHECK-SAME:    target=gpu assume((m <= 64))
