// `tile` is declared outside the loop b bound to blockIdx.x: one array for all
// blocks, and the read loop (outside b, so run by every block) reads what
// every block wrote. Shared memory is per block and blocks cannot be
// synchronized within a kernel, so the nest is not lowered: a warning names
// the array, the two accesses and what to do, and the original loop stays.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void handOver(const float *x, float *y) {
#pragma sched target(gpu) bind(b, blockIdx.x) bind(t, threadIdx.x) bind(u, threadIdx.x)
  // expected-warning@+1 {{sched: cannot lower nest: local array 'tile' passes values between threads (tile[((b*16) + t)] (written), then tile[(63 - u)] (read)), so it must be shared memory, but blocks would exchange values through it too (it is declared outside loop 'b', bound to blockIdx.x), and blocks cannot be synchronized within a kernel; write and read each of its elements in one block; the loop stays as written}}
  for (int r = 0; r < 1; ++r) {
    float tile[64];
    for (int b = 0; b < 4; ++b)
      for (int t = 0; t < 16; ++t)
        tile[b * 16 + t] = x[b * 16 + t];
    for (int u = 0; u < 64; ++u)
      y[u] = tile[63 - u];
  }
}
