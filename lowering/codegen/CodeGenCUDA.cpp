//===- CodeGenCUDA.cpp - CUDA C for a lowered kernel ---------------------===//
//
// Prints a lowered kernel as one self-contained CUDA translation unit that
// nvcc and NVRTC compile on their own (no headers beyond cuda_fp16.h, and
// that only when the kernel uses half). The output is meant to be read: it is
// what users see with dump=cuda, so it keeps the IR's names and structure.
//
//  - parameters keep their order: buffers as `T* __restrict__ A`, `const`
//    where the kernel only reads them (so loads may take the read-only
//    path). Restrict holds because the launcher gives every buffer it stages
//    an allocation of its own and refuses device buffers passed in place that
//    overlap where one is written (runtime/cuda); it is left off where threads
//    pass values through the buffer (a kernel with a barrier that reads and
//    writes it: restrict would let a compiler keep a value in a register
//    across __syncthreads(), which is given no pointer based on the
//    buffer). Scalars are passed by value. A block of constant size gives
//    `__launch_bounds__`;
//  - a thread-bound loop is its index, `int tx = (int)threadIdx.x;`, and a
//    guard `if (tx < extent)` when its extent is not provably the launch
//    extent of its tag (VerifyThreadBindings normally makes them equal and
//    puts the guard in the IR; this keeps codegen safe on its own);
//  - serial loops are C loops, unrolled loops get `#pragma unroll`; a
//    vectorized loop (VectorizeLoops kept only those ir::planVectorLoop
//    accepts) is its statements one at a time over all lanes: each vector
//    load a `const float4 t = *reinterpret_cast<const float4 *>(&A[base]);`,
//    the stored value computed lane by lane (t.x, t.y, ...), a vector store
//    one `*reinterpret_cast<float4 *>(&C[base]) = u;` (CUDA and the emu
//    header have the vector types);
//  - local allocations are arrays where they appear; shared allocations are
//    per block and are hoisted to the top of the kernel;
//  - every variable and buffer gets a C identifier that is unique in the
//    kernel, so C scoping never matters;
//  - tensor cores (the wmma intrinsics of ir/Intrinsics.h): `#include
//    <mma.h>`; a buffer in a wmma scope is an array of nvcuda::wmma::fragment
//    whose shape and matrix_a/matrix_b layout come from the calls that name
//    it (part of the CUDA type, so they must agree); a fragment operand is
//    element number / (rows*cols) of that array (ir::wmmaFragmentNumber); a
//    shared array that a wmma load or store reads or writes is 32-byte
//    aligned, as load_matrix_sync/store_matrix_sync require. What CUDA
//    cannot express (disagreeing shapes or layouts, an element access of a
//    fragment, an ldm that is not a multiple of 16 bytes) is an error, never
//    a guess;
//  - the mma.sync family (mma.* calls, sm_80+): a fragment is the lane's
//    registers, `unsigned Af[n][4]` (8 halves of A), `unsigned Bf[n][2]`,
//    `float Cf[n][4]`; mma.load_a/_b are inline-PTX ldmatrix .x4/.x2
//    (.trans) from the lane's row address in shared memory, mma.mma is
//    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32, and load_c/store move
//    c0..c3 at their PTX positions. The helpers that do this are printed
//    once before the kernel (MmaSyncHelpers); their lane formulas are those
//    of ir::ldmatrixLaneRow and ir::mmaLaneElement, which the simulator
//    runs. Each PTX instruction is a wrapper of its own inside
//    `#ifndef SCHED_CUDA_EMU`, which the emu backend's header replaces (the
//    rest of the text is valid host C++ too: emu runs it as it is).
//  - the wgmma family (wgmma.* calls, sm_90a): the accumulator is each
//    thread's N/2 floats, `float Cf[n][N/2]`; wgmma.mma is
//    wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16 on two matrix
//    descriptors (sched_wgmma_desc: the K-major tile's shared address, 8 rows'
//    bytes as the stride-dimension offset, the swizzle mode of its row
//    length), fence/commit/wait are their PTX instructions, the store puts
//    each thread's d_i at ir::wgmmaLaneElement's place. A shared stage wgmma
//    reads is 1024-byte aligned (the swizzle's pattern starts on it), and
//    every barrier of such a kernel is preceded by fence.proxy.async, so the
//    threads' writes to the stages are visible to wgmma (the async proxy).
//    emu does not run wgmma.
//
//===----------------------------------------------------------------------===//
#include "codegen/CodeGenCUDA.h"
#include "ir/Bounds.h"
#include "ir/Access.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Rewrite.h"
#include "ir/Intrinsics.h"
#include "ir/MathFunctions.h"
#include "ir/Scope.h"
#include "ir/Simplify.h"
#include "ir/Kernel.h"
#include "ir/Names.h"
#include "ir/Prove.h"
#include "ir/Vectorize.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace sched {

