// Every loop form the extractor accepts, each in its own nest: the four
// comparisons in both orders (`i < n`, `i <= n`, `n > i`, `n >= i`), the four
// steps (`++i`, `i++`, `i += 1`, `i = i + 1`, `i = 1 + i`), counters and bounds of types
// int, unsigned, long and size_t, and mixed ones (an `int i` against a size_t
// or unsigned bound compares as unsigned: a negative start runs zero times; a
// `long i` against an unsigned bound compares as long). Each nest writes
// y[i] = 2i + 1 into its own row (y points 8 elements into it), so a lost or
// extra iteration (an inclusive bound read as exclusive, the `+ 1` of an
// unsigned `<=` dropped) shows in the printed rows. Arguments: n (the bound)
// and s (the start); the unsigned kernels take s converted as C converts it
// (s < 0 is a huge unsigned start: no iteration), and unsigned bounds are
// max(n, 0) so that no loop runs past its row.
#include <cstddef>
#include <cstdio>
#include <cstdlib>

using std::size_t;

#define SCHED_FORM _Pragma("sched target(gpu) split(i, io, ii, 4) bind(io, blockIdx.x) bind(ii, threadIdx.x)")

// int counter, int bound.
void intLess(float *y, int s, int n) {
  SCHED_FORM
  for (int i = s; i < n; ++i)
    y[i] = 2.f * i + 1.f;
}
void intLessEqual(float *y, int s, int n) {
  SCHED_FORM
  for (int i = s; i <= n; i++)
    y[i] = 2.f * i + 1.f;
}
void intGreater(float *y, int s, int n) {
  SCHED_FORM
  for (int i = s; n > i; i += 1)
    y[i] = 2.f * i + 1.f;
}
void intGreaterEqual(float *y, int s, int n) {
  SCHED_FORM
  for (int i = s; n >= i; i = i + 1)
    y[i] = 2.f * i + 1.f;
}

// unsigned counter, unsigned bound.
void unsignedLess(float *y, unsigned s, unsigned n) {
  SCHED_FORM
  for (unsigned i = s; i < n; i++)
    y[i] = 2.f * i + 1.f;
}
void unsignedLessEqual(float *y, unsigned s, unsigned n) {
  SCHED_FORM
  for (unsigned i = s; i <= n; ++i)
    y[i] = 2.f * i + 1.f;
}
void unsignedGreater(float *y, unsigned s, unsigned n) {
  SCHED_FORM
  for (unsigned i = s; n > i; i = i + 1)
    y[i] = 2.f * i + 1.f;
}
void unsignedGreaterEqual(float *y, unsigned s, unsigned n) {
  SCHED_FORM
  for (unsigned i = s; n >= i; i += 1)
    y[i] = 2.f * i + 1.f;
}

// size_t counter, size_t bound.
void sizeLess(float *y, size_t s, size_t n) {
  SCHED_FORM
  for (size_t i = s; i < n; i += 1)
    y[i] = 2.f * i + 1.f;
}
void sizeLessEqual(float *y, size_t s, size_t n) {
  SCHED_FORM
  for (size_t i = s; i <= n; i = i + 1)
    y[i] = 2.f * i + 1.f;
}
void sizeGreater(float *y, size_t s, size_t n) {
  SCHED_FORM
  for (size_t i = s; n > i; ++i)
    y[i] = 2.f * i + 1.f;
}
void sizeGreaterEqual(float *y, size_t s, size_t n) {
  SCHED_FORM
  for (size_t i = s; n >= i; i++)
    y[i] = 2.f * i + 1.f;
}

// long counter, long bound.
void longLess(float *y, long s, long n) {
  SCHED_FORM
  for (long i = s; i < n; i = i + 1)
    y[i] = 2.f * i + 1.f;
}
void longLessEqual(float *y, long s, long n) {
  SCHED_FORM
  for (long i = s; i <= n; i += 1)
    y[i] = 2.f * i + 1.f;
}
void longGreater(float *y, long s, long n) {
  SCHED_FORM
  for (long i = s; n > i; i++)
    y[i] = 2.f * i + 1.f;
}
void longGreaterEqual(float *y, long s, long n) {
  SCHED_FORM
  for (long i = s; n >= i; ++i)
    y[i] = 2.f * i + 1.f;
}

// int counter, size_t bound: compared as unsigned (a negative start is a
// huge value: no iteration).
void intSizeLess(float *y, int s, size_t n) {
  SCHED_FORM
  for (int i = s; i < n; ++i)
    y[i] = 2.f * i + 1.f;
}
void intSizeLessEqual(float *y, int s, size_t n) {
  SCHED_FORM
  for (int i = s; i <= n; i++)
    y[i] = 2.f * i + 1.f;
}
void intSizeGreater(float *y, int s, size_t n) {
  SCHED_FORM
  for (int i = s; n > i; i += 1)
    y[i] = 2.f * i + 1.f;
}
void intSizeGreaterEqual(float *y, int s, size_t n) {
  SCHED_FORM
  for (int i = s; n >= i; i = i + 1)
    y[i] = 2.f * i + 1.f;
}

