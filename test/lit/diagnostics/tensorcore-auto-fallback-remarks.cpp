// tensorcore(auto) on nests that do not qualify, one per reason (fp32
// operands, k step not a multiple of 16, a max-reduction, a block of 48
// threads, a warp tile no wmma shape divides, rows 112 bytes apart, a float16
// accumulator, an int8 tile in global memory that cannot start 32-byte aligned): each gets a remark at the directive naming the loop or access
// and the reason, and the ordinary kernel, which
// test/e2e/tensorcore-auto-fallbacks-match-reference-under-sim.test runs.
// RUN: %sched_cc -fsyntax-only -Rpass=sched -Xclang -verify -I %S/../../e2e/Inputs %s
#include "tensorcore_auto_fallbacks.cpp"

// expected-remark@tensorcore_auto_fallbacks.cpp:* 8 {{sched: nest became kernel}}
// expected-remark@tensorcore_auto_fallbacks.cpp:10 {{tensorcore(auto) does not apply: operands float32 accumulated in float32; tensor cores multiply float16 into float32 or int8/uint8 into int32}}
// expected-remark@tensorcore_auto_fallbacks.cpp:24 {{tensorcore(auto) does not apply: the reduction loop 'ki' runs 8 times, not a multiple of 16 (the k of a wmma tile)}}
// expected-remark@tensorcore_auto_fallbacks.cpp:38 {{tensorcore(auto) does not apply: the reduction `select((acc[ir] > p[0]), acc[ir], p[0])` is not a multiply-add}}
// expected-remark@tensorcore_auto_fallbacks.cpp:54 {{tensorcore(auto) does not apply: the block has 48 threads, which is not a whole number of warps}}
// expected-remark@tensorcore_auto_fallbacks.cpp:67 {{tensorcore(auto) does not apply: a warp computes 4 x 32 outputs, which no wmma tile (16x16, 32x8, 8x32) divides}}
// expected-remark@tensorcore_auto_fallbacks.cpp:81 {{tensorcore(auto) does not apply: the rows of 'A' are 56 elements (112 bytes) apart; wmma needs a multiple of 32 bytes (pad the array or its stage with storage_align)}}
// expected-remark@tensorcore_auto_fallbacks.cpp:94 {{tensorcore(auto) does not apply: the accumulator is float16; tensor cores accumulate float16 products in float32 (declare the accumulator float)}}
// expected-remark@tensorcore_auto_fallbacks.cpp:107 {{tensorcore(auto) does not apply: with 16x16x16 tiles, a tile of 'A' starts at `A[(ko*16), ((io*32) + (ty*16))]`, not 32 bytes aligned (CUDA wants every wmma tile 32-byte aligned)}}
