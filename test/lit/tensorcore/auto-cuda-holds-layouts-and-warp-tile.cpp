// tensorcore(auto)'s CUDA: the operand roles, their layouts (from the access
// order) and the warp tile (from the thread layout and each thread's
// accumulators), for NN, NT, TN and TT and for the three wmma shapes; the
// lane (threadIdx.x) is in no wmma argument.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda -I %S/../../e2e/Inputs %s 2>&1 | FileCheck %s --check-prefix=NN
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda -DTB=1 -I %S/../../e2e/Inputs %s 2>&1 | FileCheck %s --check-prefix=NT
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda -DTA=1 -I %S/../../e2e/Inputs %s 2>&1 | FileCheck %s --check-prefix=TN
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda -DTA=1 -DTB=1 -I %S/../../e2e/Inputs %s 2>&1 | FileCheck %s --check-prefix=TT
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda -DSHAPE=832 -I %S/../../e2e/Inputs %s 2>&1 | FileCheck %s --check-prefix=M8N32
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda -DSHAPE=328 -DTB=1 -I %S/../../e2e/Inputs %s 2>&1 | FileCheck %s --check-prefix=M32N8
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda -DINT8=1 -I %S/../../e2e/Inputs %s 2>&1 | FileCheck %s --check-prefix=INT8
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda -DINT8=1 -DTB=1 -I %S/../../e2e/Inputs %s 2>&1 | FileCheck %s --check-prefix=INT8NT
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda -DINT8=1 -DTA=1 -I %S/../../e2e/Inputs %s 2>&1 | FileCheck %s --check-prefix=INT8TN
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda -DINT8=1 -DTA=1 -DTB=1 -DSHAPE=328 -I %S/../../e2e/Inputs %s 2>&1 | FileCheck %s --check-prefix=INT8TT
#include "tensorcore_auto.cpp"

// NN: fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> Cf[2];
// NN: fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> Af[1];
// NN: fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half, nvcuda::wmma::row_major> Bf[2];
// NN: load_matrix_sync(Af[0], &As[ty * 256], 16);
// NN-NOT: ji
// NN: store_matrix_sync(&C[{{.*}}], Cf[tc_b], 64, nvcuda::wmma::mem_row_major);

// NT: matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> Af[1];
// NT: matrix_b, 16, 16, 16, half, nvcuda::wmma::col_major> Bf[2];
// TN: matrix_a, 16, 16, 16, half, nvcuda::wmma::col_major> Af[1];
// TN: matrix_b, 16, 16, 16, half, nvcuda::wmma::row_major> Bf[2];
// TT: matrix_a, 16, 16, 16, half, nvcuda::wmma::col_major> Af[1];
// TT: matrix_b, 16, 16, 16, half, nvcuda::wmma::col_major> Bf[2];

// M8N32: fragment<nvcuda::wmma::accumulator, 8, 32, 16, float> Cf[1];
// M32N8: fragment<nvcuda::wmma::accumulator, 32, 8, 16, float> Cf[1];

// INT8: fragment<nvcuda::wmma::accumulator, 8, 32, 16, int> Cf[2];
// INT8: matrix_a, 8, 32, 16, signed char, nvcuda::wmma::row_major> Af[2];
// INT8NT: matrix_a, 16, 16, 16, signed char, nvcuda::wmma::row_major> Af[1];
// INT8NT: matrix_b, 16, 16, 16, signed char, nvcuda::wmma::col_major> Bf[2];
// The int8 TN case stores A's shared stage transposed (k-major): row-major tiles.
// INT8TN: matrix_a, 8, 32, 16, signed char, nvcuda::wmma::row_major> Af[2];
// INT8TN: matrix_b, 8, 32, 16, signed char, nvcuda::wmma::row_major> Bf[1];
// INT8TT: fragment<nvcuda::wmma::accumulator, 32, 8, 16, int> Cf[1];
// INT8TT: matrix_a, 32, 8, 16, signed char, nvcuda::wmma::col_major> Af[1];
// INT8TT: matrix_b, 32, 8, 16, signed char, nvcuda::wmma::col_major> Bf[1];
