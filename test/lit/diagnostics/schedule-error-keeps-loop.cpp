// An illegal schedule leaves the loop unreplaced (no launcher call).
// RUN: not %sched_cc -fsyntax-only -Xclang -ast-print %s 2>/dev/null | FileCheck %s

void copy(int n, float *a, const float *b) {
#pragma sched bind(q, blockIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}
// CHECK-LABEL: void copy(
// CHECK-NOT: __sched_launch
// CHECK: for (int i = 0; i < n; ++i)
