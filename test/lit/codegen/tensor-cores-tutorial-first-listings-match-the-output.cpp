// docs/tutorials/tensor-cores.md's first program: its dump=lowered and
// dump=cuda listings are the plugin's output, line for line (a change of the
// output fails this test: update the tutorial with it).
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=lowered %s 2>&1 | FileCheck %s --check-prefix=LOWERED
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA

// LOWERED:      allocate Af: float16[512] wmma.matrix_a {
// LOWERED-NEXT:   eval wmma.load_a(Af[0], A[0], 16, 0, 16, 16, 16)
// LOWERED-NEXT:   eval wmma.load_a(Af[256], A[256], 16, 0, 16, 16, 16)
// LOWERED-NEXT:   allocate Bf: float16[256] wmma.matrix_b {
// LOWERED-NEXT:     eval wmma.load_b(Bf[0], B[0], 16, 0, 16, 16, 16)
// LOWERED-NEXT:     allocate Cf: float32[512] wmma.accumulator {
// LOWERED-NEXT:       eval wmma.fill(Cf[0], 0.0f, 16, 16, 16)
// LOWERED-NEXT:       eval wmma.fill(Cf[256], 0.0f, 16, 16, 16)
// LOWERED-NEXT:       eval wmma.mma(Cf[0], Af[0], Bf[0], Cf[0], 16, 16, 16)
// LOWERED-NEXT:       eval wmma.mma(Cf[256], Af[256], Bf[0], Cf[256], 16, 16, 16)
// LOWERED-NEXT:       eval wmma.store(C[0], Cf[0], 16, 0, 16, 16, 16)
// LOWERED-NEXT:       eval wmma.store(C[256], Cf[256], 16, 0, 16, 16, 16)

// CUDA:      nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> Af[2];
// CUDA-NEXT: nvcuda::wmma::load_matrix_sync(Af[0], &A[0], 16);
// CUDA-NEXT: nvcuda::wmma::load_matrix_sync(Af[1], &A[256], 16);
// CUDA-NEXT: nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half, nvcuda::wmma::row_major> Bf[1];
// CUDA-NEXT: nvcuda::wmma::load_matrix_sync(Bf[0], &B[0], 16);
// CUDA-NEXT: nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> Cf[2];
// CUDA-NEXT: nvcuda::wmma::fill_fragment(Cf[0], 0.0f);
// CUDA-NEXT: nvcuda::wmma::fill_fragment(Cf[1], 0.0f);
// CUDA-NEXT: nvcuda::wmma::mma_sync(Cf[0], Af[0], Bf[0], Cf[0]);
// CUDA-NEXT: nvcuda::wmma::mma_sync(Cf[1], Af[1], Bf[0], Cf[1]);
// CUDA-NEXT: nvcuda::wmma::store_matrix_sync(&C[0], Cf[0], 16, nvcuda::wmma::mem_row_major);
// CUDA-NEXT: nvcuda::wmma::store_matrix_sync(&C[256], Cf[1], 16, nvcuda::wmma::mem_row_major);
void mm(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) bind(v, vthread)
#pragma sched cache_read(A, wmma.matrix_a, Af) cache_read(B, wmma.matrix_b, Bf) cache_write(C, wmma.accumulator, Cf)
#pragma sched compute_at(Cf, v) compute_at(Af, v) compute_at(Bf, v)
#pragma sched tensorize(Af.ax0, wmma.load) tensorize(Bf.ax0, wmma.load) tensorize(Cf.i, wmma.mma) tensorize(i, wmma.store)
  for (int v = 0; v < 2; ++v)
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        float acc = 0.f;
        for (int k = 0; k < 16; ++k) acc += (float)A[(v*16+i)*16+k] * (float)B[k*16+j];
        C[(v*16+i)*16+j] = acc;
      }
}
