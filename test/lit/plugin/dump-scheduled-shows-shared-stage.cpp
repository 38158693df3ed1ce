// cache_read and compute_at from #pragma sched lines: the scheduled nest
// holds the shared stage As inside ko, with its As.ax* loops, its region
// still the placeholders As.min<d>/As.ext<d>; bound inference (the first
// pass of print-after-all after NormalizeLoops) makes it A's 16x8 tile.
// RUN: %sched_cc -fplugin-arg-sched-dump=scheduled -fsyntax-only %s | FileCheck %s
// RUN: %sched_cc -fplugin-arg-sched-print-after-all -fsyntax-only %s | FileCheck %s --check-prefix=BOUNDS

void mm(const float (*A)[64], const float (*B)[64], float (*C)[64]) {
#pragma sched tile(i, j, io, jo, ii, ji, 16, 16) split(k, ko, ki, 8)
#pragma sched reorder(io, jo, ii, ji, ko, ki)
#pragma sched cache_read(A, shared, As) compute_at(As, ko)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ii, threadIdx.y) bind(ji, threadIdx.x)
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 64; ++k)
        acc += A[i][k] * B[k][j];
      C[i][j] = acc;
    }
}
// CHECK-LABEL: // sched: {{.*}} after scheduled
// CHECK:      for (ko, 0, 8) reduce {
// CHECK-NEXT:   allocate As: float32[As.ext0, As.ext1] shared {
// CHECK-NEXT:     for (As.ax0, 0, As.ext0) {
// CHECK-NEXT:       for (As.ax1, 0, As.ext1) {
// CHECK-NEXT:         As[As.ax0, As.ax1] = A[(As.min0 + As.ax0), (As.min1 + As.ax1)]
// CHECK:          for (ki, 0, 8) reduce {
// CHECK:            As[(((io*16) + ii) - As.min0), (((ko*8) + ki) - As.min1)]

// BOUNDS-LABEL: // sched: {{.*}} after BoundInference
// BOUNDS:      for (ko, 0, 8) reduce {
// BOUNDS-NEXT:   allocate As: float32[16, 8] shared {
// BOUNDS-NEXT:     for (As.ax0, 0, 16) {
// BOUNDS-NEXT:       for (As.ax1, 0, 8) {
// BOUNDS-NEXT:         As[As.ax0, As.ax1] = A[((io*16) + As.ax0), ((ko*8) + As.ax1)]
// BOUNDS:          for (ki, 0, 8) reduce {
// BOUNDS:            As[ii, ki]
// BOUNDS-LABEL: // sched: {{.*}} after VerifyThreadBindings
