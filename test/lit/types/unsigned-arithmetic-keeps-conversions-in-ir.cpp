// The IR keeps C's conversions: the unsigned casts and the unsigned literal
// of a multiplicative hash (computed in uint32, so it wraps, then widened),
// the usual arithmetic conversions of mixed operands (uint32 | uint64 is
// uint64), bitwise operators and shifts (typed by their left operand).
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s
#include <cstdint>

void hash(int64_t *h, uint32_t *g, int n) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    h[i] = int64_t(uint32_t(i) * 2654435761u);
    g[i] = ~g[i] & (uint32_t(i) << 3) | (g[i] >> 1) ^ 5ul;
  }
}
// CHECK-LABEL: func sched_{{.*}}(h: int64*[n] global, g: uint32*[n] global, n: int32)
// CHECK: h[i] = int64((uint32(i)*2654435761:uint32))
// CHECK: g[i] = uint32((uint64((~(g[i]) & (uint32(i) << uint32(3)))) | (uint64((g[i] >> uint32(1))) ^ 5:uint64)))
