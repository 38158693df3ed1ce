// -fplugin-arg-sched-report: ptxas's measure of each kernel on each
// architecture the program embeds, as a remark at the nest, and the same lines
// in the nest's optimization record under emit-dir. The schedule is
// examples/gemm_vthread.cpp's: its shared stages As (64 rows of 8 floats, padded
// to 544 against bank conflicts) and Bs (8 x 64) are 4224 bytes, which ptxas
// must report.
// REQUIRES: nvrtc, ptxas
// RUN: rm -rf %t.dir
// RUN: %sched_cc -fplugin-arg-sched-report -fplugin-arg-sched-embed-archs=sm_80,sm_90 -fplugin-arg-sched-emit-dir=%t.dir -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=RECORD < %t.dir/sched_report_gives_registers_spills_and_shared_bytes_per_kernel_and_arch_23.opt.yaml
// Without the option, nothing is reported.
// RUN: %sched_cc -fsyntax-only %s 2>&1 | count 0

void gemm(const float *A, const float *B, float *C, int M, int N, int K) {
#pragma sched target(gpu)
#pragma sched tile(i, j, io, jo, ii, ji, 64, 64) split(k, ko, ki, 8)
#pragma sched split(ii, vy, ii1, nparts=2) split(ji, vx, ji1, nparts=2)
#pragma sched split(ii1, ty, ii2, nparts=8) split(ji1, tx, ji2, nparts=8)
#pragma sched reorder(io, jo, vy, vx, ty, tx, ko, ki, ii2, ji2)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(vy, vthread) bind(vx, vthread)
#pragma sched bind(ty, threadIdx.y) bind(tx, threadIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

// CHECK: report-gives-registers-spills-and-shared-bytes-per-kernel-and-arch.cpp:23:3: remark: sched: kernel 'sched_report_gives_{{.*}}_23' for sm_80: {{[1-9][0-9]*}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack, 4224 bytes shared
// CHECK: :23:3: remark: sched: kernel 'sched_report_gives_{{.*}}_23' for sm_90: {{[1-9][0-9]*}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack, 4224 bytes shared
// CHECK-NOT: remark

// RECORD:      Name: KernelResources
// RECORD-NEXT: DebugLoc: { File: '{{.*}}report-gives-registers-spills-and-shared-bytes-per-kernel-and-arch.cpp', Line: 23, Column: 3 }
// RECORD:      String: 'kernel ''sched_report_gives_{{.*}}_23'' for sm_80: {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack, 4224 bytes shared'
// RECORD:      Name: KernelResources
// RECORD:      for sm_90:
