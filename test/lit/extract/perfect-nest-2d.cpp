// A perfect 2-D nest over a fixed-size global array: two For nodes named by
// their induction variables, one store.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

float Out[16][32], In[16][32];

void scale() {
#pragma sched target(gpu)
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 32; c++)
      Out[r][c] = In[r][c] * 2.f;
}
// CHECK-LABEL: func sched_{{.*}}(Out: float32*[16, 32] global noalias, In: float32*[16, 32] global noalias)
// CHECK-NEXT:   for (r, 0, 16) {
// CHECK-NEXT:     for (c, 0, 32) {
// CHECK-NEXT:       Out[r, c] = (In[r, c]*2.0f)
// CHECK-NEXT:     }
// CHECK-NEXT:   }
