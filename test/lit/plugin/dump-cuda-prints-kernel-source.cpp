// dump=cuda prints the generated CUDA translation unit of each nest.
// RUN: %sched_cc -fplugin-arg-sched-dump=cuda -fsyntax-only %s | FileCheck %s

void axpy(int n, float a, const float *x, float *y) {
#pragma sched split(i, io, ii, 64) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
// CHECK: // sched: [[NAME:sched_dump_cuda_prints_kernel_source_[0-9]+]] after cuda
// CHECK: extern "C" __global__ void {{(__launch_bounds__\([0-9]+\) )?}}[[NAME]](
// CHECK: threadIdx.x
