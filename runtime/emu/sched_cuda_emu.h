//===- sched_cuda_emu.h - The CUDA an emitted kernel uses, as host C++ ---===//
//
// The `emu` backend (runtime/emu/EmuBackend.cpp) compiles a kernel's emitted
// CUDA text unchanged as host C++ with this header force-included
// (`-include`; include/cuda_fp16.h and include/mma.h only include it), so
// that the tests execute what the CUDA emitter printed, not the IR the
// simulator interprets. It provides exactly what lowering/codegen/
// CodeGenCUDA.cpp prints, computing what a GPU computes:
//
//  - qualifiers (__global__, __device__, __forceinline__, __align__, ...);
//    `__shared__` makes a variable a static in the section sched_emu_shared,
//    which the runtime finds through the linker's __start_/__stop_ symbols
//    and poisons (0xFF bytes) before each block; `used` keeps the compiler
//    from folding loads of it (GlobalOpt would otherwise treat a never-
//    stored static as a constant and hide the poison);
//  - threadIdx, blockIdx, blockDim, gridDim, warpSize: the scheduler writes
//    the running thread's values into this object's sched_emu_regs;
//  - __syncthreads and the warp collectives (__syncwarp, the __shfl_*_sync
//    family, nvcuda::wmma, and the PTX instructions of the mma.sync path)
//    go through the runtime's barrier and warp rendezvous, which check that
//    the lanes agree and report divergence as an error;
//  - half (cuda_fp16.h): IEEE binary16 storage; each operation computes in
//    float and rounds once to nearest-even, which for + - * / of two halves
//    is the correctly rounded result (float has more than 2*11+2 bits), as
//    on a GPU; conversions use the compiler's _Float16, so they are the
//    plain host build's bit for bit;
//  - nvcuda::wmma: a fragment holds its tile's elements spread over the
//    warp (element e of the row-major tile in lane e % 32, slot e / 32);
//    mma_sync sums each element in ascending k with fp32 rounding after each
//    addition (fp16 products are exact in fp32), int8 in wrapping int32: the
//    plain C++ loop's order, as the simulator does;
//  - the PTX wrappers the emitter keeps behind `#ifndef SCHED_CUDA_EMU`
//    (sched_lane, sched_ptx_ldmatrix_*, sched_ptx_mma_m16n8k16), written
//    from the PTX ISA's fragment layouts: lanes 8j..8j+7 give the row
//    addresses of 8x8 matrix j of ldmatrix and register j of lane L gets row
//    L/4, columns 2(L%4) and 2(L%4)+1 (.trans: of the transpose); mma.sync
//    m16n8k16 with g = L/4, t = L%4: a_i at row g + 8*(i/2%2), column
//    2t + i%2 + 8*(i>=4); b_i at row 2t + i%2 + 8*(i>=2), column g; c_i at
//    row g + 8*(i>=2), column 2t + i%2. The emitter's own lane formulas
//    (sched_ldmatrix_a, sched_mma_store, ...) stay in the emitted text and
//    are what this tests.
//
// SCHED_EMU_ENTRY(kernel), appended by the runtime after the source,
// defines the object's two entry points (sched_emu_abi.h).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_CUDA_EMU_H
#define SCHED_CUDA_EMU_H

#define SCHED_CUDA_EMU 1

#include "sched_emu_abi.h"

#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>

//===--- Qualifiers ---------------------------------------------------------===//

#define __global__ __attribute__((visibility("default")))
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(N) __attribute__((aligned(N)))
#define __launch_bounds__(...)
#define __shared__ static __attribute__((section("sched_emu_shared"), used))

extern "C" char __start_sched_emu_shared[] __attribute__((weak, visibility("hidden")));
extern "C" char __stop_sched_emu_shared[] __attribute__((weak, visibility("hidden")));

namespace sched_emu {

static const sched_emu_api *api;
static sched_emu_regs regs;

/// Stops the launch with a formatted message.
[[noreturn]] __attribute__((format(printf, 1, 2))) inline void fail(const char *Format, ...) {
  char Message[512];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Message, sizeof(Message), Format, Args);
  va_end(Args);
  api->fail(Message);
  __builtin_unreachable();
}

/// Arrives at a warp collective; returns once `Run` has run for the warp.
inline void collective(const char *Op, unsigned Line, unsigned Mask, const long long *Uniform,
                       const char *const *Names, unsigned Count, void *Lane,
                       void (*Run)(void *const *, unsigned)) {
  sched_emu_collective C = {Op, Line, Mask, Uniform, Names, Count, Lane, Run};
  api->collective(&C);
}

