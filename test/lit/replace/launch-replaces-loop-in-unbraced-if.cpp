// The nest is the whole then-branch of an if without braces: the launch
// guard replaces it inside the branch, not in some enclosing block.
// RUN: %sched_cc -fsyntax-only -Xclang -ast-print %s | FileCheck %s

void maybeCopy(bool doIt, int n, float *a, const float *b) {
  if (doIt)
#pragma sched split(i, bo, ti, 8) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
    for (int i = 0; i < n; ++i)
      a[i] = b[i];
}

// CHECK-LABEL: void maybeCopy(
// CHECK-NEXT: if (doIt)
// CHECK-NEXT: if (!__sched_launch(
// CHECK-NEXT: for (int i = 0; i < n; ++i)
