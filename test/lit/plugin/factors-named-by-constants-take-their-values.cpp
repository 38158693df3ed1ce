// A factor may name a constant: each instantiation of a template gets its own
// parameter's value, a macro its replacement (through another macro too), a
// constexpr local, a static member or an enumerator (also after nparts=) its
// value at the nest.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=scheduled %s | FileCheck %s

template <int TS> void scaled(float *y, int n) {
#pragma sched target(gpu) split(i, io, ii, TS) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = y[i] * 2.f;
}
template void scaled<16>(float *, int);
template void scaled<3>(float *, int);
// CHECK-LABEL: func sched_{{.*}}_9(
// CHECK:       for (ii, 0, 16) bind(threadIdx.x)
// CHECK-LABEL: func sched_{{.*}}_9_1(
// CHECK:       for (ii, 0, 3) bind(threadIdx.x)

#define ROWS 4
#define COLS (ROWS)
void macros(float *a, int n) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, ROWS, COLS) bind(io, blockIdx.x)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      a[i * n + j] = 0.f;
}
// CHECK-LABEL: func sched_{{.*}}_23(
// CHECK:       for (ii, 0, 4)
// CHECK:           for (ji, 0, 4)

enum { Parts = 5 };
struct K {
  static constexpr int Width = 7;
  void run(float *y, int n) {
    constexpr int Unroll = 2;
#pragma sched target(gpu) split(i, io, ii, Width) split(io, ioo, ioi, nparts=Parts) unroll(ii) split(ioi, a, b, Unroll) bind(ioo, blockIdx.x)
    for (int i = 0; i < n; ++i)
      y[i] = 1.f;
  }
};
void useK(float *y, int n) { K().run(y, n); }
// CHECK-LABEL: func sched_{{.*}}_37(
// CHECK:       for (ioo, 0, 5)
// CHECK-NEXT:    for (a, 0,
// CHECK-NEXT:      for (b, 0, 2)
// CHECK:             for (ii, 0, 7) unroll
