/* Calls the user's shared library (scale_lib.cpp) from C. */
#include <stdio.h>

void scale(float *y, const float *x, int n);

int main(void) {
  float x[200], y[200];
  double sum = 0;
  for (int i = 0; i < 200; ++i)
    x[i] = (float)(i % 7);
  scale(y, x, 200);
  for (int i = 0; i < 200; ++i)
    sum += y[i];
  printf("scale sum %.1f\n", sum);
  return 0;
}
