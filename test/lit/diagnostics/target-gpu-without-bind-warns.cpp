// A GPU nest that binds no loop to blocks or threads runs on a single GPU
// thread: a warning at its target asks whether a bind was forgotten
// (-Wsched-unbound). Binding one loop silences it.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void serial(int n, float *a) {
  // expected-warning@+1 {{target(gpu) nest binds no loop to blockIdx or threadIdx, so its kernel runs on a single GPU thread; did you forget to bind? [-Wsched-unbound]}}
#pragma sched target(gpu) split(i, io, ii, 4)
  for (int i = 0; i < n; ++i)
    a[i] = 1.f;
}

void bound(int n, float *a) {
#pragma sched target(gpu) split(i, io, ii, 4) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = 1.f;
}