namespace {

/// C identifiers for IR names: distinct objects get distinct names, and no
/// name collides with a keyword or a CUDA built-in.
class IdentifierNamer {
public:
  IdentifierNamer() {
    static const char *const Reserved[] = {
        "auto", "bool", "break", "case", "char", "const", "continue", "default", "do",
        "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int",
        "long", "register", "restrict", "return", "short", "signed", "sizeof", "static",
        "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
        "class", "delete", "new", "namespace", "template", "this", "true", "false",
        "operator", "private", "public", "protected", "virtual", "using", "half",
        "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "min", "max"};
    for (const char *Word : Reserved)
      Names.reserve(Word);
  }

  void reserve(const std::string &Name) { Names.reserve(Name); }

  const std::string &nameOf(const void *Object, const std::string &IRName) {
    return Names.nameOf(Object, ir::cIdentifier(IRName, "v", "v"));
  }

private:
  ir::UniqueNames Names;
};

/// The shortest decimal text that reads back to V at T's precision, always
/// with a '.' or exponent.
std::string decimal(double V, bool Double) {
  char Buf[64];
  for (int Precision = 1; Precision <= 17; ++Precision) {
    std::snprintf(Buf, sizeof(Buf), "%.*g", Precision, V);
    if (Double ? std::strtod(Buf, nullptr) == V
               : std::strtof(Buf, nullptr) == static_cast<float>(V))
      break;
  }
  std::string S = Buf;
  if (S.find_first_of(".e") == std::string::npos)
    S += ".0";
  return S;
}

std::string floatLiteral(double V, ir::DType T) {
  bool Double = T == ir::DType::Float64;
  if (std::isnan(V))
    return Double ? "__longlong_as_double(0x7ff8000000000000LL)" : "__int_as_float(0x7fc00000)";
  if (std::isinf(V)) {
    std::string Inf =
        Double ? "__longlong_as_double(0x7ff0000000000000LL)" : "__int_as_float(0x7f800000)";
    return V < 0 ? "(-" + Inf + ")" : Inf;
  }
  return Double ? decimal(V, true) : decimal(V, false) + "f";
}

std::string intLiteral(int64_t V, ir::DType T) {
  if (T == ir::DType::Bool)
    return V ? "true" : "false";
  if (T == ir::DType::Int64) {
    if (V == std::numeric_limits<int64_t>::min())
      return "(-9223372036854775807LL - 1)";
    return std::to_string(V) + "LL";
  }
  // Unsigned literals carry their suffix, so that C's conversions in the
  // kernel are those of the IR (2654435761u * x is unsigned arithmetic).
  if (T == ir::DType::UInt64)
    return std::to_string(static_cast<uint64_t>(V)) + "ull";
  if (T == ir::DType::UInt32)
    return std::to_string(static_cast<uint32_t>(V)) + "u";
  std::string Text = V == std::numeric_limits<int32_t>::min() ? "(-2147483647 - 1)"
                                                               : std::to_string(V);
  if (T == ir::DType::Int32)
    return V < 0 ? "(" + Text + ")" : Text;
  return std::string("((") + ir::cudaTypeName(T) + ")" + Text + ")";
}

/// min/max by operand type: CUDA's integer min/max, the C math functions for
/// floating point, the half intrinsics for half.
std::string minMaxFunction(ir::BinOp Op, ir::DType T) {
  bool IsMin = Op == ir::BinOp::Min;
  switch (T) {
  case ir::DType::Float32: return IsMin ? "fminf" : "fmaxf";
  case ir::DType::Float64: return IsMin ? "fmin" : "fmax";
  case ir::DType::Float16: return IsMin ? "__hmin" : "__hmax";
  default: return IsMin ? "min" : "max";
  }
}

/// True when S is one parenthesized group: "(a + b)" but not "(a) + (b)".
bool isWrapped(const std::string &S) {
  if (S.size() < 2 || S.front() != '(' || S.back() != ')')
    return false;
  int Depth = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    Depth += S[I] == '(' ? 1 : S[I] == ')' ? -1 : 0;
    if (Depth == 0 && I + 1 < S.size())
      return false;
  }
  return true;
}

/// Where C needs no parentheses (a condition, an index, a right-hand side),
/// drop the ones every binary expression carries.
std::string unwrap(const std::string &S) { return isWrapped(S) ? S.substr(1, S.size() - 2) : S; }

/// An operand of a cast: parenthesized unless it already is, or is a name.
std::string wrap(const std::string &S) {
  bool Simple = !S.empty() && S.find_first_of(" ()[]+-*/%<>=!&|?:") == std::string::npos;
  return Simple || isWrapped(S) ? S : "(" + S + ")";
}

bool isWmmaScope(ir::Scope S) {
  return S == ir::Scope::WmmaMatrixA || S == ir::Scope::WmmaMatrixB ||
         S == ir::Scope::WmmaAccumulator;
}


/// The element type of a fragment in CUDA, or null when wmma has none for
/// the scope: half or 8-bit integers for matrix_a/b, float, int or half for
/// accumulators.
const char *fragmentElementType(ir::Scope S, ir::DType T) {
  if (S == ir::Scope::WmmaAccumulator)
    return T == ir::DType::Float32 ? "float"
           : T == ir::DType::Int32 ? "int"
           : T == ir::DType::Float16 ? "half"
                                     : nullptr;
  return T == ir::DType::Float16 ? "half"
         : T == ir::DType::Int8  ? "signed char"
         : T == ir::DType::UInt8 ? "unsigned char"
                                 : nullptr;
}

/// What a fragment buffer's CUDA type needs, gathered from every wmma call
/// that names it: m, n, k and (matrix_a/b) the layout of its loads.
struct FragmentUse {
  int64_t M = 0, N = 0, K = 0; // 0: no call names the buffer
  int64_t Layout = -1;         // -1: never loaded (row-major then)
  ir::TensorFamily Family = ir::TensorFamily::Wmma;
};

/// The device functions an mma.sync kernel calls, each printed before the
/// kernel when it is used. The PTX instructions (Ptx) are one wrapper each,
/// printed inside `#ifndef SCHED_CUDA_EMU`: the emu backend compiles the
/// kernel as host C++, where its header defines those wrappers per the PTX
/// ISA; everything built on them (the lane formulas below) is shared text,
/// so emu runs the emitter's own formulas. Lane formulas:
/// ir::ldmatrixLaneRow (the row address a lane gives to ldmatrix) and
/// ir::mmaLaneElement (where an accumulator element of a lane lies).
struct MmaSyncHelper {
  const char *Name;
  bool Ptx;
  const char *Text;
};
const MmaSyncHelper MmaSyncHelpers[] = {
    // Not volatile: a thread's lane never changes, so nvcc may read it once
    // and keep the lane's ldmatrix offsets out of the k loop.
    {"sched_lane", true, R"(static __device__ __forceinline__ unsigned sched_lane() {
  unsigned L;
  asm("mov.u32 %0, %%laneid;" : "=r"(L));
  return L;
}
)"},
    {"sched_ptx_ldmatrix_x4", true,
     R"(static __device__ __forceinline__ void sched_ptx_ldmatrix_x4(unsigned *R, unsigned A) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(R[0]), "=r"(R[1]), "=r"(R[2]), "=r"(R[3]) : "r"(A) : "memory");
}
static __device__ __forceinline__ void sched_ptx_ldmatrix_x4_trans(unsigned *R, unsigned A) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(R[0]), "=r"(R[1]), "=r"(R[2]), "=r"(R[3]) : "r"(A) : "memory");
}
)"},
    {"sched_ptx_ldmatrix_x2", true,
     R"(static __device__ __forceinline__ void sched_ptx_ldmatrix_x2(unsigned *R, unsigned A) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
               : "=r"(R[0]), "=r"(R[1]) : "r"(A) : "memory");
}
static __device__ __forceinline__ void sched_ptx_ldmatrix_x2_trans(unsigned *R, unsigned A) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
               : "=r"(R[0]), "=r"(R[1]) : "r"(A) : "memory");
}
)"},
    {"sched_ptx_mma_m16n8k16", true,
     R"(static __device__ __forceinline__ void sched_ptx_mma_m16n8k16(float *D, const unsigned *A,
                                                              const unsigned *B, const float *C) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
               : "=f"(D[0]), "=f"(D[1]), "=f"(D[2]), "=f"(D[3])
               : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]), "f"(C[0]),
                 "f"(C[1]), "f"(C[2]), "f"(C[3]));
}
)"},
    {"sched_ldmatrix_a", false,
     R"(// mma.load_a: ldmatrix.x4; lane L gives row L % 8 of 8x8 matrix L / 8 (top
// left, bottom left, top right, bottom right), .trans for a column-major A.
static __device__ __forceinline__ void sched_ldmatrix_a(unsigned *R, const half *P, int Ld,
                                                        bool ColMajor) {
  unsigned L = sched_lane(), J = L / 8 % 4, I = L % 8;
  int Row = 8 * (J % 2) + (ColMajor ? 0 : I), Col = 8 * (J / 2) + (ColMajor ? I : 0);
  unsigned A = (unsigned)__cvta_generic_to_shared(P + (ColMajor ? Col * Ld + Row : Row * Ld + Col));
  if (ColMajor)
    sched_ptx_ldmatrix_x4_trans(R, A);
  else
    sched_ptx_ldmatrix_x4(R, A);
}
)"},
    {"sched_ldmatrix_a_swizzled", false,
     R"(// The same from a swizzled shared array (Base: its element 0, or any
// multiple of the swizzle's period after it; F: the tile's first element in
// row-major order from there; sched_swizzle: where an element lives).
template <int SB, int SBits, int SShift>
static __device__ __forceinline__ void sched_ldmatrix_a_swizzled(unsigned *R, const half *Base,
                                                                 int F, int Ld, bool ColMajor) {
  unsigned L = sched_lane(), J = L / 8 % 4, I = L % 8;
  int Row = 8 * (J % 2) + (ColMajor ? 0 : I), Col = 8 * (J / 2) + (ColMajor ? I : 0);
  int E = F + (ColMajor ? Col * Ld + Row : Row * Ld + Col);
  unsigned A = (unsigned)__cvta_generic_to_shared(Base + sched_swizzle<SB, SBits, SShift>(E));
  if (ColMajor)
    sched_ptx_ldmatrix_x4_trans(R, A);
  else
    sched_ptx_ldmatrix_x4(R, A);
}
)"},
    {"sched_ldmatrix_b_swizzled", false,
     R"(template <int SB, int SBits, int SShift>
static __device__ __forceinline__ void sched_ldmatrix_b_swizzled(unsigned *R, const half *Base,
                                                                 int F, int Ld, bool ColMajor) {
  unsigned L = sched_lane(), J = L / 8 % 2, I = L % 8;
  int Row = 8 * J + (ColMajor ? 0 : I), Col = ColMajor ? I : 0;
  int E = F + (ColMajor ? Col * Ld + Row : Row * Ld + Col);
  unsigned A = (unsigned)__cvta_generic_to_shared(Base + sched_swizzle<SB, SBits, SShift>(E));
  if (ColMajor)
    sched_ptx_ldmatrix_x2(R, A);
  else
    sched_ptx_ldmatrix_x2_trans(R, A);
}
)"},
    {"sched_ldmatrix_b", false,
     R"(// mma.load_b: ldmatrix.x2; lanes 0-15 give the rows of k 0-7 and 8-15 (B's
// columns when B is column-major, else its rows with .trans).
static __device__ __forceinline__ void sched_ldmatrix_b(unsigned *R, const half *P, int Ld,
                                                        bool ColMajor) {
  unsigned L = sched_lane(), J = L / 8 % 2, I = L % 8;
  int Row = 8 * J + (ColMajor ? 0 : I), Col = ColMajor ? I : 0;
  unsigned A = (unsigned)__cvta_generic_to_shared(P + (ColMajor ? Col * Ld + Row : Row * Ld + Col));
  if (ColMajor)
    sched_ptx_ldmatrix_x2(R, A);
  else
    sched_ptx_ldmatrix_x2_trans(R, A);
}
)"},
    {"sched_mma_fill", false, R"(static __device__ __forceinline__ void sched_mma_fill(float *C, float V) {
  for (int I = 0; I < 4; ++I)
    C[I] = V;
}
)"},
    {"sched_mma_store", false, R"(// c_i of lane L is at row g + 8 * (i >= 2), column 2t + i % 2.
static __device__ __forceinline__ void sched_mma_store(float *P, const float *C, int Ld,
                                                       bool ColMajor) {
  unsigned L = sched_lane(), G = L / 4, T = L % 4;
  for (int I = 0; I < 4; ++I) {
    int Row = G + 8 * (I >= 2), Col = 2 * T + I % 2;
    P[ColMajor ? Col * Ld + Row : Row * Ld + Col] = C[I];
  }
}
)"},
    {"sched_mma_load_c", false, R"(static __device__ __forceinline__ void sched_mma_load_c(float *C, const float *P, int Ld,
                                                        bool ColMajor) {
  unsigned L = sched_lane(), G = L / 4, T = L % 4;
  for (int I = 0; I < 4; ++I) {
    int Row = G + 8 * (I >= 2), Col = 2 * T + I % 2;
    C[I] = P[ColMajor ? Col * Ld + Row : Row * Ld + Col];
  }
}
)"},
};


/// Reads the wmma calls of a kernel before it is printed: the fragment
/// buffers' shapes and layouts, the memory buffers the calls touch, and what
/// CUDA cannot express (Errors).
class WmmaScan : public ir::IRVisitor {
public:
  std::map<const ir::BufferNode *, FragmentUse> Fragments;
  std::set<const ir::BufferNode *> Memory;
  std::vector<std::string> Errors;
  bool UsesWmma = false;    // nvcuda::wmma
  bool UsesMmaSync = false; // the mma.* family: PTX mma.sync and ldmatrix
  bool UsesWgmma = false;   // the wgmma.* family (sm_90a)
  std::set<int64_t> WgmmaShapes;                 // the N of each wgmma.mma
  std::set<const ir::BufferNode *> WgmmaStages; // the shared stages wgmma.mma reads

protected:
  void visitCall(const ir::CallNode *N) override {
    ir::WmmaCall W;
    if (ir::wgmmaControlOf(N->Name) != ir::WgmmaControl::None) {
      UsesWgmma = true;
      return;
    }
    if (!ir::decodeWmma(N, W)) {
      if (!isWmmaName(N->Name))
        return IRVisitor::visitCall(N);
      Errors.push_back("malformed call to " + N->Name);
      return;
    }
    if (W.Family == ir::TensorFamily::Wgmma)
      return wgmma(N, W);
    bool Sync = W.Family == ir::TensorFamily::Mma;
    (Sync ? UsesMmaSync : UsesWmma) = true;
    if (Sync ? !ir::isMmaSyncShape(W.M, W.N, W.K) : !ir::isWmmaShape(W.M, W.N, W.K))
      Errors.push_back(N->Name + " has shape m" + std::to_string(W.M) + "n" + std::to_string(W.N) +
                       "k" + std::to_string(W.K) +
                       (Sync ? ", which the mma.sync path does not offer (m16n8k16)"
                             : ", which CUDA's wmma does not offer (m16n16k16, m32n8k16, m8n32k16)"));
    using S = ir::Scope;
    switch (W.Op) {
    case ir::WmmaOp::Fill:
      fragment(N, W, W.Frag, S::WmmaAccumulator);
      visit(W.Value);
      break;
    case ir::WmmaOp::LoadA:
    case ir::WmmaOp::LoadB:
    case ir::WmmaOp::LoadC:
    case ir::WmmaOp::Store: {
      S Sc = W.Op == ir::WmmaOp::LoadA   ? S::WmmaMatrixA
             : W.Op == ir::WmmaOp::LoadB ? S::WmmaMatrixB
                                         : S::WmmaAccumulator;
      fragment(N, W, W.Frag, Sc);
      if (Sc != S::WmmaAccumulator)
        layout(W.Frag, W.Layout);
      memory(N, W);
      visit(W.Stride);
      break;
    }
    case ir::WmmaOp::Mma:
      fragment(N, W, W.D, S::WmmaAccumulator);
      fragment(N, W, W.A, S::WmmaMatrixA);
      fragment(N, W, W.B, S::WmmaMatrixB);
      fragment(N, W, W.C, S::WmmaAccumulator);
      break;
    }
  }

