// A factor, nparts or storage_align argument may be an integer constant
// expression over constants the plugin resolves by name (`TS*2`, `TS/2`,
// `(N+1)`, `2*TS-1`, `nparts=TS/4`, a macro that expands to an expression):
// it is its value at the nest, per template instantiation.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=scheduled %s | FileCheck %s

template <int TS> void scaled(float *y, int n) {
#pragma sched target(gpu) split(i, io, ii, 2*TS-1) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = y[i] * 2.f;
}
template void scaled<16>(float *, int);
template void scaled<3>(float *, int);
// CHECK-LABEL: func sched_{{.*}}_9(
// CHECK:       for (ii, 0, 31) bind(threadIdx.x)
// CHECK-LABEL: func sched_{{.*}}_9_1(
// CHECK:       for (ii, 0, 5) bind(threadIdx.x)

#define ROWS 4
#define COLS (ROWS * 2 + 1)
enum { N = 3 };
void expressions(float *a, int n) {
  constexpr int TS = 16;
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, (N+1), COLS) split(io, ioo, ioi, nparts = TS/4) split(ji, ja, jb, TS / 8 % 3) bind(ioo, blockIdx.x)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      a[i * n + j] = 0.f;
}
// CHECK-LABEL: func sched_{{.*}}_25(
// CHECK:       for (ioo, 0, 4)
// CHECK:       for (ii, 0, 4)
// CHECK:           for (ja, 0, 5)
// CHECK-NEXT:        for (jb, 0, 2)

// Expressions of literals only are evaluated by the directive parser.
void literals(float *y, int n) {
#pragma sched target(gpu) split(i, io, ii, -(-4) * (1 + 1)) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = 1.f;
}
// CHECK-LABEL: func sched_{{.*}}_38(
// CHECK:       for (ii, 0, 8) bind(threadIdx.x)

// storage_align's factor and offset.
void aligned(float *c, const float *a, int n) {
  constexpr int W = 8;
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, W, W) bind(io, blockIdx.y) bind(jo, blockIdx.x)
#pragma sched bind(ii, threadIdx.y) bind(ji, threadIdx.x) cache_read(a, shared, As) compute_at(As, jo)
#pragma sched storage_align(As, As.ax0, W*2, W/8)
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      c[i * 64 + j] = a[i * 64 + j] * 2.f;
}
// CHECK-LABEL: func sched_{{.*}}_50(
// CHECK:       allocate As: float32[As.ext0, ((((As.ext1 + 14)/16)*16) + 1)] shared
