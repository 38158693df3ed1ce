// The caret of a misspelt loop name points at the name itself, also when it
// is on the second line of a schedule (offsets map back per pragma line).
// RUN: not %sched_cc -fsyntax-only %s 2>&1 | FileCheck %s --strict-whitespace

void copy(int n, float *a, const float *b) {
#pragma sched split(i, io, ii, 4)
#pragma sched   bind(io, blockIdx.x) bind(iii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
}
// CHECK: caret-on-name.cpp:7:43: error: no loop named 'iii'
// CHECK-NEXT: {{^}}    7 | #pragma sched   bind(io, blockIdx.x) bind(iii, threadIdx.x)
// CHECK-NEXT: {{^}}      |                                           ^{{$}}
