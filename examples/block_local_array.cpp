// A block-local array written by one thread distribution and read by another:
// each block loads a 64-element chunk into `tile` (one element per thread, 64
// threads), then 32 threads each produce two outputs from the chunk read in
// reversed order. set_scope puts `tile` in shared memory, so every thread
// reads elements other threads wrote: the barrier between the two loops is
// what makes it correct, and the simulator's race detector checks it is there.
// The last chunk is partial (n = 1000 is not a multiple of 64).
//
// Without the plugin this is ordinary C++ and its output is the reference.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void mirror_chunks(const float *In, float *Out, int n, int chunks) {
#pragma sched target(gpu) set_scope(tile, shared)
#pragma sched split(u, ut, ur, nparts=32)
#pragma sched bind(b, blockIdx.x) bind(t, threadIdx.x) bind(ut, threadIdx.x)
  for (int b = 0; b < chunks; ++b) {
    float tile[64];
    for (int t = 0; t < 64; ++t) {
      if (b * 64 + t < n)
        tile[t] = In[b * 64 + t] * 2.f;
      else
        tile[t] = 0.f;
    }
    for (int u = 0; u < 64; ++u)
      if (b * 64 + u < n)
        Out[b * 64 + u] = tile[63 - u] - tile[u];
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  int chunks = (n + 63) / 64;
  std::vector<float> In(n), Out(n, -1.f);
  for (int i = 0; i < n; ++i)
    In[i] = float((i * 37) % 101) / 10.f - 5.f;

  mirror_chunks(In.data(), Out.data(), n, chunks);

  double checksum = 0;
  for (int i = 0; i < n; ++i) checksum += Out[i] * ((i % 11) + 1);
  std::printf("mirror_chunks n=%d\n", n);
  std::printf("checksum %.6f\n", checksum);
  for (int i = 0; i < n; i += n / 9 + 1) std::printf("Out[%d] %.6f\n", i, Out[i]);
  return 0;
}
