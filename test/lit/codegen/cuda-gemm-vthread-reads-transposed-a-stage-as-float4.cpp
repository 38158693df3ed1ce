// The schedule of examples/gemm_vthread.cpp stages A as 64 rows x 8 k, and
// each thread's register tile reads 4 rows per k. LayoutSharedStages stores
// the stage transposed, As[k][row] with rows padded to 68 floats (the
// hand-written kernel's layout, bench/reference/gemm_vthread_ref.cu): the
// fetch stores it transposed, and the compute reads a thread's 4 rows at
// (ki*68 + ty*4) + ii2, contiguous in the unrolled ii2 from a multiple of 4,
// which nvcc loads as one ld.shared.v4.f32. With vectorize(ii2) (ii2 moved
// innermost) the emitter prints that load as a float4 itself; with As
// row-major the loop would be refused (stride 8) with a warning.
// RUN: %sched_cc -O2 -fsyntax-only -fplugin-arg-sched-dump=cuda %examples/gemm_vthread.cpp | FileCheck %s
// RUN: %sched_cc -O2 -fsyntax-only -fplugin-arg-sched-dump=cuda %s 2>&1 | FileCheck %s --check-prefix=VEC

// CHECK:     __shared__ __align__(16) float As[544];
// CHECK:     __shared__ __align__(16) float Bs[512];
// CHECK:     As[((tx * 68) + (As_k * 8)) + ty] = A[
// CHECK:      __syncthreads();
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int ki = 0; ki < 8; ++ki) {
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int ii2 = 0; ii2 < 4; ++ii2) {
// CHECK:     acc[(ii2 * 4) + ji2] = acc[(ii2 * 4) + ji2] + (As[((ki * 68) + (ty * 4)) + ii2] * Bs[((ki * 64) + (tx * 4)) + ji2]);
// CHECK:     (As[(((ki * 68) + (ty * 4)) + ii2) + 32] * Bs[

// VEC-NOT:   warning
// VEC:       __shared__ __align__(16) float As[544];
// VEC:       // vectorized loop 'ii2': 4 lanes
// VEC:       const float4 As_v = *reinterpret_cast<const float4 *>(&As[(ki * 68) + (ty * 4)]);
// VEC-NEXT:  acc[(0 * 4) + ji2] = acc[(0 * 4) + ji2] + (As_v.x * Bs[((ki * 64) + (tx * 4)) + ji2]);
// VEC:       const float4 As_v_2 = *reinterpret_cast<const float4 *>(&As[((ki * 68) + (ty * 4)) + 32]);

void gemm_vec(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu)
#pragma sched tile(i, j, io, jo, ii, ji, 64, 64) split(k, ko, ki, 8)
#pragma sched split(ii, vy, ii1, nparts=2) split(ji, vx, ji1, nparts=2)
#pragma sched split(ii1, ty, ii2, nparts=8) split(ji1, tx, ji2, nparts=8)
#pragma sched reorder(io, jo, vy, vx, ty, tx, ko, ki, ji2, ii2)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(vy, vthread) bind(vx, vthread)
#pragma sched bind(ty, threadIdx.y) bind(tx, threadIdx.x) vectorize(ii2)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}
