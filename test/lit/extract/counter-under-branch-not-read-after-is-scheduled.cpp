// The same branch as warn-counter-read-after-nest-depends-on-branch.cpp, but
// nothing reads j after the nest (the next loop assigns it first): the nest
// is scheduled, and only i gets a final value.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir -Werror %s | FileCheck %s

void branch(int n, const int *on, float *x) {
  int i, j;
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (i = 0; i < n; i++)
    if (on[i])
      for (j = 0; j < 8; j++)
        x[i * 8 + j] = 1.f;
  for (j = 0; j < 8; j++)
    x[j] += 1.f;
}
// CHECK-LABEL: func sched_
// CHECK:      // final i = max(n, 0)
// CHECK-NOT:  // final
