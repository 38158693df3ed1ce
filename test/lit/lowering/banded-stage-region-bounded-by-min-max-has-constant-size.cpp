// A banded nest (`j = max(0, i - 2) .. min(n, i + 3)`) reads a band of at
// most 5 elements of Y per row: a stage of Y gets a constant size from the
// bounds' min/max, 8 + 4 = 12 elements at a block of 8 rows and 5 at one row
// (issue 22: they used to get "no constant size").
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=lowered %s 2>&1 | FileCheck %s --implicit-check-not=warning:

void atBlock(const double (*L)[64], const double *Y, double *out, int n) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched cache_read(Y, shared, Ys) compute_at(Ys, io)
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = (i - 2 > 0 ? i - 2 : 0); j < (n < i + 3 ? n : i + 3); j++)
      s += L[i][j] * Y[j];
    out[i] = s;
  }
}
// CHECK-LABEL: func sched_{{.*}}_10(
// CHECK:         allocate Ys: float64[12] shared

void atRow(const double (*L)[64], const double *Y, double *out, int n) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched cache_read(Y, local, Yl) compute_at(Yl, ii)
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = (i - 2 > 0 ? i - 2 : 0); j < (n < i + 3 ? n : i + 3); j++)
      s += L[i][j] * Y[j];
    out[i] = s;
  }
}
// CHECK-LABEL: func sched_{{.*}}_23(
// CHECK:         allocate Yl: float64[5] local
