// A shape is never taken under an assumption that fails once each loop over a
// size runs twice and fails more as sizes grow: in
// `Z[8*M*M*i + 8*M*i + 4*M*j + 2*M*k + 4*M + 2*l + 1]` rows of 4*M in a
// dimension of extent 2 would hold row j + 1 only if M <= 1, and the kernel
// would never run (the launcher would run the original loop at every real
// size; fuzzer seed 1916). A shape without that assumption is taken instead.
// `20 - n` (n columns of a row of 20) stays a valid assumption.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void accumulate(float *Z, const float *X, int M) {
#pragma sched target(gpu)
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < 2; ++k)
        for (int l = 0; l < M; ++l)
          Z[8 * M * M * i + 8 * M * i + 4 * M * j + 2 * M * k + 4 * M + 2 * l + 1] += X[l];
}
// CHECK-LABEL: func sched_{{.*}}(Z: float32*[6, ((M*2) + 2), 2, M, 2] global, X: float32*[M] global, M: int32) target=gpu {
// CHECK:         Z[i, (j + 1), k, l, 1] =

void clear(float P[400], int n) {
#pragma sched target(gpu)
  for (int r = 0; r < 20; ++r)
    for (int c = 0; c < n; ++c)
      P[r * 20 + c] = 0.f;
}
// CHECK-LABEL: func sched_{{.*}}(P: float32*[20, 20] global, n: int32) target=gpu assume((n <= 20)) {

// Rows of a run-time length are the caller's to size: every second column of
// a leading dimension (`G[i*ld + 2*k]`, k < M) needs 2*M - 1 <= ld, which
// equal sizes fail but a caller who passes ld = 2*M does not (fuzzer seed
// 1462).
void everySecondColumn(float *G, const float *E, int M, int ld) {
#pragma sched target(gpu)
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < M; ++k)
      G[i * ld + 2 * k] = E[i];
}
// CHECK-LABEL: func sched_{{.*}}(G: float32*[8, ld] global, E: float32*[8] global, M: int32, ld: int32) target=gpu assume({{.*}}) {
// CHECK:         G[i, (k*2)] = E[i]