/// Where P lies relative to the running thread's stack: the same fragment
/// of every lane has the same offset (their stacks are laid out alike).
inline long long frameOffset(const void *P) {
  return static_cast<long long>(static_cast<const char *>(P) - regs.stack_top);
}

template <class To, class From> inline To bitCast(const From &F) {
  static_assert(sizeof(To) == sizeof(From), "bitCast between types of different sizes");
  To T;
  std::memcpy(&T, &F, sizeof(To));
  return T;
}

/// Calls kernel F with the cuLaunchKernel argument array: Args[i] is the
/// address of parameter i's value.
template <class... Ts, size_t... I>
inline void invokeWith(void (*F)(Ts...), void **Args, std::index_sequence<I...>) {
  F(*static_cast<typename std::remove_cv<Ts>::type *>(Args[I])...);
}
template <class... Ts> inline void invoke(void (*F)(Ts...), void **Args) {
  invokeWith(F, Args, std::index_sequence_for<Ts...>());
}

} // namespace sched_emu

#define SCHED_EMU_ENTRY(KERNEL)                                                                    \
  extern "C" __attribute__((visibility("default"))) void sched_emu_bind(const sched_emu_api *Api,  \
                                                                        sched_emu_module *Out) {   \
    sched_emu::api = Api;                                                                          \
    Out->version = SCHED_EMU_ABI_VERSION;                                                          \
    Out->regs = &sched_emu::regs;                                                                  \
    Out->shared_begin = __start_sched_emu_shared;                                                  \
    Out->shared_end = __stop_sched_emu_shared;                                                     \
  }                                                                                                \
  extern "C" __attribute__((visibility("default"))) void sched_emu_kernel(void **Args) {           \
    sched_emu::invoke(KERNEL, Args);                                                               \
  }

//===--- Built-in variables -------------------------------------------------===//

typedef sched_emu_uint3 uint3;
struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
};
static const uint3 &threadIdx = sched_emu::regs.thread_idx;
static const uint3 &blockIdx = sched_emu::regs.block_idx;
static const uint3 &blockDim = sched_emu::regs.block_dim;
static const uint3 &gridDim = sched_emu::regs.grid_dim;
static constexpr int warpSize = 32;

//===--- Barriers and warp collectives ---------------------------------------===//

static inline void __syncthreads(unsigned Line = __builtin_LINE()) {
  sched_emu::api->syncthreads(Line);
}

static inline void __syncwarp(unsigned Mask = 0xffffffffu, unsigned Line = __builtin_LINE()) {
  sched_emu::collective("__syncwarp", Line, Mask, nullptr, nullptr, 0, nullptr,
                        [](void *const *, unsigned) {});
}

namespace sched_emu {

enum class Shfl { Idx, Up, Down, Xor };

struct ShflLane {
  unsigned long long Value, Result;
  long long Arg; // srcLane, delta or laneMask
  int Width;
};

/// The shuffles as the CUDA guide defines them: within groups of Width
/// lanes, idx reads lane srcLane mod Width of the group, up/down read
/// delta lanes below/above and keep their own value past the group's edge,
/// xor reads lane ^ laneMask and keeps its own value past the group's end.
/// Reading a lane outside the mask is an error (CUDA: undefined).
template <Shfl Kind> void shflRun(void *const *Lanes, unsigned Mask) {
  static const char *const Names[] = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                                      "__shfl_xor_sync"};
  for (unsigned L = 0; L < 32; ++L) {
    if (!(Mask >> L & 1))
      continue;
    ShflLane *S = static_cast<ShflLane *>(Lanes[L]);
    unsigned W = static_cast<unsigned>(S->Width), Base = L & ~(W - 1), Src = L;
    switch (Kind) {
    case Shfl::Idx:
      Src = Base + (static_cast<unsigned>(S->Arg) & (W - 1));
      break;
    case Shfl::Up:
      Src = L - Base >= static_cast<unsigned>(S->Arg) ? L - static_cast<unsigned>(S->Arg) : L;
      break;
    case Shfl::Down:
      Src = L - Base + static_cast<unsigned>(S->Arg) < W ? L + static_cast<unsigned>(S->Arg) : L;
      break;
    case Shfl::Xor:
      Src = L ^ (static_cast<unsigned>(S->Arg) & 31);
      if (Src >= Base + W)
        Src = L;
      break;
    }
    if (!(Mask >> Src & 1))
      fail("%s: lane %u reads lane %u, which is not in the mask 0x%08x", Names[int(Kind)], L, Src,
           Mask);
    S->Result = static_cast<ShflLane *>(Lanes[Src])->Value;
  }
}

