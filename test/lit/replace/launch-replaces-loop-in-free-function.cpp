// In a free function, the for loop becomes
//   if (!__sched_launch("<descriptor>", &y, &x, ...)) <original for>
// and the program gives the plain build's results under sim and host.
// RUN: %sched_cc -fsyntax-only -Xclang -ast-print %s | FileCheck %s
// RUN: %clangxx -std=c++17 -Wno-unknown-pragmas %s -o %t.ref
// RUN: %sched_cc %s %sched_link -o %t
// RUN: %t.ref > %t.ref.out
// RUN: env SCHED_BACKEND=sim SCHED_VERBOSE=1 %t > %t.sim.out 2> %t.sim.err
// RUN: diff %t.ref.out %t.sim.out
// RUN: FileCheck %s --check-prefix=SIM < %t.sim.err
// RUN: env SCHED_BACKEND=host SCHED_VERBOSE=1 %t > %t.host.out 2> %t.host.err
// RUN: diff %t.ref.out %t.host.out
// RUN: FileCheck %s --check-prefix=HOST < %t.host.err

#include <cstdio>

void axpy(int n, float a, const float *x, float *y) {
#pragma sched split(i, bo, ti, 32) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

// CHECK-LABEL: void axpy(
// CHECK-NEXT: if (!__sched_launch("sched-launch-descriptor{{.*}}", &{{[nxya]}}, &{{[nxya]}}, &{{[nxya]}}, &{{[nxya]}}))
// CHECK-NEXT: for (int i = 0; i < n; ++i)
// CHECK-NEXT: y[i] = a * x[i] + y[i];

// SIM: sched: sched_launch_replaces_loop_in_free_function_19 {{.*}}ran on sim
// HOST: sched: sched_launch_replaces_loop_in_free_function_19 {{.*}}ran on host

int main() {
  float x[100], y[100];
  for (int i = 0; i < 100; ++i) {
    x[i] = float(i % 7);
    y[i] = float(i % 3) - 1.f;
  }
  axpy(100, 2.f, x, y);
  for (int i = 0; i < 100; i += 11)
    std::printf("%g\n", y[i]);
  return 0;
}
