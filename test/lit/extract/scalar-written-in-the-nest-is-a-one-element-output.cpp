// A scalar declared outside the nest and updated in it (issue 23) is the
// nest's output: a one-element buffer passed by the scalar's address, so it
// holds what the loop leaves after the nest on every backend.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s 2>&1 | FileCheck %s

// CHECK: func sched_scalar_written_in_the_nest_is_a_one_element_output_{{[0-9]+}}(sum: float32*[1] global, x: float32*[n] global, n: int32) target=gpu {
// CHECK-NEXT:   for (i, 0, n) reduce {
// CHECK-NEXT:     sum[0] = (sum[0] + x[i])
// CHECK-NOT: cannot schedule
float total(const float *x, int n) {
  float sum = 0.f;
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    sum += x[i];
  return sum;
}