template <Shfl Kind, class T>
inline T shfl(const char *Op, unsigned Mask, T Var, long long Arg, int Width, unsigned Line) {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8,
                "a shuffle moves a value of at most 64 bits");
  if (Width < 1 || Width > 32 || (Width & (Width - 1)))
    fail("%s (line %u): width %d is not a power of 2 from 1 to 32", Op, Line, Width);
  ShflLane S = {0, 0, Arg, Width};
  std::memcpy(&S.Value, &Var, sizeof(T));
  static const char *const Names[] = {"width"};
  long long Uniform[] = {Width};
  collective(Op, Line, Mask, Uniform, Names, 1, &S, &shflRun<Kind>);
  T Out;
  std::memcpy(&Out, &S.Result, sizeof(T));
  return Out;
}

} // namespace sched_emu

template <class T>
static inline T __shfl_sync(unsigned Mask, T Var, int SrcLane, int Width = warpSize,
                            unsigned Line = __builtin_LINE()) {
  return sched_emu::shfl<sched_emu::Shfl::Idx>("__shfl_sync", Mask, Var, SrcLane, Width, Line);
}
template <class T>
static inline T __shfl_up_sync(unsigned Mask, T Var, unsigned Delta, int Width = warpSize,
                               unsigned Line = __builtin_LINE()) {
  return sched_emu::shfl<sched_emu::Shfl::Up>("__shfl_up_sync", Mask, Var, Delta, Width, Line);
}
template <class T>
static inline T __shfl_down_sync(unsigned Mask, T Var, unsigned Delta, int Width = warpSize,
                                 unsigned Line = __builtin_LINE()) {
  return sched_emu::shfl<sched_emu::Shfl::Down>("__shfl_down_sync", Mask, Var, Delta, Width, Line);
}
template <class T>
static inline T __shfl_xor_sync(unsigned Mask, T Var, int LaneMask, int Width = warpSize,
                                unsigned Line = __builtin_LINE()) {
  return sched_emu::shfl<sched_emu::Shfl::Xor>("__shfl_xor_sync", Mask, Var, LaneMask, Width, Line);
}

//===--- Arithmetic -----------------------------------------------------------===//

// CUDA's integer and floating-point min/max overloads (math_functions.hpp).
#define SCHED_EMU_MINMAX(A, B, R)                                                                  \
  static inline R min(A X, B Y) { return static_cast<R>(X) < static_cast<R>(Y) ? X : Y; }          \
  static inline R max(A X, B Y) { return static_cast<R>(X) > static_cast<R>(Y) ? X : Y; }
SCHED_EMU_MINMAX(int, int, int)
SCHED_EMU_MINMAX(unsigned, unsigned, unsigned)
SCHED_EMU_MINMAX(int, unsigned, unsigned)
SCHED_EMU_MINMAX(unsigned, int, unsigned)
SCHED_EMU_MINMAX(long, long, long)
SCHED_EMU_MINMAX(unsigned long, unsigned long, unsigned long)
SCHED_EMU_MINMAX(long, unsigned long, unsigned long)
SCHED_EMU_MINMAX(unsigned long, long, unsigned long)
SCHED_EMU_MINMAX(long long, long long, long long)
SCHED_EMU_MINMAX(unsigned long long, unsigned long long, unsigned long long)
SCHED_EMU_MINMAX(long long, unsigned long long, unsigned long long)
SCHED_EMU_MINMAX(unsigned long long, long long, unsigned long long)
#undef SCHED_EMU_MINMAX
static inline float min(float X, float Y) { return fminf(X, Y); }
static inline float max(float X, float Y) { return fmaxf(X, Y); }
static inline double min(double X, double Y) { return fmin(X, Y); }
static inline double max(double X, double Y) { return fmax(X, Y); }

// Round-to-nearest products that the device compiler never fuses with an add
// (the emitter prints a stored product through them); the host never fuses.
static inline float __fmul_rn(float X, float Y) { return X * Y; }
static inline double __dmul_rn(double X, double Y) { return X * Y; }
static inline float __int_as_float(int X) { return sched_emu::bitCast<float>(X); }
static inline int __float_as_int(float X) { return sched_emu::bitCast<int>(X); }
static inline unsigned __float_as_uint(float X) { return sched_emu::bitCast<unsigned>(X); }
static inline float __uint_as_float(unsigned X) { return sched_emu::bitCast<float>(X); }
static inline double __longlong_as_double(long long X) { return sched_emu::bitCast<double>(X); }
static inline long long __double_as_longlong(double X) { return sched_emu::bitCast<long long>(X); }

