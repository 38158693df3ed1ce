// (With pipeline(ko, stages=3): a ring of 3 unpadded, swizzled copies.)
// An fp16 GEMM scheduled as the fast tensor-core kernels are: a 128 x 128
// block tile over blockIdx, 2 x 2 warps (threadIdx.y, z) of 64 x 64 outputs
// each, threadIdx.x the 32 lanes along the columns (a thread's 128
// accumulators: 64 rows by 2 column groups 32 apart), A and B staged through
// shared memory 32 k at a time; tensorcore(auto) turns it into warp-wide
// operations (on sm_80: 4 x 8 mma.sync tiles of 16x8x16 per warp, fragments
// loaded once per k step of 16 and reused across the box, the stages filled
// 16 bytes at a time by cp.async). Prints a checksum and sampled outputs.
#include <cstdio>
#include <vector>

constexpr int M = 256, N = 128, K = 96;

void gemm(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, 128, 128) split(k, ko, ki, 32)
#pragma sched split(ii, wy, ir, 64) split(ji, wz, jc, 64) split(jc, jr, lane, 32)
#pragma sched reorder(io, jo, wy, wz, lane, ko, ki, ir, jr)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(wy, threadIdx.y) bind(wz, threadIdx.z)
#pragma sched bind(lane, threadIdx.x) pipeline(ko, stages=3)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += (float)A[i * K + k] * (float)B[k * N + j];
      C[i * N + j] = acc;
    }
}

int main() {
  // Small integers: every partial sum is exact in fp32, so any summation
  // order gives these numbers.
  std::vector<_Float16> A(M * K), B(K * N);
  std::vector<float> C(M * N);
  for (int x = 0; x < M * K; ++x)
    A[x] = (_Float16)((x * 7 + 3) % 9 - 4);
  for (int x = 0; x < K * N; ++x)
    B[x] = (_Float16)((x * 5 + 1) % 7 - 3);
  gemm(A.data(), B.data(), C.data());
  double Checksum = 0;
  for (int x = 0; x < M * N; ++x)
    Checksum += C[x] * (x % 13 + 1);
  printf("checksum %.1f\n", Checksum);
  for (int x = 0; x < M * N; x += 997)
    printf("C[%d][%d] = %.1f\n", x / N, x % N, C[x]);
}
