// One elementwise op, B[i] = A[i] * 2 + 1 over n elements, scheduled three
// ways that must give the same result (docs/tutorials/virtual-threads.md):
//  - none:       one element per thread, 128 threads per block;
//  - interchange: each thread handles two elements 128 apart, written by
//                hand as split + reorder (a serial loop inside the thread);
//  - vthread:    the same two elements, written as a loop bound to vthread;
//                lowering turns it into two copies of the statement per
//                thread, so consecutive threads still touch consecutive
//                elements (coalesced) in each copy.
// n = 1000 is not a multiple of 256: the last block's guards matter.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void scale_none(int n, const float *a, float *b) {
#pragma sched target(gpu) split(i, bx, tx, 128) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i)
    b[i] = a[i] * 2.0f + 1.0f;
}

static void scale_interchange(int n, const float *a, float *b) {
#pragma sched target(gpu) split(i, bx, r, 256) split(r, j, tx, 128)
#pragma sched bind(bx, blockIdx.x) bind(tx, threadIdx.x) reorder(bx, tx, j)
  for (int i = 0; i < n; ++i)
    b[i] = a[i] * 2.0f + 1.0f;
}

static void scale_vthread(int n, const float *a, float *b) {
#pragma sched target(gpu) split(i, bx, r, 256) split(r, vx, tx, 128)
#pragma sched bind(bx, blockIdx.x) bind(vx, vthread) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i)
    b[i] = a[i] * 2.0f + 1.0f;
}

static void print(const char *Name, const std::vector<float> &b) {
  int n = static_cast<int>(b.size());
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += b[i] * ((i % 7) + 1);
  std::printf("%s checksum %.6f\n", Name, sum);
  std::printf("%s b[0] %.6f b[127] %.6f b[128] %.6f b[%d] %.6f\n", Name, b[0], b[127 % n],
              b[128 % n], n - 1, b[n - 1]);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  std::vector<float> a(n), none(n, -1.f), interchange(n, -1.f), vthread(n, -1.f);
  for (int i = 0; i < n; ++i)
    a[i] = float(i % 17) * 0.25f - 1.f;
  scale_none(n, a.data(), none.data());
  scale_interchange(n, a.data(), interchange.data());
  scale_vthread(n, a.data(), vthread.data());
  std::printf("vthread_elementwise n=%d\n", n);
  print("none", none);
  print("interchange", interchange);
  print("vthread", vthread);
  int mismatches = 0;
  for (int i = 0; i < n; ++i)
    mismatches += none[i] != interchange[i] || none[i] != vthread[i];
  std::printf("schedules agree: %s (%d mismatches)\n", mismatches ? "no" : "yes", mismatches);
  return mismatches != 0;
}