  void visitLoad(const ir::LoadNode *N) override {
    if (N->Buf && isWmmaScope(N->Buf->MemScope))
      elementAccess(N->Buf);
    IRVisitor::visitLoad(N);
  }

  void visitStore(const ir::StoreNode *N) override {
    if (N->Buf && isWmmaScope(N->Buf->MemScope))
      elementAccess(N->Buf);
    IRVisitor::visitStore(N);
  }

private:
  static bool isWmmaName(const std::string &Name) {
    return Name.compare(0, 5, "wmma.") == 0 || Name.compare(0, 4, "mma.") == 0 ||
           Name.compare(0, 6, "wgmma.") == 0;
  }

  /// A wgmma.* call: its accumulator fragment, its shared stages (K-major,
  /// rows of 32, 64 or 128 bytes) or the store's memory.
  void wgmma(const ir::CallNode *N, const ir::WmmaCall &W) {
    UsesWgmma = true;
    if (!ir::isWgmmaShape(W.M, W.N, W.K)) {
      Errors.push_back(N->Name + " has shape " + shape(W.M, W.N, W.K) +
                       ", which wgmma does not offer (m64nNk16, N a multiple of 8 up to 256)");
      return;
    }
    if (W.Op == ir::WmmaOp::Fill) {
      fragment(N, W, W.Frag, ir::Scope::WmmaAccumulator);
      visit(W.Value);
      return;
    }
    if (W.Op == ir::WmmaOp::Store) {
      fragment(N, W, W.Frag, ir::Scope::WmmaAccumulator);
      memory(N, W);
      visit(W.Stride);
      return;
    }
    fragment(N, W, W.D, ir::Scope::WmmaAccumulator);
    WgmmaShapes.insert(W.N);
    for (auto [Tile, Stride] : {std::pair<const ir::LoadNode *, ir::Expr>{W.A, W.StrideA}, {W.B, W.StrideB}}) {
      for (const ir::Expr &I : Tile->Indices)
        visit(I);
      int64_t Ld;
      if (Tile->Buf->MemScope != ir::Scope::Shared || Tile->Buf->Type != ir::DType::Float16 ||
          !ir::getConstInt(Stride, Ld) || !ir::hasWgmmaLayout(Tile->Buf->Swizzle, Ld))
        Errors.push_back(N->Name + " reads '" + Tile->Buf->Name +
                         "', which is not a float16 shared stage in PTX's canonical K-major "
                         "layout (rows of 16, 32 or 64 halves with the swizzle of that width)");
      WgmmaStages.insert(Tile->Buf.get());
    }
  }

  void elementAccess(const ir::Buffer &B) {
    Errors.push_back("fragment '" + B->Name + "' (" + ir::scopeName(B->MemScope) +
                     ") is accessed element by element; only wmma calls can use a fragment");
  }

  /// A fragment operand of a call: a wmma buffer of the scope its role needs,
  /// whose shape agrees with every other call naming it.
  void fragment(const ir::CallNode *N, const ir::WmmaCall &W, const ir::LoadNode *F,
                ir::Scope Want) {
    for (const ir::Expr &I : F->Indices)
      visit(I);
    const ir::Buffer &B = F->Buf;
    if (B->MemScope != Want) {
      Errors.push_back(N->Name + " uses '" + B->Name + "' (" + ir::scopeName(B->MemScope) +
                       ") where a " + ir::scopeName(Want) + " fragment is needed");
      return;
    }
    FragmentUse &U = Fragments[B.get()];
    if (W.Family == ir::TensorFamily::Wgmma && B->Type != ir::DType::Float32)
      Errors.push_back(N->Name + " uses '" + B->Name + "' of " + ir::dtypeName(B->Type) +
                       "; wgmma's accumulators are float32");
    if (W.Family == ir::TensorFamily::Mma) {
      bool IsAcc = Want == ir::Scope::WmmaAccumulator;
      if (B->Type != (IsAcc ? ir::DType::Float32 : ir::DType::Float16))
        Errors.push_back(N->Name + " uses '" + B->Name + "' of " + ir::dtypeName(B->Type) +
                         "; the mma.sync path holds " + (IsAcc ? "float32" : "float16") +
                         " fragments there");
    }
    if (U.M == 0) {
      U.M = W.M, U.N = W.N, U.K = W.K;
      U.Family = W.Family;
    } else if (U.Family != W.Family) {
      Errors.push_back("fragment '" + B->Name + "' is used by two families of tensor-core calls");
      return;
    } else if (U.M != W.M || U.N != W.N || U.K != W.K) {
      Errors.push_back("fragment '" + B->Name + "' is used with shapes " + shape(U.M, U.N, U.K) +
                       " and " + shape(W.M, W.N, W.K) +
                       "; one fragment buffer has one shape (it is part of its CUDA type)");
      return;
    }
  }

  void layout(const ir::LoadNode *F, int64_t Layout) {
    if (F->Buf->MemScope == ir::Scope::WmmaAccumulator)
      return;
    FragmentUse &U = Fragments[F->Buf.get()];
    if (U.Layout < 0)
      U.Layout = Layout;
    else if (U.Layout != Layout)
      Errors.push_back("fragment '" + F->Buf->Name +
                       "' is loaded both row-major and column-major; one fragment buffer has one "
                       "layout (it is part of its CUDA type)");
  }

  /// The memory tile of a load or store: global or shared memory (all that
  /// wmma reads and writes), with an ldm of a whole number of 16 bytes when
  /// it is a constant.
  void memory(const ir::CallNode *N, const ir::WmmaCall &W) {
    for (const ir::Expr &I : W.Memory->Indices)
      visit(I);
    const ir::Buffer &B = W.Memory->Buf;
    if (B->MemScope != ir::Scope::Global && B->MemScope != ir::Scope::Shared) {
      Errors.push_back(N->Name + " accesses '" + B->Name + "' in " + ir::scopeName(B->MemScope) +
                       " memory; wmma loads and stores use only global or shared memory");
      return;
    }
    if (W.Family == ir::TensorFamily::Mma &&
        (W.Op == ir::WmmaOp::LoadA || W.Op == ir::WmmaOp::LoadB) &&
        B->MemScope != ir::Scope::Shared) {
      Errors.push_back(N->Name + " reads '" + B->Name + "' in " + ir::scopeName(B->MemScope) +
                       " memory; ldmatrix reads shared memory only");
      return;
    }
    Memory.insert(B.get());
    int64_t Ld;
    int Bytes = ir::dtypeBytes(B->Type);
    if (ir::getConstInt(W.Stride, Ld) && (Ld <= 0 || (Ld * Bytes) % 16 != 0))
      Errors.push_back(N->Name + " on '" + B->Name + "' has ldm " + std::to_string(Ld) +
                       ", which is not a positive multiple of 16 bytes (" +
                       std::to_string(16 / Bytes) + " elements of " + ir::dtypeName(B->Type) +
                       ")");
  }

  static std::string shape(int64_t M, int64_t N, int64_t K) {
    return "m" + std::to_string(M) + "n" + std::to_string(N) + "k" + std::to_string(K);
  }
};

/// Whether a kernel has a block barrier.
class BarrierScan : public ir::IRVisitor {
public:
  bool Found = false;

protected:
  void visitCall(const ir::CallNode *N) override {
    const ir::IntrinsicInfo *Info = ir::lookupIntrinsic(N->Name);
    Found |= N->Name == "sched.syncthreads" || (Info && Info->IsBarrier);
    IRVisitor::visitCall(N);
  }
};

/// The buffers threads may pass values through: those a kernel with a
/// barrier both reads and writes (one thread writes, another reads after
/// the barrier). They must not be __restrict__: restrict tells the compiler
/// that nothing but this thread's accesses through the pointer changes them
/// while the kernel runs, and a barrier call is given no pointer based on
/// it, so a value loaded before __syncthreads() could be reused after it.
std::set<const ir::BufferNode *> buffersPassedBetweenThreads(const ir::Stmt &Body) {
  BarrierScan Barriers;
  Barriers.visit(Body);
  std::set<const ir::BufferNode *> Out;
  if (!Barriers.Found)
    return Out;
  std::set<const ir::BufferNode *> Read, Written;
  for (const ir::Access &A : ir::collectAccesses(Body))
    (A.IsWrite ? Written : Read).insert(A.Buf.get());
  for (const ir::BufferNode *B : Read)
    if (Written.count(B))
      Out.insert(B);
  return Out;
}

class CUDAEmitter {
public:
  explicit CUDAEmitter(const LoweredKernel &K) : K(K) {}

