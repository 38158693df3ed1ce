// A nest in a member function that uses fields of *this: the launcher gets
// &this->field, the original loop stays under the if, and the kernel really
// runs under sim with the same results as the plain build.
// RUN: %sched_cc -fsyntax-only -Xclang -ast-print %s | FileCheck %s
// RUN: %clangxx -std=c++17 -Wno-unknown-pragmas %s -o %t.ref
// RUN: %sched_cc %s %sched_link -o %t
// RUN: %t.ref > %t.ref.out
// RUN: env SCHED_BACKEND=sim SCHED_VERBOSE=1 %t > %t.sim.out 2> %t.sim.err
// RUN: diff %t.ref.out %t.sim.out
// RUN: FileCheck %s --check-prefix=SIM < %t.sim.err

#include <cstdio>

struct Scaler {
  float Data[64];
  int N = 64;
  float Factor = 3.f;

  void scale() {
#pragma sched split(i, bo, ti, 16) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
    for (int i = 0; i < N; ++i)
      Data[i] = Data[i] * Factor;
  }
};

// CHECK-LABEL: void scale() {
// CHECK-NEXT: if (!__sched_launch("{{.*}}", &this->{{Data|N|Factor}}, &this->{{Data|N|Factor}}, &this->{{Data|N|Factor}}))
// CHECK-NEXT: for (int i = 0; i < this->N; ++i)

// SIM: sched: sched_launch_replaces_loop_in_member_function_21 {{.*}}ran on sim

int main() {
  Scaler S;
  for (int i = 0; i < 64; ++i)
    S.Data[i] = float(i);
  S.scale();
  for (int i = 0; i < 64; i += 9)
    std::printf("%g\n", S.Data[i]);
  return 0;
}
