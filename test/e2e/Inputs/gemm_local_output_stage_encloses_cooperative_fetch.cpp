// The classic GEMM of TVM's tutorials: C goes through a local stage Cl
// computed at the thread loop tx, and B through a shared stage Bs computed at
// ko inside it, whose fused copy loop is split and bound to threadIdx.x, the
// tag tx already holds (a cooperative fetch). That loop runs on the same
// threads and never touches Cl, so Cl stays one thread's (fuzzer seed 442).
#include <cstdio>
#include <cstdlib>
#include <vector>

static void gemm(const float *A, const float *B, float *C, int M, int N) {
#pragma sched target(gpu) tile(i, j, io, jo, ii, ji, 16, 16) split(k, ko, ki, 4)
#pragma sched split(ii, ty, ii2, nparts=8) split(ji, tx, ji2, nparts=8) reorder(io, jo, ty, tx, ko, ki, ii2, ji2)
#pragma sched cache_read(B, shared, Bs) compute_at(Bs, ko) cache_write(C, local, Cl)
#pragma sched compute_at(Cl, tx) fuse(Bs.ax0, Bs.ax1, Bs.f1) split(Bs.f1, Bs.o, Bs.t, 8)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x) bind(ty, threadIdx.y)
#pragma sched bind(tx, threadIdx.x) bind(Bs.t, threadIdx.x)
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      C[N * i + j] = 0.f;
      for (int k = 0; k < 16; ++k)
        C[N * i + j] += A[16 * i + k] * B[16 * j + k];
    }
  }
}

int main(int argc, char **argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 32;
  int N = argc > 2 ? std::atoi(argv[2]) : 48;
  std::vector<float> A(M * 16), B(N * 16), C(M * N, -1.f);
  unsigned seed = 77;
  auto next = [&] { seed = seed * 1103515245u + 12345u; return float((seed >> 16) % 9) - 4.f; };
  for (float &V : A) V = next();
  for (float &V : B) V = next();
  gemm(A.data(), B.data(), C.data(), M, N);
  double Sum = 0;
  for (size_t I = 0; I < C.size(); ++I)
    Sum += C[I] * double((I % 7) + 1);
  std::printf("gemm %dx%d checksum %.1f\n", M, N, Sum);
  for (size_t I = 0; I < C.size(); I += 29)
    std::printf("C[%zu] %.1f\n", I, C[I]);
  return 0;
}
