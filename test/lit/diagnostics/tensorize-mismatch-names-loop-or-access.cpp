// Each nest below breaks one rule of tensorize; the warning names the loop
// or access and why, at the directive, and the loop stays as written.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s
// (The expectations are at the end, by line.)

void shape16x8(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) bind(v, vthread)
#pragma sched cache_read(A, wmma.matrix_a, Af) cache_read(B, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
#pragma sched compute_at(Cf, v) compute_at(Af, v) compute_at(Bf, v)
#pragma sched tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, wmma.load) tensorize(Cf.i, wmma.mma) tensorize(i, wmma.store)
  for (int v = 0; v < 2; ++v)
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 8; ++j) {
        float acc = 0.f;
        for (int k = 0; k < 16; ++k) acc += (float)A[(v*16+i)*16+k] * (float)B[k*8+j];
        C[(v*16+i)*8+j] = acc;
      }
}

void floatOperands(const float *A, const float *B, float *C) {
#pragma sched target(gpu)
#pragma sched cache_read(A, wmma.matrix_a, Af) cache_read(B, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
#pragma sched tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, wmma.load) tensorize(Cf.i, wmma.mma) tensorize(i, wmma.store)
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      float acc = 0.f;
      for (int k = 0; k < 16; ++k) acc += A[i*16+k] * B[k*16+j];
      C[i*16+j] = acc;
    }
}

void copyNotTensorized(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu)
#pragma sched cache_read(A, wmma.matrix_a, Af) cache_read(B, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
#pragma sched tensorize(Bf.ax0, wmma.load) tensorize(Cf.i, wmma.mma) tensorize(i, wmma.store)
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      float acc = 0.f;
      for (int k = 0; k < 16; ++k) acc += (float)A[i*16+k] * (float)B[k*16+j];
      C[i*16+j] = acc;
    }
}

void threadInsideRegion(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) bind(v, threadIdx.y)
#pragma sched cache_read(A, wmma.matrix_a, Af) cache_read(B, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
#pragma sched compute_at(Cf, v) compute_at(Af, v) compute_at(Bf, v) bind(Af.ax1, threadIdx.x)
#pragma sched tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, wmma.load) tensorize(Cf.i, wmma.mma) tensorize(i, wmma.store)
  for (int v = 0; v < 2; ++v)
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        float acc = 0.f;
        for (int k = 0; k < 16; ++k) acc += (float)A[(v*16+i)*16+k] * (float)B[k*16+j];
        C[(v*16+i)*16+j] = acc;
      }
}
void laneDependentArguments(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) bind(w, threadIdx.x)
#pragma sched cache_read(A, wmma.matrix_a, Af) cache_read(B, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
#pragma sched compute_at(Cf, w) compute_at(Af, w) compute_at(Bf, w)
#pragma sched tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, wmma.load) tensorize(Cf.i, wmma.mma) tensorize(i, wmma.store)
  for (int w = 0; w < 32; ++w)
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        float acc = 0.f;
        for (int k = 0; k < 16; ++k) acc += (float)A[(w*16+i)*16+k] * (float)B[k*16+j];
        C[(w*16+i)*16+j] = acc;
      }
}

void maxReduction(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu)
#pragma sched cache_read(A, wmma.matrix_a, Af) cache_read(B, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
#pragma sched tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, wmma.load) tensorize(Cf.i, wmma.mma) tensorize(i, wmma.store)
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      float acc = 0.f;
      for (int k = 0; k < 16; ++k) { float p = (float)A[i*16+k] * (float)B[k*16+j]; acc = acc > p ? acc : p; }
      C[i*16+j] = acc;
    }
}

void unknownIntrinsic(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) tensorize(i, wmma.mmma)
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      float acc = 0.f;
      for (int k = 0; k < 16; ++k) acc += (float)A[i*16+k] * (float)B[k*16+j];
      C[i*16+j] = acc;
    }
}

void accumulatorAsReadStage(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) cache_read(A, wmma.accumulator, Af)
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      float acc = 0.f;
      for (int k = 0; k < 16; ++k) acc += (float)A[i*16+k] * (float)B[k*16+j];
      C[i*16+j] = acc;
    }
}

// expected-warning@10 {{tensorize(i, wmma.mma): the tile is 16 x 8 x 16 (loops 'i', 'j', 'k'); wmma supports 16x16x16, 32x8x16 and 8x32x16}}
// expected-warning@23 {{tensorize(i, wmma.mma): operands float32 and float32 accumulated in float32; wmma multiplies float16 into float32 or int8/uint8 into int32}}
// expected-warning@35 {{'Af' (wmma.matrix_a) is a tensor-core fragment, but `Af[Af.ax0, Af.ax1] = A[Af.ax0, Af.ax1]` touches it element by element: tensorize its copy loop with wmma.load}}
// expected-warning@48 {{tensorize(Af.ax0, wmma.load): loop 'Af.ax1' is bound to threadIdx.x; a tensor-core operation is executed by a whole warp, so no loop inside its region may be bound to a thread}}
// expected-warning@62 {{the tensor-core operation `wmma.load_a(Af[0, 0, 0, 0, 0], A[w, 0, 0], 16, 0, 16, 16, 16)` would differ between the lanes of a warp: its arguments depend on loop 'w', bound to threadIdx.x, which is the lane of the warp that executes it (bind warps to threadIdx.y and threadIdx.z)}}
// expected-warning@74 {{tensorize(i, wmma.mma): `p[0] = (float32(Af[i, k])*float32(Bf[k, j]))` is not the update `F[..] = F[..] + A[..]*B[..]` of an accumulator fragment F from fragments A (wmma.matrix_a) and B (wmma.matrix_b)}}
// expected-error@84 {{unknown tensor intrinsic 'wmma.mmma'; did you mean 'wmma.mma'?}}
// expected-error@94 {{cache_read to 'wmma.accumulator': an operand is cached in wmma.matrix_a or wmma.matrix_b}}
