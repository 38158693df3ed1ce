// The vthread + tensorize nest, with variants chosen by macros:
// NV virtual threads, an MT x NT x 16 tile, int8 or uint8 operands (INT8, UINT8), and
// column-major operands (COLA: A stored k-major, COLB: B stored n-major),
// and row lengths ALD/BLD of A and B where they differ from the tile's (the
// PTX ISA wants every row of a tile to start 32 bytes apart: an 8-wide fp16
// tile is read from rows of 16).
// Prints every output element.
#include <cstdio>

#ifndef NV
#define NV 2
#endif
#ifndef MT
#define MT 16
#endif
#ifndef NT
#define NT 16
#endif
#if INT8
typedef signed char In;
typedef int Acc;
#elif UINT8
typedef unsigned char In;
typedef int Acc;
#define INT8 1
#else
typedef _Float16 In;
typedef float Acc;
#endif
#if COLA
#ifndef ALD
#define ALD MT
#endif
#define AIDX(v, i, k) ((v) * 16 * ALD + (k) * ALD + (i))
#else
#define AIDX(v, i, k) (((v) * MT + (i)) * 16 + (k))
#endif
#if COLB
#define BIDX(k, j) ((j) * 16 + (k))
#else
#ifndef BLD
#define BLD NT
#endif
#define BIDX(k, j) ((k) * BLD + (j))
#endif

void mm(const In *A, const In *B, Acc *C) {
#pragma sched target(gpu) bind(v, vthread)
#pragma sched cache_read(A, wmma.matrix_a, Af) cache_read(B, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
#pragma sched compute_at(Cf, v) compute_at(Af, v) compute_at(Bf, v)
#pragma sched tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, wmma.load) tensorize(Cf.i, wmma.mma) tensorize(i, wmma.store)
  for (int v = 0; v < NV; ++v)
    for (int i = 0; i < MT; ++i)
      for (int j = 0; j < NT; ++j) {
        Acc acc = 0;
        for (int k = 0; k < 16; ++k) acc += (Acc)A[AIDX(v, i, k)] * (Acc)B[BIDX(k, j)];
        C[(v * MT + i) * NT + j] = acc;
      }
}

int main() {
  enum { ASize = NV * 32 * 32, BSize = 32 * 32 };
  static In A[ASize], B[BSize];
  static Acc C[NV * MT * NT];
  // fp16: values of several magnitudes, so that fp32 rounding of the sums
  // depends on their order; int8: the whole range.
  for (int x = 0; x < ASize; ++x)
#if INT8
    A[x] = (In)((x * 37 + 11) % 256 - 128);
#else
    A[x] = (In)((double)((x * 37) % 97 - 48) / 64.0 * (double)(1 << (x % 7)));
#endif
  for (int x = 0; x < BSize; ++x)
#if INT8
    B[x] = (In)((x * 53 + 5) % 256 - 128);
#else
    B[x] = (In)((double)((x * 29) % 89 - 44) / 32.0 * (double)(1 << (x % 5)));
#endif
  mm(A, B, C);
  for (int x = 0; x < NV * MT * NT; ++x)
#if INT8
    printf("%d\n", C[x]);
#else
    printf("%a\n", (double)C[x]);
#endif
}
