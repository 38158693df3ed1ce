// CUDA code computes what the IR says: unsigned literals carry their suffix
// (2654435761u, 5ull), conversions are explicit, ~ & | ^ << >> print as C.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=cuda %s | FileCheck %s
#include <cstdint>

void hash(int64_t *h, uint32_t *g, int n) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    h[i] = int64_t(uint32_t(i) * 2654435761u);
    g[i] = ~g[i] & (uint32_t(i) << 3) | (g[i] >> 1) ^ 5ul;
  }
}
// CHECK: void sched_{{.*}}(long long* __restrict__ h, unsigned int* __restrict__ g, int n)
// CHECK: h[i] = (long long)(((unsigned int)i) * 2654435761u);
// CHECK: g[i] = (unsigned int)(((unsigned long long)((~g[i]) & (((unsigned int)i) << 3u))) | (((unsigned long long)(g[i] >> 1u)) ^ 5ull));
