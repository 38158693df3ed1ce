// An array declared with one dimension and indexed `r*20 + c` gets the
// two-dimensional shape of the whole rows it holds (400 = 20 x 20; 410 holds
// 20 whole rows too), so that schedules see rows and columns. When an access
// reaches the partial last row (r = 20 of a 410-element array) the array
// keeps its declared shape. A parameter declared `float P[400]` is
// delinearized too, under a run-time assumption when the column bound is a
// parameter, and so is an array with a run-time row length.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

float G[400], H[410];

void copy() {
#pragma sched target(gpu)
  for (int r = 0; r < 20; ++r)
    for (int c = 0; c < 20; ++c)
      G[r * 20 + c] = H[r * 20 + c];
}
// CHECK-LABEL: func sched_{{.*}}(G: float32*[20, 20] global noalias, H: float32*[20, 20] global noalias) target=gpu {
// CHECK:         G[r, c] = H[r, c]

void clearPartialRow() {
#pragma sched target(gpu)
  for (int r = 0; r < 21; ++r)
    for (int c = 0; c < 10; ++c)
      H[r * 20 + c] = 0.f;
}
// CHECK-LABEL: func sched_{{.*}}(H: float32*[410] global noalias) target=gpu {
// CHECK:         H[((r*20) + c)] = 0.0f

void clear(float P[400], int n) {
#pragma sched target(gpu)
  for (int r = 0; r < 20; ++r)
    for (int c = 0; c < n; ++c)
      P[r * 20 + c] = 0.f;
}
// CHECK-LABEL: func sched_{{.*}}(P: float32*[20, 20] global, n: int32) target=gpu assume((n <= 20)) {
// CHECK:         P[r, c] = 0.0f

int Q[400];

void fillRows(int R, int C, int N) {
#pragma sched target(gpu)
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < N; ++c)
      Q[r * C + c] = 1;
}
// A row length known only at run time: as many rows as the accesses need,
// under the assumptions that a row holds its columns and the rows fit in
// the array.
// CHECK-LABEL: func sched_{{.*}}(Q: int32*[R, C] global noalias, R: int32, N: int32, C: int32) target=gpu assume((N <= C)) assume(((R*C) <= 400)) {
// CHECK:         Q[r, c] = 1