// Atomics: the block's threads are fibers of one OS thread that switch only
// at barriers and collectives, so a read-modify-write is atomic as written.
// Each returns the old value, as CUDA's do.
namespace sched_emu {
template <class T, class U, class F> inline T atomicUpdate(T *P, U V, F Op) {
  T Old = *P;
  *P = static_cast<T>(Op(Old, static_cast<T>(V)));
  return Old;
}
} // namespace sched_emu
template <class T, class U> static inline T atomicAdd(T *P, U V) {
  return sched_emu::atomicUpdate(P, V, [](T A, T B) { return A + B; });
}
template <class T, class U> static inline T atomicMin(T *P, U V) {
  return sched_emu::atomicUpdate(P, V, [](T A, T B) { return B < A ? B : A; });
}
template <class T, class U> static inline T atomicMax(T *P, U V) {
  return sched_emu::atomicUpdate(P, V, [](T A, T B) { return A < B ? B : A; });
}
template <class T, class U> static inline T atomicAnd(T *P, U V) {
  return sched_emu::atomicUpdate(P, V, [](T A, T B) { return A & B; });
}
template <class T, class U> static inline T atomicOr(T *P, U V) {
  return sched_emu::atomicUpdate(P, V, [](T A, T B) { return A | B; });
}
template <class T, class U> static inline T atomicXor(T *P, U V) {
  return sched_emu::atomicUpdate(P, V, [](T A, T B) { return A ^ B; });
}
static inline unsigned atomicInc(unsigned *P, unsigned Limit) {
  unsigned Old = *P;
  *P = Old >= Limit ? 0u : Old + 1u;
  return Old;
}
// Blocks run one after another: every write is visible to later blocks.
static inline void __threadfence() {}
template <class T> static inline T atomicCAS(T *P, T Compare, T V) {
  T Old = *P;
  if (Old == Compare)
    *P = V;
  return Old;
}

//===--- half (cuda_fp16.h) ---------------------------------------------------===//

namespace sched_emu {
inline unsigned short toHalfBits(float F) {
  return bitCast<unsigned short>(static_cast<_Float16>(F));
}
inline unsigned short toHalfBits(double D) {
  return bitCast<unsigned short>(static_cast<_Float16>(D));
}
inline float fromHalfBits(unsigned short H) { return static_cast<float>(bitCast<_Float16>(H)); }
} // namespace sched_emu

struct __half {
  unsigned short __x;
  __half() = default;
  __half(float F) : __x(sched_emu::toHalfBits(F)) {}
  __half(double D) : __x(sched_emu::toHalfBits(D)) {}
  __half(int I) : __x(sched_emu::bitCast<unsigned short>(static_cast<_Float16>(I))) {}
  __half(unsigned I) : __x(sched_emu::bitCast<unsigned short>(static_cast<_Float16>(I))) {}
  __half(long long I) : __x(sched_emu::bitCast<unsigned short>(static_cast<_Float16>(I))) {}
  __half(unsigned long long I)
      : __x(sched_emu::bitCast<unsigned short>(static_cast<_Float16>(I))) {}
  operator float() const { return sched_emu::fromHalfBits(__x); }
};
typedef __half half;
static_assert(sizeof(half) == 2 && std::is_trivial<half>::value, "half is two plain bytes");

static inline half __ushort_as_half(unsigned short X) {
  half H;
  H.__x = X;
  return H;
}
static inline unsigned short __half_as_ushort(half H) { return H.__x; }
static inline half __float2half(float F) { return __ushort_as_half(sched_emu::toHalfBits(F)); }
static inline half __float2half_rn(float F) { return __float2half(F); }
static inline half __double2half(double D) { return __ushort_as_half(sched_emu::toHalfBits(D)); }
static inline float __half2float(half H) { return sched_emu::fromHalfBits(H.__x); }

static inline half __hadd(half A, half B) {
  return __float2half(__half2float(A) + __half2float(B));
}
static inline half __hsub(half A, half B) {
  return __float2half(__half2float(A) - __half2float(B));
}
static inline half __hmul(half A, half B) {
  return __float2half(__half2float(A) * __half2float(B));
}
static inline half __hmul_rn(half A, half B) { return __hmul(A, B); }
static inline half __hdiv(half A, half B) {
  return __float2half(__half2float(A) / __half2float(B));
}
static inline half __hneg(half A) {
  return __ushort_as_half(static_cast<unsigned short>(A.__x ^ 0x8000u));
}
// NaN-avoiding like fminf: either NaN input gives the other operand.
static inline half __hmin(half A, half B) {
  return __float2half(fminf(__half2float(A), __half2float(B)));
}
static inline half __hmax(half A, half B) {
  return __float2half(fmaxf(__half2float(A), __half2float(B)));
}
static inline bool __hisnan(half A) { return (A.__x & 0x7fff) > 0x7c00; }

