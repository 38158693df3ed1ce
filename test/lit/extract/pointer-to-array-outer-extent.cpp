// A pointer to rows (`float (*A)[16]`) keeps its row length; the number of
// rows comes from the loop bounds.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void zero(float (*A)[16], int Rows) {
#pragma sched target(gpu)
  for (int i = 0; i < Rows; ++i)
    for (int j = 0; j < 16; ++j)
      A[i][j] = 0.f;
}
// CHECK-LABEL: func sched_{{.*}}(A: float32*[Rows, 16] global, Rows: int32)
// CHECK:         A[i, j] = 0.0f