  /// The translation unit; Errors lists what CUDA cannot express (then the
  /// text is not a kernel to compile).
  std::string emit(std::vector<std::string> &Errors) {
    Wmma.visit(K.Kernel.Body);
    std::string Signature = signature();
    // The kernel, and what sched made in it, is the nest's line.
    sourceLine(0);
    std::string NestLine = Body.str();
    Body.str("");
    // The signature's line comes next, then the body's first line.
    LastLine += 1;
    LastPos = 0;
    emitStmt(K.Kernel.Body, 1);
    Errors = Wmma.Errors;
    std::ostringstream OS;
    OS << "// Generated by sched from " << describeSource() << ". Do not edit.\n";
    // nvcc 13's -arch=sm_90a also builds compute_90 PTX, which cannot hold
    // wgmma: an architecture-specific target is named by -gencode.
    if (K.Arch.isSet() && K.Arch.Specific)
      OS << "// Target architecture: " << K.Arch.name() << " (nvcc -gencode arch=compute_"
         << K.Arch.Number << "a,code=" << K.Arch.name() << ").\n";
    else if (K.Arch.isSet())
      OS << "// Target architecture: " << K.Arch.name() << " (nvcc -arch=" << K.Arch.name()
         << ").\n";
    if (UsesHalf || Wmma.UsesMmaSync || Wmma.UsesWgmma)
      OS << "#include <cuda_fp16.h>\n";
    if (Wmma.UsesWmma)
      OS << "#include <mma.h>\n";
    if (UsesSwizzle)
      OS << "\n// Element F (row-major) of a swizzled shared array lives at sched_swizzle(F):\n"
            "// its 16-byte chunk bits XORed with row bits, so the rows ldmatrix reads at\n"
            "// one column fall in different banks.\n"
            "template <int Base, int Bits, int Shift>\n"
            "static __device__ __forceinline__ int sched_swizzle(int F) {\n"
            "  return F ^ (((F >> Shift) & ((1 << Bits) - 1)) << Base);\n"
            "}\n";
    if (Wmma.UsesMmaSync) {
      OS << "\n// mma.sync m16n8k16 (PTX ISA): lane L holds A's a0..a7, B's b0..b3 and C's\n"
            "// c0..c3 at the positions the ISA specifies (g = L / 4, t = L % 4).\n";
      OS << "// Each PTX instruction is a wrapper of its own: a host build (the emu\n"
            "// backend, SCHED_CUDA_EMU) defines them per the ISA and runs the rest.\n"
            "#ifndef SCHED_CUDA_EMU\n";
      for (const MmaSyncHelper &H : MmaSyncHelpers)
        if (H.Ptx && UsedHelpers.count(H.Name))
          OS << H.Text;
      OS << "#endif\n";
      for (const MmaSyncHelper &H : MmaSyncHelpers)
        if (!H.Ptx && UsedHelpers.count(H.Name))
          OS << H.Text;
    }
    if (Wmma.UsesWgmma)
      OS << wgmmaHelpers();
    if (!CpAsyncHelpers.empty()) {
      OS << "\n// cp.async (sm_80+): a global -> shared copy that bypasses the registers,\n"
            "// in flight until the thread waits for its group (sched_cp_async_wait<g>: at\n"
            "// most g groups left in flight). 4 and 8 bytes go through\n"
            "// L1 (.ca), 16 around it (.cg). The emu backend (SCHED_CUDA_EMU) copies at once.\n"
            "#ifndef SCHED_CUDA_EMU\n";
      for (const std::string &Name : CpAsyncHelpers)
        OS << cpAsyncHelperText(Name);
      OS << "#endif\n";
    }
    if (!AtomicHelpers.empty()) {
      OS << "\n// Atomic floating-point min and max: a compare-and-swap loop.\n";
      for (const std::string &Name : AtomicHelpers)
        OS << atomicHelperText(Name);
    }
    OS << "\n" << NestLine << Signature << " {\n";
    for (const std::string &Decl : SharedDecls)
      OS << "  " << Decl << "\n";
    OS << Body.str() << "}\n";
    return OS.str();
  }

private:
  const LoweredKernel &K;
  IdentifierNamer Names;
  std::ostringstream Body;
  std::vector<std::string> SharedDecls;
  bool UsesHalf = false;
  std::set<std::string> CpAsyncHelpers; // the cp.async helpers the kernel calls
  std::set<std::string> AtomicHelpers;  // the atomic min/max loops it calls
  bool UsesSwizzle = false;              // some access is to a swizzled shared array
  WmmaScan Wmma;
  std::set<std::string> UsedHelpers; // of MmaSyncHelpers
  /// The variables that stand for elements of vector loads (emitVectorLoop),
  /// with the text they print as.
  std::vector<ir::Var> LaneVars;
  std::map<const ir::VarNode *, std::string> LaneText;
  /// The ranges of the loop and let variables around the statement being
  /// printed: they let a fragment number simplify ((v*256)/256 is v).
  ir::VarRanges Ranges;

  std::string describeSource() const {
    if (K.Kernel.SourceFile.empty())
      return "a loop nest";
    if (K.Kernel.SourceLine == 0)
      return K.Kernel.SourceFile;
    return K.Kernel.SourceFile + ":" + std::to_string(K.Kernel.SourceLine);
  }

  std::string typeName(ir::DType T) {
    UsesHalf |= T == ir::DType::Float16;
    return ir::cudaTypeName(T);
  }

  const std::string &varName(const ir::VarNode *V) { return Names.nameOf(V, V->Name); }
  const std::string &bufName(const ir::Buffer &B) { return Names.nameOf(B.get(), B->Name); }

  /// `__launch_bounds__(T) ` for a block of T threads known at compile
  /// time: the register allocator may then use what T threads can have.
  std::string launchBounds() const {
    int64_t Threads = 1;
    for (const ir::Expr &Dim : K.Geometry.Block) {
      int64_t Extent = 1;
      if (Dim && !ir::getConstInt(Dim, Extent))
        return "";
      Threads *= Extent;
    }
    if (Threads < 1 || Threads > 1024)
      return "";
    return "__launch_bounds__(" + std::to_string(Threads) + ") ";
  }

  std::string signature() {
    Names.reserve(K.Kernel.Name);
    std::string S = "extern \"C\" __global__ void " + launchBounds() + K.Kernel.Name + "(";
    std::set<const ir::BufferNode *> Passed = buffersPassedBetweenThreads(K.Kernel.Body);
    // A scratch buffer of a fixed-order combine across blocks that is not a
    // ticket counter (those are touched atomically) holds the blocks'
    // partials, which the last block reads after its ticket: volatile, so
    // each load goes to memory (ld.volatile), never to a line of L1 left
    // from before, as the CUDA guide's last-block sum reads them.
    std::set<const ir::BufferNode *> Counters;
    bool HasScratch = false;
    for (const ir::Param &P : K.Kernel.Params)
      HasScratch |= P.Scratch;
    if (HasScratch) // the accesses of the kernel, only where there is scratch
      for (const ir::Access &A : ir::collectAccesses(K.Kernel.Body))
        if (A.Atomic)
          Counters.insert(A.Buf.get());
    bool First = true;
    for (const ir::Param &P : K.Kernel.Params) {
      S += First ? "" : ", ";
      First = false;
      if (P.ParamKind == ir::Param::Kind::Buffer && P.Buf && P.Scratch &&
          !Counters.count(P.Buf.get()))
        S += "volatile " + typeName(P.Buf->Type) + "* " + bufName(P.Buf);
      else if (P.ParamKind == ir::Param::Kind::Buffer && P.Buf)
        S += (ir::writesBuffer(K.Kernel.Body, P.Buf.get()) ? "" : "const ") +
             typeName(P.Buf->Type) + "* " + (Passed.count(P.Buf.get()) ? "" : "__restrict__ ") +
             bufName(P.Buf);
      else if (P.ParamKind == ir::Param::Kind::Scalar && P.Scalar)
        S += typeName(P.Scalar->Type) + " " + varName(P.Scalar.get());
    }
    return S + ")";
  }

  //===--- Expressions ---------------------------------------------------===//

  std::string expr(const ir::Expr &E) {
    if (!E)
      return "0";
    switch (E->Kind) {
    case ir::ExprKind::IntImm: {
      const auto *N = ir::as<ir::IntImmNode>(E);
      return intLiteral(N->Value, N->Type);
    }
    case ir::ExprKind::FloatImm: {
      const auto *N = ir::as<ir::FloatImmNode>(E);
      if (N->Type == ir::DType::Float16) {
        UsesHalf = true;
        return "__float2half(" + floatLiteral(N->Value, ir::DType::Float32) + ")";
      }
      return floatLiteral(N->Value, N->Type);
    }
    case ir::ExprKind::Var: {
      auto Lane = LaneText.find(ir::as<ir::VarNode>(E));
      return Lane != LaneText.end() ? Lane->second : varName(ir::as<ir::VarNode>(E));
    }
    case ir::ExprKind::Binary:
      return binary(ir::as<ir::BinaryNode>(E));
    case ir::ExprKind::Unary: {
      const auto *N = ir::as<ir::UnaryNode>(E);
      const char *Symbol = N->Op == ir::UnOp::Neg ? "(-" : N->Op == ir::UnOp::Not ? "(!" : "(~";
      return Symbol + expr(N->A) + ")";
    }
    case ir::ExprKind::Select: {
      const auto *N = ir::as<ir::SelectNode>(E);
      return "(" + expr(N->Cond) + " ? " + expr(N->TrueValue) + " : " + expr(N->FalseValue) +
             ")";
    }
    case ir::ExprKind::Cast:
      return cast(ir::as<ir::CastNode>(E));
    case ir::ExprKind::Load: {
      const auto *N = ir::as<ir::LoadNode>(E);
      return access(N->Buf, N->Indices);
    }
    case ir::ExprKind::Call:
      return call(ir::as<ir::CallNode>(E));
    }
    return "0";
  }

  std::string binary(const ir::BinaryNode *N) {
    if (N->Op == ir::BinOp::Min || N->Op == ir::BinOp::Max) {
      ir::DType T = N->A ? N->A->Type : N->Type;
      UsesHalf |= T == ir::DType::Float16;
      return minMaxFunction(N->Op, T) + "(" + expr(N->A) + ", " + expr(N->B) + ")";
    }
    return "(" + expr(N->A) + " " + ir::binOpSymbol(N->Op) + " " + expr(N->B) + ")";
  }

  /// A stored value. The source rounds a product it stores (a statement
  /// boundary: C++ contracts a*b + c into a fused multiply-add only within one
  /// expression), but ptxas fuses a multiply with an add that reads its
  /// result wherever both meet, across stores to registers and local arrays.
  /// A stored floating-point product therefore goes through the
  /// round-to-nearest multiply intrinsics, which ptxas never contracts.
  std::string storedValue(const ir::Expr &E) {
    const auto *Neg = ir::as<ir::UnaryNode>(E);
    const bool Negated = Neg && Neg->Op == ir::UnOp::Neg;
    const auto *N = ir::as<ir::BinaryNode>(Negated ? Neg->A : E);
    if (!N || N->Op != ir::BinOp::Mul || !ir::isFloat(N->Type))
      return expr(E);
    const char *Intrinsic = N->Type == ir::DType::Float16   ? "__hmul_rn("
                            : N->Type == ir::DType::Float64 ? "__dmul_rn("
                                                            : "__fmul_rn(";
    UsesHalf |= N->Type == ir::DType::Float16;
    std::string S = Intrinsic + unwrap(expr(N->A)) + ", " + unwrap(expr(N->B)) + ")";
    return Negated ? "(-" + S + ")" : S;
  }

  /// Conversions to and from half go through float: cuda_fp16.h provides
  /// those for every architecture.
  std::string cast(const ir::CastNode *N) {
    std::string Value = expr(N->Value);
    bool FromHalf = N->Value && N->Value->Type == ir::DType::Float16;
    if (N->Type == ir::DType::Float16) {
      UsesHalf = true;
      return FromHalf ? Value : "__float2half((float)" + wrap(Value) + ")";
    }
    if (FromHalf)
      return "((" + typeName(N->Type) + ")__half2float(" + unwrap(Value) + "))";
    return "((" + typeName(N->Type) + ")" + wrap(Value) + ")";
  }

