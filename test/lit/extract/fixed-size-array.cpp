// Fixed-size arrays keep their declared shape: a parameter declared
// `float A[8][4]` (decays to a pointer, so no noalias) and a global array.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

float G[8][4];

void add(float A[8][4]) {
#pragma sched target(gpu)
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j)
      G[i][j] = G[i][j] + A[i][j];
}
// CHECK-LABEL: func sched_{{.*}}(G: float32*[8, 4] global noalias, A: float32*[8, 4] global)
// CHECK:         G[i, j] = (G[i, j] + A[i, j])
