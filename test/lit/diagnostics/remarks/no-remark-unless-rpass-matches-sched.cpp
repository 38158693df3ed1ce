// Remarks are off by default and for -Rpass patterns that do not match
// "sched"; a pattern that does match shows them.
// RUN: %sched_cc -fsyntax-only -Xclang -verify=none %s
// RUN: %sched_cc -fsyntax-only -Rpass=loop-vectorize -Xclang -verify=none %s
// RUN: %sched_cc -fsyntax-only -Rpass='sch.*' -Xclang -verify=match %s
// none-no-diagnostics

void tiles(int n, float *a) {
#pragma sched split(i, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i) // match-remark {{nest became kernel}}
    a[i] = 1.f;
}
