// An operand that stays one-dimensional (x[j*8 + k] with k < 16: the windows
// of a strided convolution overlap, so no row length splits the index) is
// staged into a one-dimensional fragment, and the mma refuses it: a fragment
// needs one dimension for the tile's rows and another for its columns. So no
// extracted nest loads a tile from a flat buffer, and wmma.load has no
// `col*ld + row` form (issue 17: that branch was unreachable and went).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void stridedConv(const _Float16 *W, const _Float16 *x, float *C) {
#pragma sched target(gpu) split(j, v, jj, 16) reorder(v, i, jj) bind(v, vthread)
#pragma sched cache_read(W, wmma.matrix_a, Af) cache_read(x, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
#pragma sched compute_at(Cf, v) compute_at(Af, v) compute_at(Bf, v)
  // expected-warning@+1 {{tensorize(i, wmma.mma): loop 'jj' must index one dimension of `Bf[((jj*8) + k)]` as `jj + ...`; the loop stays as written}}
#pragma sched tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, wmma.load) tensorize(Cf.i, wmma.mma) tensorize(i, wmma.store)
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 32; ++j) {
      float acc = 0.f;
      for (int k = 0; k < 16; ++k)
        acc += (float)W[i * 16 + k] * (float)x[j * 8 + k];
      C[i * 32 + j] = acc;
    }
}
