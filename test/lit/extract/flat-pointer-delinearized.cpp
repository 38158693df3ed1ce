// Flat pointer accesses whose coefficients form a stride chain become
// multi-dimensional buffers: a 3-D row-major index and a transposed read.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void copy3(float *Out, const float *In, int P, int Q, int R) {
#pragma sched target(gpu)
  for (int p = 0; p < P; ++p)
    for (int q = 0; q < Q; ++q)
      for (int r = 0; r < R; ++r)
        Out[p * Q * R + q * R + r] = In[r * Q * P + q * P + p];
}
// CHECK-LABEL: func sched_{{.*}}(Out: float32*[P, Q, R] global, In: float32*[R, Q, P] global, P: int32, Q: int32, R: int32)
// CHECK:         Out[p, q, r] = In[r, q, p]