  std::string access(const ir::Buffer &B, const std::vector<ir::Expr> &Indices) {
    std::string S = B ? bufName(B) : std::string("null_buffer");
    if (B && B->Swizzle.any() && Indices.size() == 1)
      return S + "[" + swizzled(B, Indices[0]) + "]";
    for (const ir::Expr &I : Indices)
      S += "[" + unwrap(expr(I)) + "]";
    return S;
  }

  /// Element F (row-major) of a swizzled buffer: where it lives. The terms
  /// of F that the swizzle's period (2^(Shift+Bits) elements) divides move
  /// out of it, swz(H + L) = H + swz(L): the swizzle reads and changes only
  /// bits below the period, which H leaves alone. What is left, L, is most
  /// often the lane's own offset, which nvcc computes once.
  std::string swizzled(const ir::Buffer &B, const ir::Expr &F) {
    UsesSwizzle = true;
    ir::Expr H, L;
    splitAtPeriod(B, F, H, L);
    std::string Swz = "sched_swizzle<" + swizzleArgs(B) + ">(" + unwrap(expr(L)) + ")";
    return H ? expr(H) + " + " + Swz : Swz;
  }

  /// F as H + L, H the sum of its terms the swizzle's period divides (null
  /// where none), L the rest (0 where none).
  static void splitAtPeriod(const ir::Buffer &B, const ir::Expr &F, ir::Expr &H, ir::Expr &L) {
    int64_t Period = int64_t(1) << (B->Swizzle.Shift + B->Swizzle.Bits);
    std::vector<ir::Expr> Work = {ir::simplify(F)};
    H = L = nullptr;
    while (!Work.empty()) {
      ir::Expr T = Work.back();
      Work.pop_back();
      const auto *Sum = ir::as<ir::BinaryNode>(T);
      if (Sum && Sum->Op == ir::BinOp::Add) {
        Work.push_back(Sum->B);
        Work.push_back(Sum->A);
        continue;
      }
      int64_t D = ir::knownDivisor(T);
      ir::Expr &Part = D != 0 && D % Period == 0 ? H : L;
      Part = Part ? Part + T : T;
    }
    if (!L)
      L = ir::makeInt(0, F->Type);
  }
  static std::string swizzleArgs(const ir::Buffer &B) {
    return std::to_string(B->Swizzle.Base) + ", " + std::to_string(B->Swizzle.Bits) + ", " +
           std::to_string(B->Swizzle.Shift);
  }

  std::string call(const ir::CallNode *N) {
    ir::WmmaCall W;
    if (ir::decodeWmma(N, W))
      return wmmaCall(W);
    const ir::IntrinsicInfo *Info = ir::lookupIntrinsic(N->Name);
    if (N->Name == "sched.syncthreads" || (Info && Info->IsBarrier))
      return Wmma.UsesWgmma ? "sched_wgmma_syncthreads()" : "__syncthreads()";
    switch (ir::wgmmaControlOf(N->Name)) {
    case ir::WgmmaControl::Fence:
      return "sched_ptx_wgmma_fence()";
    case ir::WgmmaControl::Commit:
      return "sched_ptx_wgmma_commit()";
    case ir::WgmmaControl::Wait: {
      int64_t Pending = 0;
      ir::getConstInt(N->Args.at(0), Pending);
      return "sched_ptx_wgmma_wait<" + std::to_string(Pending) + ">()";
    }
    case ir::WgmmaControl::None:
      break;
    }
    if (N->Name == "sched.cp_async" || N->Name == "sched.cp_async_commit" ||
        N->Name == "sched.cp_async_wait")
      return asyncCopyCall(N);
    if (N->Name == ir::WarpShflXor)
      return shuffleCall(N);
    if (N->Name == ir::BlockTicket)
      return ticketCall(N);
    ir::BinOp AtomicOp;
    if (ir::atomicIntrinsicOp(N->Name, AtomicOp))
      return atomicCall(N, AtomicOp);
    // A math function: its CUDA device function, on arguments of its type.
    if (const ir::MathFunction *M = ir::lookupMathFunction(N->Name)) {
      std::string S = M->CudaName + "(";
      for (size_t I = 0; I < N->Args.size(); ++I) {
        const ir::Expr &Arg = N->Args[I];
        S += (I ? ", " : "") +
             unwrap(expr(Arg && Arg->Type != M->Type ? ir::makeCast(M->Type, Arg) : Arg));
      }
      return S + ")";
    }
    std::string S = ir::cIdentifier(N->Name, "call", "f") + "(";
    for (size_t I = 0; I < N->Args.size(); ++I)
      S += (I ? ", " : "") + expr(N->Args[I]);
    return S + ")";
  }

  /// sched.block_ticket(T, C, n): a release fence, T = atomicInc(&C, n - 1)
  /// (the old value; C wraps to 0 after n - 1), an acquire fence.
  /// __threadfence is fence.sc.gpu, which orders both ways: the partial
  /// written before it is visible to whoever reads the counter after it,
  /// and the last block's loads after the second fence see every partial.
  std::string ticketCall(const ir::CallNode *N) {
    return "__threadfence(); " + expr(N->Args.at(0)) + " = atomicInc(&" + expr(N->Args.at(1)) +
           ", (unsigned)(" + unwrap(expr(N->Args.at(2))) + ") - 1u); __threadfence()";
  }

  /// warp.shfl_xor(D, S, m) as the assignment `D = __shfl_xor_sync(full
  /// mask, S, m)`; types narrower than int (and bool) travel as int, which
  /// __shfl_xor_sync takes.
  std::string shuffleCall(const ir::CallNode *N) {
    ir::DType T = N->Args.at(0)->Type;
    bool ViaInt = ir::dtypeBytes(T) < 4 && T != ir::DType::Float16;
    std::string Value = expr(N->Args.at(1));
    std::string Shuffled = "__shfl_xor_sync(0xffffffffu, " + (ViaInt ? "(int)" + Value : Value) +
                           ", " + expr(N->Args.at(2)) + ")";
    if (ViaInt)
      Shuffled = std::string("(") + ir::cudaTypeName(T) + ")" + Shuffled;
    return expr(N->Args.at(0)) + " = " + Shuffled;
  }

  /// sched.atomic_<op>(P, v) as CUDA's atomic function on &P: atomicAdd,
  /// atomicMin, ... (64-bit integers through the unsigned long long or long
  /// long overloads CUDA has; floating-point min and max through a
  /// compare-and-swap loop of fminf/fmaxf, the IR's Min and Max).
  std::string atomicCall(const ir::CallNode *N, ir::BinOp Op) {
    ir::DType T = N->Args.at(0)->Type;
    std::string Ptr = "&" + expr(N->Args.at(0));
    std::string Value = unwrap(expr(N->Args.at(1)));
    bool Float = ir::isFloat(T);
    bool Min = Op == ir::BinOp::Min, Max = Op == ir::BinOp::Max;
    if (Float && (Min || Max)) {
      std::string Name = std::string("sched_atomic_") + (Min ? "min" : "max") +
                         (T == ir::DType::Float64 ? "_f64" : "_f32");
      AtomicHelpers.insert(Name);
      return Name + "(" + Ptr + ", " + Value + ")";
    }
    const char *Fn = Op == ir::BinOp::Add      ? "atomicAdd"
                     : Min                     ? "atomicMin"
                     : Max                     ? "atomicMax"
                     : Op == ir::BinOp::BitAnd ? "atomicAnd"
                     : Op == ir::BinOp::BitOr  ? "atomicOr"
                                               : "atomicXor";
    bool Wide = T == ir::DType::Int64 || T == ir::DType::UInt64;
    // CUDA has the signed 64-bit overloads for min and max only.
    std::string As = !Wide ? "" : T == ir::DType::Int64 && (Min || Max) ? "long long"
                                                                         : "unsigned long long";
    if (!As.empty())
      return std::string(Fn) + "((" + As + " *)" + Ptr + ", (" + As + ")(" + Value + "))";
    return std::string(Fn) + "(" + Ptr + ", " + Value + ")";
  }

  /// A compare-and-swap loop for a floating-point atomic min or max.
  static std::string atomicHelperText(const std::string &Name) {
    bool F64 = Name.size() > 3 && Name.substr(Name.size() - 3) == "f64";
    bool Min = Name.find("_min_") != std::string::npos;
    std::string T = F64 ? "double" : "float", Bits = F64 ? "unsigned long long" : "unsigned";
    std::string ToBits = F64 ? "__double_as_longlong" : "__float_as_uint";
    std::string FromBits = F64 ? "__longlong_as_double" : "__uint_as_float";
    std::string Fn = std::string(Min ? "fmin" : "fmax") + (F64 ? "" : "f");
    std::string Cast = F64 ? "(unsigned long long)" : "";
    return "static __device__ __forceinline__ void " + Name + "(" + T + " *P, " + T +
           " V) {\n  " + Bits + " *Word = (" + Bits + " *)P;\n  " + Bits +
           " Old = *Word, Assumed;\n  do {\n    Assumed = Old;\n    " + Bits + " New = " +
           Cast + ToBits + "(" + Fn + "(" + FromBits + "(" + (F64 ? "(long long)" : "") +
           "Assumed), V));\n    if (New == Assumed)\n      return;\n    Old = atomicCAS(Word, "
           "Assumed, New);\n  } while (Old != Assumed);\n}\n";
  }

  /// The cp.async intrinsics (ir/Intrinsics.cpp): `sched_cp_async_16(&D[..],
  /// &S[..])` (4, 8 and 16 bytes), `sched_cp_async_commit()`,
  /// `sched_cp_async_wait<g>()` (PTX wants the count as an immediate).
  std::string asyncCopyCall(const ir::CallNode *N) {
    int64_t Value = 0;
    if (N->Name == "sched.cp_async_commit") {
      CpAsyncHelpers.insert("sched_cp_async_commit");
      return "sched_cp_async_commit()";
    }
    if (N->Name == "sched.cp_async_wait") {
      CpAsyncHelpers.insert("sched_cp_async_wait");
      ir::getConstInt(N->Args.at(0), Value);
      return "sched_cp_async_wait<" + std::to_string(Value) + ">()";
    }
    const auto *D = ir::as<ir::LoadNode>(N->Args.at(0));
    const auto *S = ir::as<ir::LoadNode>(N->Args.at(1));
    ir::getConstInt(N->Args.at(3), Value);
    std::string Name = "sched_cp_async_" + std::to_string(Value * ir::dtypeBytes(D->Buf->Type));
    CpAsyncHelpers.insert(Name);
    return Name + "(&" + access(D->Buf, D->Indices) + ", &" + access(S->Buf, S->Indices) + ")";
  }

  //===--- Tensor cores ------------------------------------------------===//

