// Hand-written reference for examples/softmax.cpp: y[i][j] = exp(x[i][j] -
// max_j x[i][j]) / sum_j exp(x[i][j] - max), rows of m floats, in exactly
// that example's tiling: one block of 128 threads per row (grid (n)), thread
// t takes columns t, t + 128, ... of each of the three loops.
//
// Written the way an expert writes it, as the target the generated kernel
// is measured against (bench/codegen-report.sh):
//  - each thread's partial max and sum live in registers; a warp combines
//    its 32 partials with __shfl_xor_sync, lane 0 of each warp writes the
//    warp's total to shared memory, and after one barrier every warp combines
//    the four totals the same way (no second barrier to broadcast: each warp
//    has the total in registers);
//  - fmaxf and expf as the plain build computes them (no fast math), one
//    division per element as the source writes it;
//  - const __restrict__ input, __launch_bounds__(128).
// It assumes nothing of n or m.
//
// mirrors: examples/softmax.cpp

namespace {

constexpr int Threads = 128;
constexpr int Warps = Threads / 32;

__device__ float warpMax(float V) {
  for (int Mask = 16; Mask >= 1; Mask /= 2)
    V = fmaxf(V, __shfl_xor_sync(0xffffffffu, V, Mask));
  return V;
}

__device__ float warpSum(float V) {
  for (int Mask = 16; Mask >= 1; Mask /= 2)
    V = V + __shfl_xor_sync(0xffffffffu, V, Mask);
  return V;
}

} // namespace

extern "C" __global__ void __launch_bounds__(Threads)
    softmax_ref(const float *__restrict__ x, float *__restrict__ y, int n, int m) {
  __shared__ float MaxOfWarp[Warps], SumOfWarp[Warps];
  const int Row = blockIdx.x, T = threadIdx.x, Lane = T % 32, Warp = T / 32;
  const float *In = x + (long)Row * m;
  float *Out = y + (long)Row * m;

  float Mx = -INFINITY;
  for (int J = T; J < m; J += Threads)
    Mx = fmaxf(Mx, In[J]);
  Mx = warpMax(Mx);
  if (Lane == 0)
    MaxOfWarp[Warp] = Mx;
  __syncthreads();
  Mx = warpMax(Lane < Warps ? MaxOfWarp[Lane] : -INFINITY);

  float Sum = 0;
  for (int J = T; J < m; J += Threads)
    Sum += expf(In[J] - Mx);
  Sum = warpSum(Sum);
  if (Lane == 0)
    SumOfWarp[Warp] = Sum;
  __syncthreads();
  Sum = warpSum(Lane < Warps ? SumOfWarp[Lane] : 0.0f);

  for (int J = T; J < m; J += Threads)
    Out[J] = expf(In[J] - Mx) / Sum;
}
