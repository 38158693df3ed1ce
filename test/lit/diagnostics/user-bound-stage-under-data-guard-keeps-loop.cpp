// A shared stage whose copy the user bound to threadIdx.x sits under a guard
// that reads memory (`if (on[i])`, i bound to threadIdx.x): the guard cannot be
// moved off the copy, and threads where it is false would skip their part of
// the copy (issue 17, item 2). The nest is not lowered; a warning says why.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void guarded(const int *on, const float *B, float *C) {
#pragma sched target(gpu) bind(i, threadIdx.x)
#pragma sched cache_read(B, shared, Bs) compute_at(Bs, k) split(Bs.ax0, Bs.o, Bs.t, 32) bind(Bs.t, threadIdx.x)
  // expected-warning@+1 {{sched: cannot lower nest: loop 'Bs.t' is bound to threadIdx.x under control flow that leaves out some of its threads (if (on[i] != 0)): those threads would skip their iterations of it; the loop stays as written}}
  for (int i = 0; i < 32; ++i)
    if (on[i])
      for (int k = 0; k < 4; ++k)
        C[i * 4 + k] = B[k * 32 + 31 - i] * 2.0f;
}
