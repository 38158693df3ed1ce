// A nest inside a lambda uses captured variables as parameters.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void run(float *y, const float *x, int n) {
  auto body = [&] {
#pragma sched target(gpu)
    for (int i = 0; i < n; ++i)
      y[i] = x[i] + 1.f;
  };
  body();
}
// CHECK-LABEL: func sched_{{.*}}(y: float32*[n] global, x: float32*[n] global, n: int32)
// CHECK:         y[i] = (x[i] + 1.0f)
