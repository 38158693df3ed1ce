// pipeline(x, stages=S) is never a silent no-op: where it cannot apply, a
// -Wsched-ignored warning at the directive says why - on an architecture
// without cp.async (before sm_80), or a loop whose step is not fills of
// shared stages, a barrier and the computation - and the kernel is generated
// without it. -Wno-sched-ignored silences it.
// RUN: %sched_cc -fsyntax-only -Xclang -verify=old %s
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-arch=sm_80 -Xclang -verify=new %s
// RUN: %sched_cc -fsyntax-only -Wno-unknown-warning-option -Wno-sched-ignored -Xclang -verify=quiet %s
// quiet-no-diagnostics

void mm(const float *A, const float *B, float *C) {
#pragma sched target(gpu)
#pragma sched tile(i, j, io, jo, ii, ji, 32, 32) split(k, ko, ki, 16) reorder(io, jo, ii, ji, ko, ki)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  // old-warning@+1 {{pipeline(ko) has no effect: it needs cp.async, sm_80 or newer (-fplugin-arg-sched-arch=sm_80)}}
#pragma sched pipeline(ko, stages=3)
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      float acc = 0;
      for (int k = 0; k < 64; ++k)
        acc += A[i * 64 + k] * B[k * 64 + j];
      C[i * 64 + j] = acc;
    }
}

void sum(int n, float *a, const float *b) {
  // old-warning@+2 {{pipeline(k) has no effect: it needs cp.async, sm_80 or newer (-fplugin-arg-sched-arch=sm_80)}}
  // new-warning@+1 {{pipeline(k, stages=3) has no effect: its step is not fills of shared stages, a barrier and the computation}}
#pragma sched target(gpu) bind(i, threadIdx.x) pipeline(k, stages=3)
  for (int i = 0; i < 64; ++i)
    for (int k = 0; k < n; ++k)
      a[i] += b[k];
}
