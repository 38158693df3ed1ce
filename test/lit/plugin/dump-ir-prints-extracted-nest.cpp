// dump=ir prints each nest as extracted, under a header naming the nest.
// RUN: %sched_cc -fplugin-arg-sched-dump=ir -fsyntax-only %s | FileCheck %s

void axpy(int n, float a, const float *x, float *y) {
#pragma sched split(i, io, ii, 4)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
// CHECK-LABEL: // sched: sched_dump_ir_prints_extracted_nest_6 after ir
// CHECK-NEXT: func sched_dump_ir_prints_extracted_nest_6(
// CHECK-NEXT: for (i, 0, n) {
// CHECK-NOT: // sched:
