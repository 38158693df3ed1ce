// A wmma tile must start 256-bit aligned (CUDA guide): an int8 B tile at
// column 16 of 32-byte rows starts 16 bytes in. tensorize refuses it at
// compile time (a GPU would compute garbage without a word), naming the tile;
// the loop stays as written.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void int8ColumnTiles(const signed char *A, const signed char *B, int *C) {
#pragma sched target(gpu) split(j, v, jj, 16) reorder(v, i, jj) bind(v, vthread)
#pragma sched cache_read(A, wmma.matrix_a, Af) cache_read(B, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
#pragma sched compute_at(Cf, v) compute_at(Af, v) compute_at(Bf, v)
  // expected-warning@+1 {{tensorize(Bf.ax0, wmma.load): the tile at `B[0, (v*16)]` is not provably 32-byte aligned (a wmma pointer must be 256-bit aligned)}}
#pragma sched tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, wmma.load) tensorize(Cf.i, wmma.mma) tensorize(i, wmma.store)
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 32; ++j) {
      int acc = 0;
      for (int k = 0; k < 16; ++k) acc += (int)A[i * 16 + k] * (int)B[k * 32 + j];
      C[i * 32 + j] = acc;
    }
}

void int8RowsOf24(const signed char *A, const signed char *B, int *C) {
#pragma sched target(gpu)
#pragma sched cache_read(A, wmma.matrix_a, Af) cache_read(B, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
  // expected-warning@+1 {{tensorize(Af.ax0, wmma.load): the rows of `A[Af.ax0, Af.ax1]` are 24 elements apart; the tile needs a multiple of 16 bytes}}
#pragma sched tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, wmma.load) tensorize(Cf.i, wmma.mma) tensorize(i, wmma.store)
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      int acc = 0;
      for (int k = 0; k < 16; ++k) acc += (int)A[i * 24 + k] * (int)B[k * 16 + j];
      C[i * 16 + j] = acc;
    }
}
