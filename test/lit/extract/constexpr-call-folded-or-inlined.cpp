// A constexpr function called with constant arguments is its value (also a
// float, also recursive); with other arguments its one `return` statement is
// inlined, the parameters bound to the arguments (templates and static
// members too, default arguments included).
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

constexpr int tile() { return 8; }
constexpr int sq(int x) { return x * x; }
constexpr float scale() { return 0.5f * 3.0f; }
template <typename T> constexpr T lerp(T a, T b, T t) { return a + t * (b - a); }
struct Idx {
  static constexpr int at(int i, int j, int n) { return i * n + j; }
};
constexpr int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
constexpr int halve(int x, int d = 2) { return x / d; }

void f(float *y, const float *x, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < sq(n); ++i)
    for (int j = 0; j < tile(); ++j)
      y[Idx::at(i, j, tile())] = lerp(x[i], 1.f, scale()) + halve(j) + fact(4);
}
// CHECK-LABEL: func sched_
// CHECK: for (i, 0, (n*n)) {
// CHECK:   for (j, 0, 8) {
// CHECK:     y[i, j] = (((x[i] + (1.5f*(1.0f - x[i]))) + float32((j/2))) + 24.0f)
