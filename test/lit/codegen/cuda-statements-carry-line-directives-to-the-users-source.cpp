// The emitted CUDA carries #line directives back to the user's source, so
// profilers, compute-sanitizer and NVRTC's line info name the C++ line: the
// kernel (and what sched made: the stage's fill) is the nest's
// line, each statement of the nest its own line, and a directive is written
// only where the next line is not already the right one.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda %s | FileCheck %s

void scale(int n, const float *x, float *y, float *z) {
#pragma sched target(gpu) split(i, io, ii, 64) bind(io, blockIdx.x) bind(ii, threadIdx.x)
#pragma sched cache_read(x, shared, xs) compute_at(xs, io)
  for (int i = 0; i < n; ++i) {
    float t = 2.0f * x[i];
    y[i] = t + 1.0f;
    z[i] = t - 1.0f;
  }
}
// CHECK: #line 11 "{{.*}}cuda-statements-carry-line-directives-to-the-users-source.cpp"
// CHECK-NEXT: extern "C" __global__ void
// CHECK-NOT: #line
// CHECK: xs[(xs_k * 64) + xs_tx] = x[
// CHECK-NOT: #line
// CHECK: float t[1];
// CHECK-NEXT: #line 12 "{{.*}}cuda-statements-carry-line-directives-to-the-users-source.cpp"
// CHECK-NEXT: t[0] = __fmul_rn(2.0f, xs[ii]);
// CHECK-NEXT: y[{{.*}}] = t[0] + 1.0f;
// CHECK-NEXT: z[{{.*}}] = t[0] - 1.0f;
// CHECK: } else {
// CHECK: #line 11 "{{.*}}cuda-statements-carry-line-directives-to-the-users-source.cpp"
// CHECK-NEXT: xs[(xs_k_1 * 64) + xs_tx_1] = x[
