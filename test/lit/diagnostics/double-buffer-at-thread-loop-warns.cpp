// Issue 7 case 9: double-buffering a shared stage computed at a loop bound to
// threadIdx.x would split the threads between the two copies, each half
// filling and reading its copy at once (a race). The directive is dropped
// with a warning at it (the stage keeps one copy), also when the bind comes
// after it; the nest is scheduled.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void scale(const float (*A)[64], float (*B)[64]) {
#pragma sched split(i, bx, tx, 16) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, tx)
  // expected-warning@+1 {{double_buffer(As) has no effect: its copies would alternate with 'tx', which is bound to threadIdx.x (the loop a double-buffered stage is computed at must be serial); the stage keeps one copy}}
#pragma sched double_buffer(As)
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      B[i][j] = A[i][j] * 2.f;
}

void scaleBoundLater(const float (*A)[64], float (*B)[64]) {
#pragma sched split(i, bx, tx, 16) bind(bx, blockIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, tx)
  // expected-warning@+1 {{double_buffer(As) has no effect: its copies would alternate with 'tx', which is bound to threadIdx.x}}
#pragma sched double_buffer(As)
#pragma sched bind(tx, threadIdx.x)
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      B[i][j] = A[i][j] * 2.f;
}