static inline half operator+(const half &A, const half &B) { return __hadd(A, B); }
static inline half operator-(const half &A, const half &B) { return __hsub(A, B); }
static inline half operator*(const half &A, const half &B) { return __hmul(A, B); }
static inline half operator/(const half &A, const half &B) { return __hdiv(A, B); }
static inline half operator-(const half &A) { return __hneg(A); }
static inline half operator+(const half &A) { return A; }
static inline half &operator+=(half &A, const half &B) { return A = A + B; }
static inline half &operator-=(half &A, const half &B) { return A = A - B; }
static inline half &operator*=(half &A, const half &B) { return A = A * B; }
static inline half &operator/=(half &A, const half &B) { return A = A / B; }
static inline bool operator==(const half &A, const half &B) {
  return __half2float(A) == __half2float(B);
}
static inline bool operator!=(const half &A, const half &B) {
  return __half2float(A) != __half2float(B);
}
static inline bool operator<(const half &A, const half &B) {
  return __half2float(A) < __half2float(B);
}
static inline bool operator<=(const half &A, const half &B) {
  return __half2float(A) <= __half2float(B);
}
static inline bool operator>(const half &A, const half &B) {
  return __half2float(A) > __half2float(B);
}
static inline bool operator>=(const half &A, const half &B) {
  return __half2float(A) >= __half2float(B);
}

//===--- Vector types (vector_types.h) -----------------------------------------===//

// What a vectorized loop's accesses use (ir::cudaVectorTypeName): CUDA's
// members and alignment, so a reinterpret_cast of an element's address reads
// the same lanes as on the device.
struct alignas(8) float2 { float x, y; };
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(8) int2 { int x, y; };
struct alignas(16) int4 { int x, y, z, w; };
struct alignas(8) uint2 { unsigned int x, y; };
struct alignas(16) uint4 { unsigned int x, y, z, w; };
struct alignas(16) double2 { double x, y; };
struct alignas(16) longlong2 { long long x, y; };
struct alignas(4) __half2 { __half x, y; };

//===--- Shared memory addresses and the PTX wrappers ------------------------===//

/// A shared-memory pointer as the 32-bit shared window address PTX takes:
/// its offset in this object's shared section.
static inline size_t __cvta_generic_to_shared(const void *P) {
  const char *C = static_cast<const char *>(P);
  if (!__start_sched_emu_shared || C < __start_sched_emu_shared || C >= __stop_sched_emu_shared)
    sched_emu::fail("__cvta_generic_to_shared of %p, which is not in shared memory", P);
  return static_cast<size_t>(C - __start_sched_emu_shared);
}

namespace sched_emu {

/// The 16 bytes of an ldmatrix row at shared address A, checked.
inline const unsigned short *sharedRow(unsigned A, unsigned Lane, const char *Op) {
  size_t Size = static_cast<size_t>(__stop_sched_emu_shared - __start_sched_emu_shared);
  if (A % 16 != 0)
    fail("%s: lane %u gives shared address %u, which is not 16-byte aligned", Op, Lane, A);
  if (!__start_sched_emu_shared || A + 16 > Size)
    fail("%s: lane %u gives shared address %u, outside the %zu bytes of shared memory", Op, Lane, A,
         Size);
  return reinterpret_cast<const unsigned short *>(__start_sched_emu_shared + A);
}

struct LdmatrixLane {
  unsigned *R;
  unsigned Address;
};

/// ldmatrix.sync.aligned.m8n8.xCount{.trans}.shared.b16.
template <int Count, bool Trans> void ldmatrixRun(void *const *Lanes, unsigned) {
  static const char *const Op = Count == 4   ? (Trans ? "ldmatrix.x4.trans" : "ldmatrix.x4")
                                : Count == 2 ? (Trans ? "ldmatrix.x2.trans" : "ldmatrix.x2")
                                             : (Trans ? "ldmatrix.x1.trans" : "ldmatrix.x1");
  unsigned short M[4][8][8];
  for (unsigned L = 0; L < 8u * Count; ++L) {
    const unsigned short *Row = sharedRow(static_cast<LdmatrixLane *>(Lanes[L])->Address, L, Op);
    std::memcpy(M[L / 8][L % 8], Row, 16);
  }
  for (unsigned L = 0; L < 32; ++L) {
    unsigned Row = L / 4, Col = 2 * (L % 4);
    for (int J = 0; J < Count; ++J) {
      unsigned short Lo = Trans ? M[J][Col][Row] : M[J][Row][Col];
      unsigned short Hi = Trans ? M[J][Col + 1][Row] : M[J][Row][Col + 1];
      static_cast<LdmatrixLane *>(Lanes[L])->R[J] = Lo | static_cast<unsigned>(Hi) << 16;
    }
  }
}

template <int Count, bool Trans> inline void ldmatrix(unsigned *R, unsigned A, unsigned Line) {
  LdmatrixLane S = {R, A};
  collective(Count == 4 ? "ldmatrix.x4" : "ldmatrix.x2", Line, 0xffffffffu, nullptr, nullptr, 0, &S,
             &ldmatrixRun<Count, Trans>);
}

struct MmaLane {
  float *D;
  const unsigned *A, *B;
  const float *C;
};

inline float halfOf(unsigned Reg, int I) {
  return fromHalfBits(static_cast<unsigned short>(I % 2 ? Reg >> 16 : Reg & 0xffff));
}

/// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 per the PTX ISA's
/// fragment layouts (g = lane / 4, t = lane % 4).
inline void mmaM16n8k16Run(void *const *Lanes, unsigned) {
  float A[16][16], B[16][8], C[16][8];
  for (unsigned L = 0; L < 32; ++L) {
    const MmaLane *S = static_cast<const MmaLane *>(Lanes[L]);
    unsigned G = L / 4, T = L % 4;
    for (int I = 0; I < 8; ++I)
      A[G + 8 * (I / 2 % 2)][2 * T + I % 2 + (I >= 4 ? 8 : 0)] = halfOf(S->A[I / 2], I);
    for (int I = 0; I < 4; ++I)
      B[2 * T + I % 2 + (I >= 2 ? 8 : 0)][G] = halfOf(S->B[I / 2], I);
    for (int I = 0; I < 4; ++I)
      C[G + (I >= 2 ? 8 : 0)][2 * T + I % 2] = S->C[I];
  }
  for (unsigned L = 0; L < 32; ++L) {
    const MmaLane *S = static_cast<const MmaLane *>(Lanes[L]);
    unsigned G = L / 4, T = L % 4;
    for (int I = 0; I < 4; ++I) {
      int Row = G + (I >= 2 ? 8 : 0), Col = 2 * T + I % 2;
      float Acc = C[Row][Col];
      for (int K = 0; K < 16; ++K)
        Acc = Acc + A[Row][K] * B[K][Col];
      S->D[I] = Acc; // C was read whole above: D may be C
    }
  }
}

} // namespace sched_emu

