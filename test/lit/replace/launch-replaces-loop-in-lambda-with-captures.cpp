// A nest inside a lambda that captures its arrays and scalars by reference:
// the launcher's arguments refer to the captures (so they compile to the
// closure's fields, not to the enclosing frame).
// RUN: %sched_cc -fsyntax-only -Xclang -ast-dump %s | FileCheck %s
// RUN: %clangxx -std=c++17 -Wno-unknown-pragmas %s -o %t.ref
// RUN: %sched_cc %s %sched_link -o %t
// RUN: %t.ref > %t.ref.out
// RUN: env SCHED_BACKEND=sim SCHED_VERBOSE=1 %t > %t.sim.out 2> %t.sim.err
// RUN: diff %t.ref.out %t.sim.out
// RUN: FileCheck %s --check-prefix=SIM < %t.sim.err

#include <cstdio>

int main() {
  int n = 50;
  float scale = 0.5f;
  float *out = new float[n];
  auto fill = [&]() {
#pragma sched split(i, bo, ti, 16) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
    for (int i = 0; i < n; ++i)
      out[i] = scale * float(i);
  };
  fill();
  for (int i = 0; i < n; i += 7)
    std::printf("%g\n", out[i]);
  delete[] out;
  return 0;
}

// CHECK: IfStmt
// CHECK-NEXT: UnaryOperator {{.*}} '!'
// CHECK: DeclRefExpr {{.*}} '__sched_launch'
// CHECK: UnaryOperator {{.*}} '&'
// CHECK-NEXT: DeclRefExpr {{.*}} refers_to_enclosing_variable_or_capture
// CHECK: ForStmt

// SIM: sched: sched_launch_replaces_loop_in_lambda_with_captures_20 {{.*}}ran on sim
