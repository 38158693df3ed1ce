// emit-dir=DIR writes each nest's kernel as DIR/<nest>.cu and its launch
// descriptor as DIR/<nest>.desc (creating DIR).
// RUN: rm -rf %t.dir
// RUN: %sched_cc -fplugin-arg-sched-emit-dir=%t.dir -fsyntax-only %s
// RUN: FileCheck %s --check-prefix=CU < %t.dir/sched_emit_dir_writes_kernel_files_10.cu
// RUN: FileCheck %s --check-prefix=DESC < %t.dir/sched_emit_dir_writes_kernel_files_10.desc

void axpy(int n, float a, const float *x, float *y) {
#pragma sched split(i, io, ii, 64) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
// CU: extern "C" __global__ void {{(__launch_bounds__\([0-9]+\) )?}}sched_emit_dir_writes_kernel_files_10(
// DESC: kernel sched_emit_dir_writes_kernel_files_10