  /// `Af[i]`: fragment i of its array, i = the operand's element / (rows*cols).
  std::string fragmentOperand(const ir::LoadNode *F) {
    std::string Name = bufName(F->Buf);
    const FragmentUse &U = Wmma.Fragments[F->Buf.get()];
    if (F->Indices.size() != 1 || U.M == 0)
      return Name + "[0]"; // the scan reported the buffer (or the kernel is unflattened)
    int64_t Rows, Cols;
    ir::wmmaFragmentShape(F->Buf->MemScope, U.M, U.N, U.K, Rows, Cols);
    int64_t Offset;
    if (ir::getConstInt(F->Indices[0], Offset) && Offset % (Rows * Cols) != 0)
      Wmma.Errors.push_back("fragment '" + F->Buf->Name + "' is named at element " +
                            std::to_string(Offset) + ", which does not start a " +
                            std::to_string(Rows) + "x" + std::to_string(Cols) + " fragment");
    return Name + "[" + unwrap(expr(ir::wmmaFragmentNumber(F->Indices[0], Rows * Cols, &Ranges))) +
           "]";
  }

  static std::string memLayout(int64_t Layout) {
    return Layout == ir::WmmaColMajor ? "nvcuda::wmma::mem_col_major"
                                      : "nvcuda::wmma::mem_row_major";
  }

  /// An mma.* call: a helper of MmaSyncHelpers on the lane's registers.
  std::string mmaSyncCall(const ir::WmmaCall &W) {
    auto Pointer = [&](const ir::LoadNode *P) { return "&" + access(P->Buf, P->Indices); };
    auto Move = [&](const char *Helper, const std::string &To, const std::string &From,
                    const char *Ptx = nullptr) {
      UsedHelpers.insert(Helper);
      UsedHelpers.insert("sched_lane"); // each of them asks for its lane
      if (Ptx)
        UsedHelpers.insert(Ptx);
      return std::string(Helper) + "(" + To + ", " + From + ", " + unwrap(expr(W.Stride)) + ", " +
             (W.Layout == ir::WmmaColMajor ? "true" : "false") + ")";
    };
    switch (W.Op) {
    case ir::WmmaOp::Fill: {
      ir::Expr Value = W.Value && W.Value->Type != ir::DType::Float32
                           ? ir::makeCast(ir::DType::Float32, W.Value)
                           : W.Value;
      UsedHelpers.insert("sched_mma_fill");
      return "sched_mma_fill(" + fragmentOperand(W.Frag) + ", " + unwrap(expr(Value)) + ")";
    }
    case ir::WmmaOp::LoadA:
    case ir::WmmaOp::LoadB: {
      bool IsA = W.Op == ir::WmmaOp::LoadA;
      const ir::Buffer &Mem = W.Memory->Buf;
      if (Mem->Swizzle.any() && W.Memory->Indices.size() == 1) {
        // The tile's first element in row-major order; the helper swizzles
        // each lane's row address.
        std::string Helper = IsA ? "sched_ldmatrix_a_swizzled" : "sched_ldmatrix_b_swizzled";
        UsedHelpers.insert(Helper);
        UsedHelpers.insert("sched_lane");
        UsedHelpers.insert(IsA ? "sched_ptx_ldmatrix_x4" : "sched_ptx_ldmatrix_x2");
        UsesSwizzle = true;
        ir::Expr H, L;
        splitAtPeriod(Mem, W.Memory->Indices[0], H, L);
        return Helper + "<" + swizzleArgs(Mem) + ">(" + fragmentOperand(W.Frag) + ", " +
               bufName(Mem) + (H ? " + " + expr(H) : std::string()) + ", " + unwrap(expr(L)) +
               ", " + unwrap(expr(W.Stride)) + ", " +
               (W.Layout == ir::WmmaColMajor ? "true" : "false") + ")";
      }
      return IsA ? Move("sched_ldmatrix_a", fragmentOperand(W.Frag), Pointer(W.Memory),
                        "sched_ptx_ldmatrix_x4")
                 : Move("sched_ldmatrix_b", fragmentOperand(W.Frag), Pointer(W.Memory),
                        "sched_ptx_ldmatrix_x2");
    }
    case ir::WmmaOp::LoadC:
      return Move("sched_mma_load_c", fragmentOperand(W.Frag), Pointer(W.Memory));
    case ir::WmmaOp::Store:
      return Move("sched_mma_store", Pointer(W.Memory), fragmentOperand(W.Frag));
    case ir::WmmaOp::Mma:
      UsedHelpers.insert("sched_ptx_mma_m16n8k16");
      return "sched_ptx_mma_m16n8k16(" + fragmentOperand(W.D) + ", " + fragmentOperand(W.A) + ", " +
             fragmentOperand(W.B) + ", " + fragmentOperand(W.C) + ")";
    }
    return "0";
  }

