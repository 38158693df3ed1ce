// Each nest below breaks one rule of tensorize on the mma.sync path
// (mma.m16n8k16, mma.load, mma.store); the warning names the reason at the
// directive, and the loop stays as written.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s
// (The expectations are at the end, by line.)

// ldmatrix reads shared memory only: fragments loaded straight from global A.
void globalOperand(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu)
#pragma sched cache_read(A, wmma.matrix_a, Af) cache_read(B, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
#pragma sched tensorize(Af.ax0, mma.load) tensorize(Bf.ax0, mma.load) tensorize(Cf.i, mma.m16n8k16) tensorize(i, mma.store)
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      float acc = 0.f;
      for (int k = 0; k < 16; ++k) acc += (float)A[i*16+k] * (float)B[k*8+j];
      C[i*8+j] = acc;
    }
}

// A 16x16x16 tile is wmma's, not mma.m16n8k16's.
void wrongShape(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu)
#pragma sched cache_read(A, shared, As) cache_read(B, shared, Bs)
#pragma sched cache_read(As, wmma.matrix_a, Af) cache_read(Bs, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
#pragma sched tensorize(Af.ax0, mma.load) tensorize(Bf.ax0, mma.load) tensorize(Cf.i, mma.m16n8k16) tensorize(i, mma.store)
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      float acc = 0.f;
      for (int k = 0; k < 16; ++k) acc += (float)A[i*16+k] * (float)B[k*16+j];
      C[i*16+j] = acc;
    }
}

// The copies of an mma.m16n8k16 operand are mma.load, not wmma.load.
void mixedFamilies(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu)
#pragma sched cache_read(A, shared, As) cache_read(B, shared, Bs)
#pragma sched cache_read(As, wmma.matrix_a, Af) cache_read(Bs, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
#pragma sched tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, mma.load) tensorize(Cf.i, mma.m16n8k16) tensorize(i, mma.store)
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      float acc = 0.f;
      for (int k = 0; k < 16; ++k) acc += (float)A[i*16+k] * (float)B[k*8+j];
      C[i*8+j] = acc;
    }
}

// expected-warning@11 {{tensorize(Af.ax0, mma.load): `A[Af.ax0, Af.ax1]` is in global memory; mma.load is ldmatrix, which reads shared memory only: stage 'A' in shared memory (cache_read(A, shared, ...)) and load the fragment from there}}
// expected-warning@25 {{tensorize(i, mma.m16n8k16): the tile is 16 x 16 x 16 (loops 'i', 'j', 'k'); mma.m16n8k16 needs 16x8x16}}
// expected-warning@39 {{tensorize(Af.ax0, wmma.load): 'Af' is an operand of mma.m16n8k16; tensorize its copy with mma.load}}
