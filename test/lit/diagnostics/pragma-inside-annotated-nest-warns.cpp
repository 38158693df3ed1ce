// A '#pragma sched' on a loop inside a nest that has its own pragma is not a
// nest of its own (it was scheduled only on the host fallback path, silently):
// it is ignored with a -Wsched-ignored warning at the pragma (issue 17, item 5),
// and the outer nest is scheduled as its directives say.
// RUN: %sched_cc -fsyntax-only -Xclang -verify -Rpass=sched %s
// RUN: %sched_cc -fsyntax-only -Wno-unknown-warning-option -Wno-sched-ignored -fno-caret-diagnostics -Rpass=sched %s 2>&1 | FileCheck %s

void f(int n, float *x) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < n; i++) { // expected-remark {{nest became kernel}}
#pragma sched target(gpu) bind(j, threadIdx.y) // expected-warning {{'#pragma sched' inside the nest of another '#pragma sched' is ignored; put every directive of a nest above its outermost loop}}
    for (int j = 0; j < 4; j++)
      x[i * 4 + j] = 1.f;
  }
}
// CHECK-NOT: warning
// CHECK:     remark: sched: nest became kernel 'sched_{{.*}}_10': grid (1, 1, 1), block (n, 1, 1)
// CHECK-NOT: nest became kernel
