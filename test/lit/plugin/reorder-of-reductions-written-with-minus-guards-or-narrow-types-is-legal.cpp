// Instances of one commutative update may run in any order, however C writes
// it: `acc[0] -= x`, under a guard (`if (c) acc[0] -= x`, `if (c) acc += x`),
// into a narrow integer (`short`: `acc = short(int(acc) - int(x))`) or a
// float with a double operand (`acc = float(double(acc) - x)`). Reordering
// their loops is legal (the narrow and mixed forms were refused with "would
// reverse a dependence on 'acc'"). A guard that reads the accumulator is not
// a commutative update: that reorder stays an error.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void minusEq(float *acc, const float *x, int n, int m) {
#pragma sched target(gpu) bind(b, blockIdx.x) reorder(j, i)
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        acc[b] -= x[i * m + j];
}

void guarded(float *acc, const float *x, int n, int m) {
#pragma sched target(gpu) bind(b, blockIdx.x) reorder(j, i)
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        if (x[i * m + j] > b)
          acc[b] -= x[i * m + j];
}

void guardedScalar(float *out, const float *x, int n, int m) {
#pragma sched target(gpu) bind(i, threadIdx.x) reorder(k, j)
  for (int i = 0; i < n; ++i) {
    float acc = 0;
    for (int j = 0; j < m; ++j)
      for (int k = 0; k < m; ++k)
        if (j > k + i)
          acc += x[j * m + k];
    out[i] = acc;
  }
}

void narrowInteger(short *acc, const short *x, int n, int m) {
#pragma sched target(gpu) bind(b, blockIdx.x) reorder(j, i)
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        acc[b] -= x[i * m + j];
}

void floatWithDouble(float *acc, const double *x, int n, int m) {
#pragma sched target(gpu) bind(b, blockIdx.x) reorder(j, i)
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        acc[b] += x[i * m + j] * 0.5;
}

void guardReadsAccumulator(float *acc, const float *x, int n, int m) {
#pragma sched target(gpu) bind(b, blockIdx.x) reorder(j, i) // expected-error {{cannot reorder 'j' there: the new order would reverse a dependence on 'acc'}}
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        if (acc[b] > 0)
          acc[b] -= x[i * m + j];
}
