// A nest in a function template instantiated twice is scheduled once per
// instantiation, each with its own deterministic kernel name.
// RUN: %sched_cc -fsyntax-only -Xclang -ast-print %s | FileCheck %s
// RUN: %clangxx -std=c++17 -Wno-unknown-pragmas %s -o %t.ref
// RUN: %sched_cc %s %sched_link -o %t
// RUN: %t.ref > %t.ref.out
// RUN: env SCHED_BACKEND=sim SCHED_VERBOSE=1 %t > %t.sim.out 2> %t.sim.err
// RUN: diff %t.ref.out %t.sim.out
// RUN: FileCheck %s --check-prefix=SIM < %t.sim.err

#include <cstdio>

template <typename T> void twice(int n, T *v) {
#pragma sched split(i, bo, ti, 8) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    v[i] = v[i] + v[i];
}

// CHECK-LABEL: template<> void twice<float>(int n, float *v) {
// CHECK-NEXT: if (!__sched_launch("{{.*}}kernel [[NAME:sched_launch_replaces_each_template_instantiation_[0-9]+]]\n
// CHECK-NEXT: for (int i = 0; i < n; ++i)
// CHECK-LABEL: template<> void twice<int>(int n, int *v) {
// CHECK-NEXT: if (!__sched_launch("{{.*}}kernel [[NAME]]_1\n
// CHECK-NEXT: for (int i = 0; i < n; ++i)

// SIM-DAG: sched: sched_launch_replaces_each_template_instantiation_{{[0-9]+}} {{.*}}ran on sim
// SIM-DAG: sched: sched_launch_replaces_each_template_instantiation_{{[0-9]+}}_1 {{.*}}ran on sim

int main() {
  float f[20];
  int k[20];
  for (int i = 0; i < 20; ++i) {
    f[i] = 0.25f * float(i);
    k[i] = i - 3;
  }
  twice(20, f);
  twice(20, k);
  std::printf("%g %g %d %d\n", f[1], f[19], k[0], k[19]);
  return 0;
}
