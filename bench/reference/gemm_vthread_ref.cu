// Hand-written reference for examples/gemm_vthread.cpp: C = A * B with A MxK,
// B KxN, C MxN, all row-major floats, in exactly that example's tiling: a
// block computes a 64x64 tile of C with 8x8 threads; each thread owns 2x2
// virtual threads of 4x4 elements strided by 32 rows and columns (rows
// by*64 + vy*32 + ty*4 + i, columns bx*64 + vx*32 + tx*4 + j: 8x8
// accumulators); k is staged 8 at a time through shared As and Bs, fetched
// cooperatively by the 64 threads. Launch: grid (ceil(N/64), ceil(M/64)),
// block (8, 8).
//
// Written the way an expert writes it, as the target the generated kernel
// is measured against (bench/codegen-report.sh):
//  - a block-uniform test picks a path without guards for full tiles; edge
//    blocks and the k remainder (K % 8) take the guarded path, which
//    zero-fills the loads instead of guarding the FMAs;
//  - accumulators and operands live in registers (every loop inside the
//    thread is unrolled), and each operand is loaded once per k and reused
//    across the register tile;
//  - As is stored transposed (k-major) and Bs k-major, so a thread reads its
//    4 contiguous rows or columns as one float4 (128-bit shared loads); As
//    rows are padded to 68 floats (a multiple of 4: float4 alignment stays)
//    so that the transposing stores of the fetch do not conflict;
//  - const __restrict__ operands, __launch_bounds__(64).
// It assumes nothing of M, N, K or the arrays' alignment beyond that of a
// float (global loads stay scalar), as the generated kernel cannot either.
// bench/reference/check-reference.sh checks it against a CPU GEMM.
//
// mirrors: examples/gemm_vthread.cpp

namespace {

constexpr int Tile = 64;  // block tile, rows and columns
constexpr int Step = 8;   // k per shared stage
constexpr int Threads = 64;
constexpr int APitch = Tile + 4;

// Loads the k-step at K0 of the block's A rows and B columns into As
// (transposed: As[k][row]) and Bs (Bs[k][col]). Thread T loads A row
// T / 8 + 8r, k T % 8 (a warp reads four 32-byte row segments) and B row r,
// column T (a warp reads 128 contiguous bytes). Guarded: out-of-range
// elements become 0, which adds nothing to the accumulators.
template <bool Guarded>
__device__ __forceinline__ void fetch(const float *__restrict__ A, const float *__restrict__ B,
                                      float (*As)[APitch], float (*Bs)[Tile], int M, int N,
                                      int K, int Row0, int Col0, int K0, int T) {
  const int AKk = T % Step, ARow = T / Step;
#pragma unroll
  for (int R = 0; R < Tile / Step; ++R) {
    int Row = ARow + R * Step;
    float V;
    if (Guarded)
      V = (Row0 + Row < M && K0 + AKk < K) ? A[(Row0 + Row) * K + K0 + AKk] : 0.f;
    else
      V = A[(Row0 + Row) * K + K0 + AKk];
    As[AKk][Row] = V;
  }
#pragma unroll
  for (int R = 0; R < Step; ++R) {
    float V;
    if (Guarded)
      V = (K0 + R < K && Col0 + T < N) ? B[(K0 + R) * N + Col0 + T] : 0.f;
    else
      V = B[(K0 + R) * N + Col0 + T];
    Bs[R][T] = V;
  }
}

// One k-step: for each k, the thread's 8 A values and 8 B values as four
// float4 shared loads, then the 64 FMAs of the 8x8 register tile.
__device__ __forceinline__ void compute(float (*As)[APitch], float (*Bs)[Tile], float (&Acc)[8][8],
                                        int Ty, int Tx) {
#pragma unroll
  for (int Kk = 0; Kk < Step; ++Kk) {
    float a[8], b[8];
#pragma unroll
    for (int V = 0; V < 2; ++V) {
      float4 av = *reinterpret_cast<const float4 *>(&As[Kk][V * 32 + Ty * 4]);
      float4 bv = *reinterpret_cast<const float4 *>(&Bs[Kk][V * 32 + Tx * 4]);
      a[V * 4 + 0] = av.x, a[V * 4 + 1] = av.y, a[V * 4 + 2] = av.z, a[V * 4 + 3] = av.w;
      b[V * 4 + 0] = bv.x, b[V * 4 + 1] = bv.y, b[V * 4 + 2] = bv.z, b[V * 4 + 3] = bv.w;
    }
#pragma unroll
    for (int I = 0; I < 8; ++I)
#pragma unroll
      for (int J = 0; J < 8; ++J)
        Acc[I][J] += a[I] * b[J];
  }
}

} // namespace

extern "C" __global__ void __launch_bounds__(Threads)
    gemm_vthread_ref(const float *__restrict__ A, const float *__restrict__ B,
                     float *__restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) float As[Step][APitch];
  __shared__ __align__(16) float Bs[Step][Tile];
  const int Tx = threadIdx.x, Ty = threadIdx.y, T = Ty * 8 + Tx;
  const int Row0 = blockIdx.y * Tile, Col0 = blockIdx.x * Tile;
  // Acc[vy*4 + i][vx*4 + j] is row Row0 + vy*32 + Ty*4 + i, column
  // Col0 + vx*32 + Tx*4 + j.
  float Acc[8][8];
#pragma unroll
  for (int I = 0; I < 8; ++I)
#pragma unroll
    for (int J = 0; J < 8; ++J)
      Acc[I][J] = 0.f;

  const bool Full = Row0 + Tile <= M && Col0 + Tile <= N; // block-uniform
  const int KFull = K / Step * Step;
  int K0 = 0;
  if (Full) {
    for (; K0 < KFull; K0 += Step) {
      fetch<false>(A, B, As, Bs, M, N, K, Row0, Col0, K0, T);
      __syncthreads();
      compute(As, Bs, Acc, Ty, Tx);
      __syncthreads();
    }
  }
  // Edge blocks, and the k remainder of full ones.
  for (; K0 < K; K0 += Step) {
    fetch<true>(A, B, As, Bs, M, N, K, Row0, Col0, K0, T);
    __syncthreads();
    compute(As, Bs, Acc, Ty, Tx);
    __syncthreads();
  }

#pragma unroll
  for (int I = 0; I < 8; ++I) {
    int Row = Row0 + (I / 4) * 32 + Ty * 4 + I % 4;
#pragma unroll
    for (int J = 0; J < 8; ++J) {
      int Col = Col0 + (J / 4) * 32 + Tx * 4 + J % 4;
      if (Full || (Row < M && Col < N))
        C[Row * N + Col] = Acc[I][J];
    }
  }
}