// int counter, unsigned bound: compared as unsigned.
void intUnsignedLessEqual(float *y, int s, unsigned n) {
  SCHED_FORM
  for (int i = s; i <= n; ++i)
    y[i] = 2.f * i + 1.f;
}
void intUnsignedGreaterEqual(float *y, int s, unsigned n) {
  SCHED_FORM
  for (int i = s; n >= i; i++)
    y[i] = 2.f * i + 1.f;
}

// size_t and unsigned counters, int bound: compared as unsigned.
void sizeIntLess(float *y, size_t s, int n) {
  SCHED_FORM
  for (size_t i = s; i < n; ++i)
    y[i] = 2.f * i + 1.f;
}
void sizeIntGreaterEqual(float *y, size_t s, int n) {
  SCHED_FORM
  for (size_t i = s; n >= i; ++i)
    y[i] = 2.f * i + 1.f;
}
void unsignedIntLessEqual(float *y, unsigned s, int n) {
  SCHED_FORM
  for (unsigned i = s; i <= n; i += 1)
    y[i] = 2.f * i + 1.f;
}

// The step written `i = 1 + i`.
void intOnePlus(float *y, int s, int n) {
  SCHED_FORM
  for (int i = s; i <= n; i = 1 + i)
    y[i] = 2.f * i + 1.f;
}
void sizeOnePlus(float *y, size_t s, size_t n) {
  SCHED_FORM
  for (size_t i = s; n > i; i = 1 + i)
    y[i] = 2.f * i + 1.f;
}

// long counter, unsigned bound: compared as long (a negative start runs).
void longUnsignedLessEqual(float *y, long s, unsigned n) {
  SCHED_FORM
  for (long i = s; i <= n; ++i)
    y[i] = 2.f * i + 1.f;
}
void longUnsignedGreater(float *y, long s, unsigned n) {
  SCHED_FORM
  for (long i = s; n > i; i++)
    y[i] = 2.f * i + 1.f;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 13;
  int s = argc > 2 ? std::atoi(argv[2]) : 0;
  // Unsigned bounds are max(n, 0) (an unsigned `i <= n` at n = -1 would run
  // 2^32 times); unsigned starts are s converted (negative: a huge start).
  unsigned un = n < 0 ? 0u : unsigned(n);
  size_t zn = un;
  const int Forms = 29, Row = 64;
  static float Y[Forms][Row];
  for (auto &R : Y)
    for (float &V : R)
      V = -0.5f; // no form writes it (they write odd integers)
  int F = 0;
  intLess(Y[F++] + 8, s, n);
  intLessEqual(Y[F++] + 8, s, n);
  intGreater(Y[F++] + 8, s, n);
  intGreaterEqual(Y[F++] + 8, s, n);
  unsignedLess(Y[F++] + 8, s, un);
  unsignedLessEqual(Y[F++] + 8, s, un);
  unsignedGreater(Y[F++] + 8, s, un);
  unsignedGreaterEqual(Y[F++] + 8, s, un);
  sizeLess(Y[F++] + 8, unsigned(s), zn);
  sizeLessEqual(Y[F++] + 8, unsigned(s), zn);
  sizeGreater(Y[F++] + 8, unsigned(s), zn);
  sizeGreaterEqual(Y[F++] + 8, unsigned(s), zn);
  longLess(Y[F++] + 8, s, n);
  longLessEqual(Y[F++] + 8, s, n);
  longGreater(Y[F++] + 8, s, n);
  longGreaterEqual(Y[F++] + 8, s, n);
  intSizeLess(Y[F++] + 8, s, zn);
  intSizeLessEqual(Y[F++] + 8, s, zn);
  intSizeGreater(Y[F++] + 8, s, zn);
  intSizeGreaterEqual(Y[F++] + 8, s, zn);
  intUnsignedLessEqual(Y[F++] + 8, s, un);
  intUnsignedGreaterEqual(Y[F++] + 8, s, un);
  sizeIntLess(Y[F++] + 8, unsigned(s), int(un));
  sizeIntGreaterEqual(Y[F++] + 8, unsigned(s), int(un));
  unsignedIntLessEqual(Y[F++] + 8, s, int(un));
  intOnePlus(Y[F++] + 8, s, n);
  sizeOnePlus(Y[F++] + 8, unsigned(s), zn);
  longUnsignedLessEqual(Y[F++] + 8, s, un);
  longUnsignedGreater(Y[F++] + 8, s, un);
  if (F != Forms)
    return 1;
  for (int K = 0; K < Forms; ++K) {
    std::printf("%d:", K);
    for (int I = 0; I < Row; ++I)
      if (Y[K][I] != -0.5f)
        std::printf(" %d=%g", I, Y[K][I]);
    std::printf("\n");
  }
  std::printf("n=%d s=%d\n", n, s);
  return 0;
}