static inline unsigned sched_lane() { return sched_emu::regs.lane; }
static inline void sched_ptx_ldmatrix_x4(unsigned *R, unsigned A,
                                         unsigned Line = __builtin_LINE()) {
  sched_emu::ldmatrix<4, false>(R, A, Line);
}
static inline void sched_ptx_ldmatrix_x4_trans(unsigned *R, unsigned A,
                                               unsigned Line = __builtin_LINE()) {
  sched_emu::ldmatrix<4, true>(R, A, Line);
}
static inline void sched_ptx_ldmatrix_x2(unsigned *R, unsigned A,
                                         unsigned Line = __builtin_LINE()) {
  sched_emu::ldmatrix<2, false>(R, A, Line);
}
static inline void sched_ptx_ldmatrix_x2_trans(unsigned *R, unsigned A,
                                               unsigned Line = __builtin_LINE()) {
  sched_emu::ldmatrix<2, true>(R, A, Line);
}
static inline void sched_ptx_mma_m16n8k16(float *D, const unsigned *A, const unsigned *B,
                                          const float *C, unsigned Line = __builtin_LINE()) {
  sched_emu::MmaLane S = {D, A, B, C};
  sched_emu::collective("mma.sync.m16n8k16", Line, 0xffffffffu, nullptr, nullptr, 0, &S,
                        &sched_emu::mmaM16n8k16Run);
}

// cp.async: the copy happens at once (the waits have nothing left to do;
// the simulator models when a copy lands).
static inline void sched_cp_async_4(void *Dst, const void *Src) { std::memcpy(Dst, Src, 4); }
static inline void sched_cp_async_8(void *Dst, const void *Src) { std::memcpy(Dst, Src, 8); }
static inline void sched_cp_async_16(void *Dst, const void *Src) { std::memcpy(Dst, Src, 16); }
static inline void sched_cp_async_commit() {}
template <int Groups> static inline void sched_cp_async_wait() {}

//===--- nvcuda::wmma (mma.h) -------------------------------------------------===//

namespace nvcuda {
namespace wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

/// The tile of a fragment is Rows x Cols (A: m x k, B: k x n, C: m x n);
/// element e of it (row-major) is x[e / 32] of lane e % 32.
template <class Use, int M, int N, int K, class T, class Layout = void> struct fragment {
  static constexpr int Rows = std::is_same<Use, matrix_b>::value ? K : M;
  static constexpr int Cols = std::is_same<Use, matrix_a>::value ? K : N;
  static_assert(Rows * Cols % 32 == 0, "a fragment spreads over the 32 lanes of a warp");
  enum { num_elements = Rows * Cols / 32 };
  T x[num_elements];
};

} // namespace wmma
} // namespace nvcuda