  /// The wgmma helpers this kernel calls: the PTX instructions (one
  /// mma_async wrapper per N) inside `#ifndef SCHED_CUDA_EMU`, then the
  /// descriptor, fill and store.
  std::string wgmmaHelpers() const {
    std::ostringstream OS;
    OS << "\n// wgmma (sm_90a, PTX ISA): a warpgroup's 128 threads issue each instruction\n"
          "// together; thread T holds d_0..d_{N/2-1} of the 64 x N accumulator at row\n"
          "// 16*(T/32) + T%32/4 + 8*(i/2%2), column 8*(i/4) + 2*(T%4) + i%2. A and B\n"
          "// are K-major tiles of shared stages, read through matrix descriptors.\n"
          "#ifdef SCHED_CUDA_EMU\n"
          "#error \"the emu backend does not run wgmma (sm_90a) kernels: use SCHED_BACKEND=sim\"\n"
          "#else\n"
          "static __device__ __forceinline__ void sched_ptx_wgmma_fence() {\n"
          "  asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n"
          "}\n"
          "static __device__ __forceinline__ void sched_ptx_wgmma_commit() {\n"
          "  asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");\n"
          "}\n"
          "template <int N> static __device__ __forceinline__ void sched_ptx_wgmma_wait() {\n"
          "  asm volatile(\"wgmma.wait_group.sync.aligned %0;\" ::\"n\"(N) : \"memory\");\n"
          "}\n"
          "// The threads' writes to shared memory, seen by wgmma (the async proxy)\n"
          "// after the barrier.\n"
          "static __device__ __forceinline__ void sched_wgmma_syncthreads() {\n"
          "  asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");\n"
          "  __syncthreads();\n"
          "}\n";
    for (int64_t N : Wmma.WgmmaShapes) {
      // D += A * B^T: scale-d 1, A and B unscaled, both K-major.
      int64_t Regs = N / 2;
      OS << "static __device__ __forceinline__ void sched_ptx_wgmma_m64n" << N
         << "k16(float *D, unsigned long long A, unsigned long long B) {\n"
         << "  asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, 1, 0;\\n\"\n"
         << "               \"wgmma.mma_async.sync.aligned.m64n" << N << "k16.f32.f16.f16 {";
      for (int64_t I = 0; I < Regs; ++I)
        OS << (I ? ", " : "") << "%" << I;
      OS << "}, %" << Regs << ", %" << Regs + 1 << ", p, 1, 1, 0, 0;\\n}\"\n               : ";
      for (int64_t I = 0; I < Regs; ++I)
        OS << (I ? ", " : "") << (I && I % 8 == 0 ? "\n                 " : "") << "\"+f\"(D[" << I << "])";
      OS << "\n               : \"l\"(A), \"l\"(B) : \"memory\");\n}\n";
    }
    OS << "#endif\n"
          "// The descriptor of a K-major tile at P in a stage whose rows are Ld halves\n"
          "// (32, 64 or 128 bytes, swizzled so): start address, leading offset 1\n"
          "// (unused), stride offset 8 rows, swizzle mode 3, 2 or 1.\n"
          "static __device__ __forceinline__ unsigned long long sched_wgmma_desc(const half *P, int Ld) {\n"
          "  unsigned long long A = (unsigned long long)__cvta_generic_to_shared(P);\n"
          "  unsigned long long Mode = Ld == 64 ? 1 : Ld == 32 ? 2 : 3;\n"
          "  return ((A & 0x3FFFF) >> 4) | (1ull << 16) |\n"
          "         ((unsigned long long)((8 * Ld * 2) >> 4) << 32) | (Mode << 62);\n"
          "}\n"
          "// The thread's place in its warpgroup.\n"
          "static __device__ __forceinline__ int sched_warpgroup_thread() {\n"
          "  return (int)((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 128);\n"
          "}\n"
          "template <int N> static __device__ __forceinline__ void sched_wgmma_fill(float *D, float V) {\n"
          "  for (int I = 0; I < N / 2; ++I)\n"
          "    D[I] = V;\n"
          "}\n"
          "template <int N>\n"
          "static __device__ __forceinline__ void sched_wgmma_store(float *P, const float *D, int Ld,\n"
          "                                                         bool ColMajor) {\n"
          "  int T = sched_warpgroup_thread(), W = T / 32, G = T % 32 / 4, Q = T % 4;\n"
          "  for (int I = 0; I < N / 2; ++I) {\n"
          "    int Row = 16 * W + G + 8 * (I / 2 % 2), Col = 8 * (I / 4) + 2 * Q + I % 2;\n"
          "    P[ColMajor ? Col * Ld + Row : Row * Ld + Col] = D[I];\n"
          "  }\n"
          "}\n";
    return OS.str();
  }

  /// A wgmma.* call: its helper (wgmmaHelpers) on the thread's registers.
  std::string wgmmaCall(const ir::WmmaCall &W) {
    std::string N = std::to_string(W.N);
    switch (W.Op) {
    case ir::WmmaOp::Fill: {
      ir::Expr Value = W.Value && W.Value->Type != ir::DType::Float32
                           ? ir::makeCast(ir::DType::Float32, W.Value)
                           : W.Value;
      return "sched_wgmma_fill<" + N + ">(" + fragmentOperand(W.Frag) + ", " + unwrap(expr(Value)) + ")";
    }
    case ir::WmmaOp::Store:
      return "sched_wgmma_store<" + N + ">(&" + access(W.Memory->Buf, W.Memory->Indices) + ", " +
             fragmentOperand(W.Frag) + ", " + unwrap(expr(W.Stride)) + ", " +
             (W.Layout == ir::WmmaColMajor ? "true" : "false") + ")";
    case ir::WmmaOp::Mma: {
      // The tiles' addresses before the swizzle: the hardware applies it.
      auto Desc = [&](const ir::LoadNode *T, const ir::Expr &Ld) {
        std::string At = bufName(T->Buf);
        for (const ir::Expr &I : T->Indices)
          At += " + " + expr(I);
        return "sched_wgmma_desc(" + At + ", " + unwrap(expr(Ld)) + ")";
      };
      return "sched_ptx_wgmma_m64n" + N + "k16(" + fragmentOperand(W.D) + ", " + Desc(W.A, W.StrideA) +
             ", " + Desc(W.B, W.StrideB) + ")";
    }
    default:
      return "0";
    }
  }

  std::string wmmaCall(const ir::WmmaCall &W) {
    if (W.Family == ir::TensorFamily::Mma)
      return mmaSyncCall(W);
    if (W.Family == ir::TensorFamily::Wgmma)
      return wgmmaCall(W);
    const std::string NS = "nvcuda::wmma::";
    auto Pointer = [&](const ir::LoadNode *P) { return "&" + access(P->Buf, P->Indices); };
    switch (W.Op) {
    case ir::WmmaOp::Fill: {
      ir::DType T = W.Frag->Buf->Type;
      ir::Expr Value = W.Value && W.Value->Type != T ? ir::makeCast(T, W.Value) : W.Value;
      return NS + "fill_fragment(" + fragmentOperand(W.Frag) + ", " + unwrap(expr(Value)) + ")";
    }
    case ir::WmmaOp::LoadA:
    case ir::WmmaOp::LoadB:
      return NS + "load_matrix_sync(" + fragmentOperand(W.Frag) + ", " + Pointer(W.Memory) + ", " +
             unwrap(expr(W.Stride)) + ")";
    case ir::WmmaOp::LoadC:
      return NS + "load_matrix_sync(" + fragmentOperand(W.Frag) + ", " + Pointer(W.Memory) + ", " +
             unwrap(expr(W.Stride)) + ", " + memLayout(W.Layout) + ")";
    case ir::WmmaOp::Store:
      return NS + "store_matrix_sync(" + Pointer(W.Memory) + ", " + fragmentOperand(W.Frag) + ", " +
             unwrap(expr(W.Stride)) + ", " + memLayout(W.Layout) + ")";
    case ir::WmmaOp::Mma:
      return NS + "mma_sync(" + fragmentOperand(W.D) + ", " + fragmentOperand(W.A) + ", " +
             fragmentOperand(W.B) + ", " + fragmentOperand(W.C) + ")";
    }
    return "0";
  }

  /// `nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half,
  /// nvcuda::wmma::row_major> Af[2];` for a buffer of 2 matrix_a tiles.
  void emitFragmentAllocate(const ir::AllocateNode *N, int Indent) {
    const ir::Buffer &B = N->Buf;
    auto It = Wmma.Fragments.find(B.get());
    if (It == Wmma.Fragments.end() || It->second.M == 0) {
      // No wmma call names it (nor anything else: the scan would have said).
      line(Indent) << "// fragment '" << B->Name << "' is never used\n";
      emitStmt(N->Body, Indent);
      return;
    }
    const FragmentUse &U = It->second;
    const char *Elem = fragmentElementType(B->MemScope, B->Type);
    if (!Elem)
      Wmma.Errors.push_back("fragment '" + B->Name + "' has element type " +
                            ir::dtypeName(B->Type) + ", which a " + ir::scopeName(B->MemScope) +
                            " fragment cannot hold");
    UsesHalf |= B->Type == ir::DType::Float16;
    int64_t Rows, Cols, Size = ir::constantElements(*B);
    ir::wmmaFragmentShape(B->MemScope, U.M, U.N, U.K, Rows, Cols);
    if (Size <= 0 || Size % (Rows * Cols) != 0)
      Wmma.Errors.push_back("fragment '" + B->Name + "' does not hold a whole number of " +
                            std::to_string(Rows) + "x" + std::to_string(Cols) + " fragments");
    if (U.Family == ir::TensorFamily::Wgmma) {
      // The thread's registers: N/2 floats of each 64 x N accumulator.
      line(Indent) << "float " << bufName(B) << "[" << std::max<int64_t>(Size / (Rows * Cols), 1)
                   << "][" << U.N / 2 << "];\n";
      emitStmt(N->Body, Indent);
      return;
    }
    if (U.Family == ir::TensorFamily::Mma) {
      // The lane's registers: A 4 x 2 halves, B 2 x 2 halves, C 4 floats.
      bool IsAcc = B->MemScope == ir::Scope::WmmaAccumulator;
      line(Indent) << (IsAcc ? "float " : "unsigned ") << bufName(B) << "["
                   << std::max<int64_t>(Size / (Rows * Cols), 1) << "]["
                   << (IsAcc ? 4 : ir::mmaLaneElements(B->MemScope) / 2) << "];\n";
      emitStmt(N->Body, Indent);
      return;
    }
    const std::string NS = "nvcuda::wmma::";
    std::string Use = B->MemScope == ir::Scope::WmmaMatrixA   ? "matrix_a"
                      : B->MemScope == ir::Scope::WmmaMatrixB ? "matrix_b"
                                                              : "accumulator";
    std::string Layout;
    if (B->MemScope != ir::Scope::WmmaAccumulator)
      Layout = ", " + NS + (U.Layout == ir::WmmaColMajor ? "col_major" : "row_major");
    line(Indent) << NS << "fragment<" << NS << Use << ", " << U.M << ", " << U.N << ", " << U.K
                 << ", " << (Elem ? Elem : "void") << Layout << "> " << bufName(B) << "["
                 << std::max<int64_t>(Size / (Rows * Cols), 1) << "];\n";
    emitStmt(N->Body, Indent);
  }

  //===--- Statements ----------------------------------------------------===//

  std::ostream &line(int Indent) {
    for (int I = 0; I < Indent; ++I)
      Body << "  ";
    return Body;
  }

  void emitStmt(const ir::Stmt &S, int Indent) {
    if (!S)
      return;
    switch (S->Kind) {
    case ir::StmtKind::Seq:
      for (const ir::Stmt &Child : ir::as<ir::SeqNode>(S)->Stmts)
        emitStmt(Child, Indent);
      return;
    case ir::StmtKind::For:
      return emitFor(ir::as<ir::ForNode>(S), Indent);
    case ir::StmtKind::Store: {
      const auto *N = ir::as<ir::StoreNode>(S);
      sourceLine(N->Line);
      line(Indent) << access(N->Buf, N->Indices) << " = " << unwrap(storedValue(N->Value))
                   << ";\n";
      return;
    }
    case ir::StmtKind::Allocate:
      return emitAllocate(ir::as<ir::AllocateNode>(S), Indent);
    case ir::StmtKind::IfThenElse: {
      const auto *N = ir::as<ir::IfThenElseNode>(S);
      line(Indent) << "if (" << unwrap(expr(N->Cond)) << ") {\n";
      emitStmt(N->Then, Indent + 1);
      if (N->Else) {
        line(Indent) << "} else {\n";
        emitStmt(N->Else, Indent + 1);
      }
      line(Indent) << "}\n";
      return;
    }
    case ir::StmtKind::LetStmt: {
      const auto *N = ir::as<ir::LetStmtNode>(S);
      line(Indent) << "const " << typeName(N->LetVar->Type) << " " << varName(N->LetVar.get())
                   << " = " << unwrap(expr(N->Value)) << ";\n";
      ScopedEntry<ir::VarRanges> Scope(Ranges, N->LetVar.get(), ir::boundsOf(N->Value, Ranges));
      emitStmt(N->Body, Indent);
      return;
    }
    case ir::StmtKind::Evaluate:
      sourceLine(0);
      line(Indent) << expr(ir::as<ir::EvaluateNode>(S)->Value) << ";\n";
      return;
    }
  }

  /// A `#line` directive before a statement that comes from source line L
  /// of the nest's file (0: sched made it, the nest's own line), where the
  /// last one named another line: profilers, compute-sanitizer and NVRTC's
  /// line info then point at the C++ line.
  void sourceLine(int L) {
    if (K.Kernel.SourceFile.empty())
      return;
    if (L <= 0) {
      // What sched made stays with the nest's line: once there, the text
      // after it is not moved again.
      L = K.Kernel.SourceLine;
      if (L <= 0 || LastDirective == L)
        return;
    } else if (LastLine > 0) {
      // The line the text after the last directive is at now.
      std::string Text = Body.str();
      int Now = LastLine + static_cast<int>(std::count(Text.begin() + static_cast<std::ptrdiff_t>(
                                                            std::min(LastPos, Text.size())),
                                                        Text.end(), '\n'));
      if (Now == L)
        return;
    }
    std::string File;
    for (char C : K.Kernel.SourceFile) {
      if (C == '\\' || C == '"')
        File += '\\';
      File += C;
    }
    Body << "#line " << L << " \"" << File << "\"\n";
    LastLine = LastDirective = L;
    LastPos = static_cast<size_t>(Body.tellp());
  }
  int LastDirective = 0; // the line the last #line directive named
  int LastLine = 0;   // of the last #line directive
  size_t LastPos = 0; // where the text after it starts in Body

  void emitFor(const ir::ForNode *N, int Indent) {
    ScopedEntry<ir::VarRanges> Scope(Ranges, N->LoopVar.get(),
                     {N->Min, ir::simplify(N->Min + N->Extent - ir::makeInt(1, N->Min->Type))});
    const std::string &V = varName(N->LoopVar.get());
    std::string Type = typeName(N->LoopVar->Type);
    if (N->LoopKind == ir::ForKind::ThreadBound)
      return emitThreadLoop(N, V, Type, Indent);
    ir::VectorLoop Plan;
    if (N->LoopKind == ir::ForKind::Vectorized && ir::planVectorLoop(N, Plan).empty())
      return emitVectorLoop(N, Plan, Indent);
    // A vectorized loop the plan refuses (VectorizeLoops warned about it
    // and unrolled it; this is IR that did not pass there) is unrolled too.
    if (N->LoopKind == ir::ForKind::Unrolled || N->LoopKind == ir::ForKind::Vectorized)
      line(Indent) << "#pragma unroll\n";
    int64_t Min = 0;
    bool ZeroMin = ir::getConstInt(N->Min, Min) && Min == 0;
    std::string Start = ZeroMin ? "0" : expr(N->Min);
    std::string End = ZeroMin ? unwrap(expr(N->Extent))
                              : "(" + expr(N->Min) + " + " + expr(N->Extent) + ")";
    line(Indent) << "for (" << Type << " " << V << " = " << Start << "; " << V << " < " << End
                 << "; ++" << V << ") {\n";
    emitStmt(N->Body, Indent + 1);
    line(Indent) << "}\n";
  }

  /// E as lane Lane of vectorized loop L computes it: each vector load of
  /// Plan replaced by its element Lane (a variable LaneText prints as
  /// `t.x`), L's variable by Lane.
  ir::Expr laneExpr(const ir::Expr &E, const ir::ForNode *L, int64_t Lane,
                    const std::map<const ir::LoadNode *, std::vector<ir::Var>> &Elements) {
    struct LaneMutator : ir::IRMutator {
      const std::map<const ir::LoadNode *, std::vector<ir::Var>> &Elements;
      int64_t Lane;
      LaneMutator(const std::map<const ir::LoadNode *, std::vector<ir::Var>> &Elements,
                  int64_t Lane)
          : Elements(Elements), Lane(Lane) {}
      ir::Expr mutateLoad(const ir::Expr &E, const ir::LoadNode *N) override {
        auto It = Elements.find(N);
        return It != Elements.end() ? ir::Expr(It->second[Lane]) : ir::IRMutator::mutateLoad(E, N);
      }
    } Mutator(Elements, Lane);
    return ir::substitute(Mutator.mutate(E),
                          {{L->LoopVar.get(), ir::makeInt(Lane, L->LoopVar->Type)}});
  }

  /// A fresh variable of type T that prints as Text (kept alive with the
  /// emitter: names are by node).
  ir::Var laneVar(ir::DType T, const std::string &Hint, const std::string &Text = "") {
    ir::Var V = ir::makeVar(Hint, T);
    LaneVars.push_back(V);
    if (!Text.empty())
      LaneText[V.get()] = Text;
    return V;
  }

  void emitVectorLoop(const ir::ForNode *L, const ir::VectorLoop &Plan, int Indent) {
    static const char Components[] = "xyzw";
    line(Indent) << "// vectorized loop '" << L->LoopVar->Name << "': " << Plan.Lanes
                 << " lanes\n";
    if (Plan.CopyType) {
      for (const ir::StoreNode *St : Plan.Stores) {
        const auto *Ld = ir::as<ir::LoadNode>(St->Value);
        line(Indent) << "*reinterpret_cast<" << Plan.CopyType << " *>(&"
                     << access(St->Buf, {Plan.VectorStores.at(St)}) << ") = *reinterpret_cast<const "
                     << Plan.CopyType << " *>(&" << access(Ld->Buf, {Plan.VectorLoads.at(Ld)})
                     << ");\n";
      }
      return;
    }
    for (const ir::StoreNode *St : Plan.Stores) {
      line(Indent) << "{\n";
      // The vector loads of this statement, each its own variable.
      std::map<const ir::LoadNode *, std::vector<ir::Var>> Elements;
      auto Loads = Plan.LoadsOf.find(St);
      const std::vector<const ir::LoadNode *> NoLoads;
      for (const ir::LoadNode *Ld : Loads == Plan.LoadsOf.end() ? NoLoads : Loads->second) {
        std::string Vec = vectorTypeName(Ld->Buf->Type, Plan.Lanes);
        const std::string &T = varName(laneVar(Ld->Buf->Type, bufName(Ld->Buf) + "_v").get());
        line(Indent + 1) << "const " << Vec << " " << T << " = *reinterpret_cast<const " << Vec
                         << " *>(&" << access(Ld->Buf, {Plan.VectorLoads.at(Ld)}) << ");\n";
        for (int64_t Lane = 0; Lane < Plan.Lanes; ++Lane)
          Elements[Ld].push_back(
              laneVar(Ld->Buf->Type, "lane", T + "." + Components[Lane]));
      }
      auto Vector = Plan.VectorStores.find(St);
      if (Vector == Plan.VectorStores.end()) {
        // A local array: one register per lane.
        for (int64_t Lane = 0; Lane < Plan.Lanes; ++Lane)
          line(Indent + 1) << access(St->Buf, {laneExpr(St->Indices[0], L, Lane, Elements)})
                           << " = " << unwrap(storedValue(laneExpr(St->Value, L, Lane, Elements)))
                           << ";\n";
      } else {
        std::string Vec = vectorTypeName(St->Buf->Type, Plan.Lanes);
        const std::string &U = varName(laneVar(St->Buf->Type, bufName(St->Buf) + "_v").get());
        line(Indent + 1) << Vec << " " << U << ";\n";
        for (int64_t Lane = 0; Lane < Plan.Lanes; ++Lane)
          line(Indent + 1) << U << "." << Components[Lane] << " = "
                           << unwrap(storedValue(laneExpr(St->Value, L, Lane, Elements)))
                           << ";\n";
        line(Indent + 1) << "*reinterpret_cast<" << Vec << " *>(&"
                         << access(St->Buf, {Vector->second}) << ") = " << U << ";\n";
      }
      line(Indent) << "}\n";
    }
  }

  /// The device definition of one cp.async helper.
  static std::string cpAsyncHelperText(const std::string &Name) {
    const std::string Head = "static __device__ __forceinline__ void ";
    if (Name == "sched_cp_async_commit")
      return Head + Name + "() {\n  asm volatile(\"cp.async.commit_group;\" ::: \"memory\");\n}\n";
    if (Name == "sched_cp_async_wait")
      return "template <int Groups> " + Head + Name +
             "() {\n  asm volatile(\"cp.async.wait_group %0;\" :: \"n\"(Groups) : \"memory\");\n}\n";
    std::string Bytes = Name.substr(std::string("sched_cp_async_").size());
    return Head + Name + "(void *Dst, const void *Src) {\n  asm volatile(\"cp.async." +
           (Bytes == "16" ? "cg" : "ca") + ".shared.global [%0], [%1], " + Bytes +
           ";\"\n               :: \"r\"((unsigned)__cvta_generic_to_shared(Dst)),\n"
           "                  \"l\"(__cvta_generic_to_global(Src)) : \"memory\");\n}\n";
  }

  std::string vectorTypeName(ir::DType T, int64_t Lanes) {
    UsesHalf |= T == ir::DType::Float16;
    return ir::cudaVectorTypeName(T, Lanes);
  }

  void emitThreadLoop(const ir::ForNode *N, const std::string &V, const std::string &Type,
                      int Indent) {
    int64_t Min = 0;
    bool ZeroMin = ir::getConstInt(N->Min, Min) && Min == 0;
    line(Indent) << Type << " " << V << " = (" << Type << ")" << N->ThreadTag
                 << (ZeroMin ? "" : " + " + expr(N->Min)) << ";\n";
    ir::Expr Launch = launchExtent(K.Geometry, N->ThreadTag);
    if (ZeroMin && Launch && ir::provablyEqual(Launch, N->Extent)) {
      emitStmt(N->Body, Indent);
      return;
    }
    std::string Bound = ZeroMin ? expr(N->Extent)
                                : "(" + expr(N->Min) + " + " + expr(N->Extent) + ")";
    line(Indent) << "if (" << V << " < " << Bound << ") {\n";
    emitStmt(N->Body, Indent + 1);
    line(Indent) << "}\n";
  }

  void emitAllocate(const ir::AllocateNode *N, int Indent) {
    if (isWmmaScope(N->Buf->MemScope))
      return emitFragmentAllocate(N, Indent);
    std::string Size;
    for (const ir::Expr &Dim : N->Buf->Shape)
      Size += "[" + expr(Dim) + "]";
    if (N->Buf->Shape.empty())
      Size = "[1]";
    std::string Decl = typeName(N->Buf->Type) + " " + bufName(N->Buf) + Size + ";";
    // load_matrix_sync and store_matrix_sync need 32-byte aligned tiles;
    // 16 bytes let neighbouring loads of a thread merge into 128-bit ones.
    // A shared array is declared at the kernel's top (allocated once: the
    // verifier's final form).
    if (N->Buf->MemScope == ir::Scope::Shared)
      SharedDecls.push_back(std::string("__shared__ ") +
                            (Wmma.WgmmaStages.count(N->Buf.get()) ? "__align__(1024) "
                             : Wmma.Memory.count(N->Buf.get())    ? "__align__(32) "
                                                                  : "__align__(16) ") +
                            Decl);
    else
      line(Indent) << Decl << "\n";
    emitStmt(N->Body, Indent);
  }
};

} // namespace

