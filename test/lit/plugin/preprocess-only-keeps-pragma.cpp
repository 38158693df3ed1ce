// Under -E the plugin registers no pragma handler, so the pragma is printed
// unchanged for the later compile of the .ii (-save-temps relies on it).
// RUN: %sched_cc -E %s | FileCheck %s
// CHECK: #pragma sched split(i, io, ii, 4) bind(io, blockIdx.x)
// CHECK-NEXT: for (int i = 0; i < n; ++i)

void copy(int n, float *a, const float *b) {
#pragma sched split(i, io, ii, 4) bind(io, blockIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}