namespace sched_emu {
namespace wmma = nvcuda::wmma;

template <class Frag> struct WmmaMove {
  Frag *F;
  void *P;
  unsigned Ldm;
  bool ColMajor;
};

/// The tile's rules (CUDA guide): a 256-bit aligned pointer, ldm a multiple
/// of 16 bytes. Alignment is the offset from the start of shared memory or
/// of the buffer's region: a device allocation starts aligned, and where the
/// host array lies says nothing about that.
template <class T>
inline void checkTile(const char *Op, const void *P, unsigned Ldm, unsigned Line) {
  const char *C = static_cast<const char *>(P);
  const char *Base =
      __start_sched_emu_shared && C >= __start_sched_emu_shared && C < __stop_sched_emu_shared
          ? __start_sched_emu_shared
          : api->region_start(P);
  if (Base && (C - Base) % 32 != 0)
    fail("%s (line %u): the tile starts %td bytes into %s, not a multiple of 32 (256-bit "
         "alignment)",
         Op, Line, C - Base,
         Base == __start_sched_emu_shared ? "shared memory" : "its buffer's region");
  if (Ldm * sizeof(T) % 16 != 0)
    fail("%s (line %u): ldm %u is not a multiple of 16 bytes (%zu-byte elements)", Op, Line, Ldm,
         sizeof(T));
}

template <class Frag, class T, bool Store> void moveRun(void *const *Lanes, unsigned) {
  const WmmaMove<Frag> *First = static_cast<const WmmaMove<Frag> *>(Lanes[0]);
  T *P = static_cast<T *>(First->P);
  for (int E = 0; E < Frag::Rows * Frag::Cols; ++E) {
    int Row = E / Frag::Cols, Col = E % Frag::Cols;
    T &Memory = First->ColMajor ? P[static_cast<size_t>(Col) * First->Ldm + Row]
                                : P[static_cast<size_t>(Row) * First->Ldm + Col];
    T &Cell = static_cast<const WmmaMove<Frag> *>(Lanes[E % 32])->F->x[E / 32];
    if (Store)
      Memory = Cell;
    else
      Cell = Memory;
  }
}

template <class Frag, class T, bool Store>
inline void move(const char *Op, Frag &F, const T *P, unsigned Ldm, bool ColMajor, unsigned Line) {
  checkTile<T>(Op, P, Ldm, Line);
  static const char *const Names[] = {"pointer", "ldm", "layout", "fragment"};
  long long Uniform[] = {static_cast<long long>(reinterpret_cast<uintptr_t>(P)), Ldm, ColMajor,
                         frameOffset(&F)};
  WmmaMove<Frag> S = {&F, const_cast<T *>(P), Ldm, ColMajor};
  collective(Op, Line, 0xffffffffu, Uniform, Names, 4, &S, &moveRun<Frag, T, Store>);
}

template <class Frag> struct FillLane {
  Frag *F;
  long long Bits;
};

template <class Frag, class T> void fillRun(void *const *Lanes, unsigned) {
  for (unsigned L = 0; L < 32; ++L) {
    const FillLane<Frag> *S = static_cast<const FillLane<Frag> *>(Lanes[L]);
    T V;
    std::memcpy(&V, &S->Bits, sizeof(T));
    for (int I = 0; I < Frag::num_elements; ++I)
      S->F->x[I] = V;
  }
}

template <class D, class A, class B, class C> struct MmaSyncLane {
  D *Dst;
  const A *Fa;
  const B *Fb;
  const C *Fc;
};

inline float widen(half H) { return __half2float(H); }
inline float widen(float F) { return F; }
inline int widen(signed char V) { return V; }
inline int widen(unsigned char V) { return V; }
inline int widen(int V) { return V; }

/// D = A*B + C, each element summed in ascending k: fp32 rounding after
/// each addition (fp16 products are exact in fp32), int32 wrapping for int8.
template <class D, class A, class B, class C> void mmaRun(void *const *Lanes, unsigned) {
  constexpr int M = A::Rows, K = A::Cols, N = B::Cols;
  typedef typename std::remove_reference<decltype(C().x[0])>::type CT;
  typedef decltype(widen(CT())) Acc;
  static Acc Fa[M][K], Fb[K][N], Fc[M][N]; // a warp's tiles; one warp runs at a time
  auto Lane = [&](int E) { return static_cast<const MmaSyncLane<D, A, B, C> *>(Lanes[E % 32]); };
  for (int E = 0; E < M * K; ++E)
    Fa[E / K][E % K] = static_cast<Acc>(widen(Lane(E)->Fa->x[E / 32]));
  for (int E = 0; E < K * N; ++E)
    Fb[E / N][E % N] = static_cast<Acc>(widen(Lane(E)->Fb->x[E / 32]));
  for (int E = 0; E < M * N; ++E)
    Fc[E / N][E % N] = widen(Lane(E)->Fc->x[E / 32]);
  for (int E = 0; E < M * N; ++E) {
    int I = E / N, J = E % N;
    Acc Sum = Fc[I][J];
    if (std::is_integral<Acc>::value) {
      unsigned U = static_cast<unsigned>(Sum);
      for (int Kk = 0; Kk < K; ++Kk)
        U += static_cast<unsigned>(Fa[I][Kk]) * static_cast<unsigned>(Fb[Kk][J]);
      Sum = static_cast<Acc>(static_cast<int>(U));
    } else {
      for (int Kk = 0; Kk < K; ++Kk)
        Sum = Sum + Fa[I][Kk] * Fb[Kk][J];
    }
    Lane(E)->Dst->x[E / 32] = static_cast<CT>(Sum);
  }
}

} // namespace sched_emu

