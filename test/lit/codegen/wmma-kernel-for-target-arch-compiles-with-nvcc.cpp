// The tensor-core GEMM emitted for -fplugin-arg-sched-arch=sm_90a compiles
// with nvcc for the architecture its header names.
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-arch=sm_90a -fplugin-arg-sched-emit-dir=%t %examples/wmma_gemm.cpp
// RUN: FileCheck %s < %t/sched_wmma_gemm_28.cu
// RUN: %nvcc -gencode arch=compute_90a,code=sm_90a -c %t/sched_wmma_gemm_28.cu -o %t/kernel.o
// CHECK: // Target architecture: sm_90a (nvcc -gencode arch=compute_90a,code=sm_90a).
// CHECK: wmma::mma_sync