int minimumComputeCapability(const ir::LoopNest &Kernel) {
  WmmaScan Scan;
  Scan.visit(Kernel.Body);
  if (Scan.UsesWgmma)
    return 90; // wgmma.mma_async (sm_90a)
  if (Scan.UsesMmaSync)
    return 80; // mma.sync.aligned.m16n8k16 with f16 operands
  if (!Scan.UsesWmma)
    return 0;
  for (const auto &Entry : Scan.Fragments)
    if (Entry.first->Type == ir::DType::Int8 || Entry.first->Type == ir::DType::UInt8)
      return 72;
  return 70;
}

/// Text as the inside of a C string literal on one line.
static std::string stringLiteralBody(const std::string &Text) {
  std::string S;
  for (char C : Text)
    S += C == '"'    ? std::string("\\\"")
         : C == '\\' ? std::string("\\\\")
         : C == '\n'  ? std::string(" ")
                      : std::string(1, C);
  return S;
}

bool emitCUDA(const LoweredKernel &K, std::string &Out, std::vector<Diag> &Diags) {
  std::vector<std::string> Errors;
  Out = CUDAEmitter(K).emit(Errors);
  // An architecture asked for that lacks the kernel's instructions would
  // fail in a CUDA header at best: say so here, where the frontend still
  // keeps the loop.
  int Needed = minimumComputeCapability(K.Kernel);
  if (K.Arch.isSet() && K.Arch.Number < Needed)
    Errors.push_back("it needs sm_" + std::to_string(Needed) +
                     " or newer, but the target architecture is " + K.Arch.name());
  for (const std::string &Message : Errors) {
    Diag D;
    D.Message = "cannot emit CUDA for kernel '" + K.Kernel.Name + "': " + Message;
    Diags.push_back(D);
  }
  return Errors.empty();
}

std::string emitCUDA(const LoweredKernel &K) {
  std::string Out;
  std::vector<Diag> Diags;
  if (emitCUDA(K, Out, Diags))
    return Out;
  // A kernel CUDA cannot express must not compile: its errors become
  // #error lines that nvcc and NVRTC print.
  std::string Refused = "// Generated by sched: this kernel cannot be emitted as CUDA.\n";
  for (const Diag &D : Diags)
    Refused += "#error \"" + stringLiteralBody(D.Message) + "\"\n";
  return Refused;
}

} // namespace sched
