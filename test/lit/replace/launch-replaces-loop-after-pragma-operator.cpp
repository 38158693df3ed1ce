// _Pragma("sched ...") from a macro schedules the loop after the macro use,
// like the #pragma form.
// RUN: %sched_cc -fsyntax-only -Xclang -ast-print %s | FileCheck %s

#define GPU_SPLIT _Pragma("sched split(i, bo, ti, 8) bind(bo, blockIdx.x) bind(ti, threadIdx.x)")

void copy(int n, float *a, const float *b) {
  GPU_SPLIT
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}
// CHECK-LABEL: void copy(
// CHECK-NEXT: if (!__sched_launch(
// CHECK-NEXT: for (int i = 0; i < n; ++i)
