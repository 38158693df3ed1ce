// The nest, through the plugin: the CUDA kernel holds two A fragments
// and two accumulators (one per virtual thread) and one B fragment, one fill,
// A load, mma and store per virtual thread and a single B load, run by one
// warp (no thread bound: threadIdx.x is the lane).
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda %s 2>&1 | FileCheck %s

// CHECK: #include <mma.h>
// CHECK: extern "C" __global__ void {{(__launch_bounds__\([0-9]+\) )?}}sched_vthread_cuda_has_fragments_per_virtual_thread_{{[0-9]+}}(const half* __restrict__ A, const half* __restrict__ B, float* __restrict__ C)
// CHECK-NEXT: nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> Af[2];
// CHECK-NEXT: nvcuda::wmma::load_matrix_sync(Af[0], &A[0], 16);
// CHECK-NEXT: nvcuda::wmma::load_matrix_sync(Af[1], &A[256], 16);
// CHECK-NEXT: nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half, nvcuda::wmma::row_major> Bf[1];
// CHECK-NEXT: nvcuda::wmma::load_matrix_sync(Bf[0], &B[0], 16);
// CHECK-NEXT: nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> Cf[2];
// CHECK-NEXT: nvcuda::wmma::fill_fragment(Cf[0], 0.0f);
// CHECK-NEXT: nvcuda::wmma::fill_fragment(Cf[1], 0.0f);
// CHECK-NEXT: nvcuda::wmma::mma_sync(Cf[0], Af[0], Bf[0], Cf[0]);
// CHECK-NEXT: nvcuda::wmma::mma_sync(Cf[1], Af[1], Bf[0], Cf[1]);
// CHECK-NEXT: nvcuda::wmma::store_matrix_sync(&C[0], Cf[0], 16, nvcuda::wmma::mem_row_major);
// CHECK-NEXT: nvcuda::wmma::store_matrix_sync(&C[256], Cf[1], 16, nvcuda::wmma::mem_row_major);
// CHECK-NEXT: }

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
