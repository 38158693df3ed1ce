/* A C program with one annotated nest, linked with -lsched_runtime alone. */
#include <stdio.h>

static void saxpy(int n, float a, const float *x, float *y) {
#pragma sched target(gpu) split(i, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

int main(void) {
  float x[100], y[100];
  double sum = 0;
  for (int i = 0; i < 100; ++i) {
    x[i] = (float)(i % 13) * 0.5f;
    y[i] = (float)(i % 5) - 2.f;
  }
  saxpy(100, 1.5f, x, y);
  for (int i = 0; i < 100; ++i)
    sum += y[i] * ((i % 3) + 1);
  printf("saxpy checksum %.6f\n", sum);
  return 0;
}
