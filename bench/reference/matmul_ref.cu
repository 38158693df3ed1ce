// Hand-written reference for examples/matmul.cpp: C = A * B with A MxK, B KxN,
// C MxN, all row-major floats, in exactly that example's tiling: a block
// computes a 64x64 tile of C with 8x8 threads, each thread an 8x8 sub-tile
// (rows by*64 + ty*8 + i, columns bx*64 + tx*8 + j), k split by 16, no shared
// memory: operands come straight from global memory. Launch: grid
// (ceil(N/64), ceil(M/64)), block (8, 8).
//
// Written the way an expert writes it, as the target the generated kernel
// is measured against (bench/codegen-report.sh):
//  - a block-uniform test picks a path without guards for full tiles; edge
//    blocks and the k remainder (K % 16) take the guarded path, which
//    zero-fills the loads instead of guarding the FMAs;
//  - the 8x8 accumulators and each k's 8 + 8 operands live in registers
//    (every loop inside the thread is unrolled), each operand loaded once
//    per k and reused across the register tile;
//  - const __restrict__ operands (read-only loads), __launch_bounds__(64).
// It assumes nothing of M, N, K or the arrays' alignment beyond that of a
// float, as the generated kernel cannot either: loads stay scalar.
// bench/reference/check-reference.sh checks it against a CPU GEMM.
//
// mirrors: examples/matmul.cpp

namespace {

constexpr int Tile = 64; // block tile, rows and columns
constexpr int Step = 16; // k per step of the outer k loop
constexpr int Sub = 8;   // each thread's sub-tile, rows and columns

// One k-step at K0: for each k the thread's 8 A values (one per row) and 8
// B values (one per column), then the 64 FMAs of the sub-tile. Guarded:
// out-of-range operands are 0 and add nothing.
template <bool Guarded>
__device__ __forceinline__ void step(const float *__restrict__ A, const float *__restrict__ B,
                                     float (&Acc)[Sub][Sub], int M, int N, int K, int Row,
                                     int Col, int K0) {
#pragma unroll
  for (int Kk = 0; Kk < Step; ++Kk) {
    const int Kg = K0 + Kk;
    float a[Sub], b[Sub];
#pragma unroll
    for (int I = 0; I < Sub; ++I)
      a[I] = !Guarded || (Row + I < M && Kg < K) ? A[(Row + I) * K + Kg] : 0.f;
#pragma unroll
    for (int J = 0; J < Sub; ++J)
      b[J] = !Guarded || (Kg < K && Col + J < N) ? B[Kg * N + Col + J] : 0.f;
#pragma unroll
    for (int I = 0; I < Sub; ++I)
#pragma unroll
      for (int J = 0; J < Sub; ++J)
        Acc[I][J] += a[I] * b[J];
  }
}

} // namespace

extern "C" __global__ void __launch_bounds__(Tile)
    matmul_ref(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
               int M, int N, int K) {
  const int Row0 = blockIdx.y * Tile, Col0 = blockIdx.x * Tile;
  const int Row = Row0 + threadIdx.y * Sub, Col = Col0 + threadIdx.x * Sub;
  float Acc[Sub][Sub];
#pragma unroll
  for (int I = 0; I < Sub; ++I)
#pragma unroll
    for (int J = 0; J < Sub; ++J)
      Acc[I][J] = 0.f;

  const bool Full = Row0 + Tile <= M && Col0 + Tile <= N; // block-uniform
  const int KFull = K / Step * Step;
  int K0 = 0;
  if (Full)
    for (; K0 < KFull; K0 += Step)
      step<false>(A, B, Acc, M, N, K, Row, Col, K0);
  // Edge blocks, and the k remainder of full ones.
  for (; K0 < K; K0 += Step)
    step<true>(A, B, Acc, M, N, K, Row, Col, K0);

#pragma unroll
  for (int I = 0; I < Sub; ++I)
#pragma unroll
    for (int J = 0; J < Sub; ++J)
      if (Full || (Row + I < M && Col + J < N))
        C[(Row + I) * N + Col + J] = Acc[I][J];
}
