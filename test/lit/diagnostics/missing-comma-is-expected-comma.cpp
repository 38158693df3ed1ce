// A missing comma between two arguments is `expected ','` at the second one,
// and the directive is read as if it were there.
// RUN: not %sched_cc -fsyntax-only %s 2>&1 | FileCheck %s --strict-whitespace

void copy(int n, float *a, const float *b) {
#pragma sched split(i io, ii, 4)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}
// CHECK: missing-comma-is-expected-comma.cpp:6:23: error: expected ',' between the arguments of 'split'
// CHECK-NEXT: {{^}}    6 | #pragma sched split(i io, ii, 4)
// CHECK-NEXT: {{^}}      |                       ^{{$}}
// CHECK: 1 error generated.