namespace nvcuda {
namespace wmma {

template <class Use, int M, int N, int K, class T, class L>
inline void fill_fragment(fragment<Use, M, N, K, T, L> &F, typename std::common_type<T>::type V,
                          unsigned Line = __builtin_LINE()) {
  typedef fragment<Use, M, N, K, T, L> Frag;
  static const char *const Names[] = {"value", "fragment"};
  sched_emu::FillLane<Frag> S = {&F, 0};
  std::memcpy(&S.Bits, &V, sizeof(T));
  long long Uniform[] = {S.Bits, sched_emu::frameOffset(&F)};
  sched_emu::collective("nvcuda::wmma::fill_fragment", Line, 0xffffffffu, Uniform, Names, 2, &S,
                        &sched_emu::fillRun<Frag, T>);
}

template <class Use, int M, int N, int K, class T, class L,
          class = typename std::enable_if<!std::is_same<Use, accumulator>::value>::type>
inline void load_matrix_sync(fragment<Use, M, N, K, T, L> &F, const T *P, unsigned Ldm,
                             unsigned Line = __builtin_LINE()) {
  sched_emu::move<fragment<Use, M, N, K, T, L>, T, false>(
      "nvcuda::wmma::load_matrix_sync", F, P, Ldm, std::is_same<L, col_major>::value, Line);
}

template <int M, int N, int K, class T>
inline void load_matrix_sync(fragment<accumulator, M, N, K, T> &F, const T *P, unsigned Ldm,
                             layout_t Layout, unsigned Line = __builtin_LINE()) {
  sched_emu::move<fragment<accumulator, M, N, K, T>, T, false>(
      "nvcuda::wmma::load_matrix_sync", F, P, Ldm, Layout == mem_col_major, Line);
}

template <int M, int N, int K, class T>
inline void store_matrix_sync(T *P, const fragment<accumulator, M, N, K, T> &F, unsigned Ldm,
                              layout_t Layout, unsigned Line = __builtin_LINE()) {
  sched_emu::move<fragment<accumulator, M, N, K, T>, T, true>(
      "nvcuda::wmma::store_matrix_sync", const_cast<fragment<accumulator, M, N, K, T> &>(F), P, Ldm,
      Layout == mem_col_major, Line);
}

template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class TD>
inline void
mma_sync(fragment<accumulator, M, N, K, TD> &D, const fragment<matrix_a, M, N, K, TA, LA> &A,
         const fragment<matrix_b, M, N, K, TB, LB> &B, const fragment<accumulator, M, N, K, TC> &C,
         bool Satf = false, unsigned Line = __builtin_LINE()) {
  typedef fragment<accumulator, M, N, K, TD> FD;
  typedef fragment<matrix_a, M, N, K, TA, LA> FA;
  typedef fragment<matrix_b, M, N, K, TB, LB> FB;
  typedef fragment<accumulator, M, N, K, TC> FC;
  static const char *const Names[] = {"D fragment", "A fragment", "B fragment", "C fragment",
                                      "satf"};
  long long Uniform[] = {sched_emu::frameOffset(&D), sched_emu::frameOffset(&A),
                         sched_emu::frameOffset(&B), sched_emu::frameOffset(&C), Satf};
  sched_emu::MmaSyncLane<FD, FA, FB, FC> S = {&D, &A, &B, &C};
  sched_emu::collective("nvcuda::wmma::mma_sync", Line, 0xffffffffu, Uniform, Names, 5, &S,
                        &sched_emu::mmaRun<FD, FA, FB, FC>);
}

} // namespace wmma
} // namespace nvcuda

#endif // SCHED_CUDA_EMU_H
