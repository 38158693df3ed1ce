// A user's shared library built with sched: one annotated nest behind one
// exported function. Only `scale` may be in its dynamic symbol table.
extern "C" __attribute__((visibility("default"))) void scale(float *y, const float *x, int n) {
#pragma sched target(gpu) split(i, bx, tx, 64) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = 3.0f * x[i];
}
