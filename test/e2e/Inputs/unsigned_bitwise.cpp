// C's integer conversions under sim: unsigned arithmetic that wraps, the
// usual arithmetic conversions of mixed types, literal suffixes, unsigned
// element types, bitwise operators and size_t / unsigned loops (with an
// `int i` compared against a size_t bound). Each nest must print what the
// plain build prints, for any n (0 and 1 included).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

void hash(int64_t *h, int n) {
#pragma sched target(gpu) split(i, bo, ti, 8) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    h[i] = int64_t(uint32_t(i) * 2654435761u);
}

void bits(uint8_t *y8, uint16_t *y16, uint32_t *y32, uint64_t *y64, const uint8_t *x8,
          const uint16_t *x16, const uint32_t *x32, const uint64_t *x64, std::size_t n) {
#pragma sched target(gpu) split(i, bo, ti, 4) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (std::size_t i = 0; i < n; ++i) {
    y8[i] = ~x8[i] ^ uint8_t(i << 5);
    y16[i] = uint16_t(x16[i] << 3) | (x16[i] >> 13);
    y32[i] = (x32[i] ^ (x32[i] >> 3)) + 0xFFFFFFF0u - uint32_t(i);
    y64[i] = x64[i] * 0x9E3779B97F4A7C15ull + (x64[i] >> 7) - (i & 3ul);
  }
}

void mixed(int64_t *a, int32_t *b, int8_t *c, const int8_t *x, std::size_t n, unsigned k) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < n; ++i) {
    a[i] = (i - 5) * k + 7ll;          // int converted to unsigned: wraps
    b[i] = (i - 5) / 2 + (-7 >> 1) + (1 << 4) % 5l;
    c[i] = int8_t(x[i] * 3 + 100);     // computed in int, truncated
  }
}

void stencil(uint32_t *s, const uint32_t *x, std::size_t n) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (std::size_t i = 1; i < n; ++i)
    s[i] = x[i - 1] + x[i] * 3u;
}

void unsignedCounter(uint16_t *y, const uint16_t *x, unsigned n) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (unsigned i = 0; i < n; ++i)
    y[i] = uint16_t(x[i] * x[i]) + uint16_t(i - 3u);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 37;
  const int Max = 64;
  static int64_t h[Max], a[Max];
  static int32_t b[Max];
  static int8_t c[Max], x8s[Max];
  static uint8_t y8[Max], x8[Max];
  static uint16_t y16[Max], x16[Max], u16[Max];
  static uint32_t y32[Max], x32[Max], s[Max];
  static uint64_t y64[Max], x64[Max];
  for (int i = 0; i < Max; ++i) {
    x8[i] = uint8_t(i * 37 + 11);
    x8s[i] = int8_t(i * 29 - 90);
    x16[i] = uint16_t(i * 4099 + 65000);
    x32[i] = uint32_t(i) * 2246822519u + 3266489917u;
    x64[i] = uint64_t(i) * 0xC2B2AE3D27D4EB4Full + 0xFFFFFFFFFFFFFFF0ull;
  }
  hash(h, n);
  bits(y8, y16, y32, y64, x8, x16, x32, x64, std::size_t(n));
  mixed(a, b, c, x8s, std::size_t(n), 3u);
  stencil(s, x32, std::size_t(n));
  unsignedCounter(u16, x16, unsigned(n));
  for (int i = 0; i < n; ++i)
    std::printf("%d %lld %u %u %u %llu %lld %d %d %u %u\n", i, (long long)h[i], unsigned(y8[i]),
                unsigned(y16[i]), y32[i], (unsigned long long)y64[i], (long long)a[i], b[i],
                int(c[i]), s[i], unsigned(u16[i]));
  std::printf("done %d\n", n);
  return 0;
}
