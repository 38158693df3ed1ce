//===- Intrinsics.h - Operand declarations of intrinsic calls --*- C++ -*-===//
//
// DESIGN 5.1: every intrinsic declares its operands - which argument is a
// buffer it reads, which a buffer it writes, which argument indexes a
// fragment - and every analysis (Access.h, virtual-thread injection, thread
// sync) reads this table, never the call's shape. A buffer is passed to an
// intrinsic as a Load of its first element (Load(Buf, {offset...})).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_INTRINSICS_H
#define SCHED_IR_INTRINSICS_H

#include "Bounds.h"
#include "IR.h"

#include <string>
#include <vector>

namespace sched {
namespace ir {

enum class OperandRole : unsigned char {
  Value,         // an ordinary value argument
  ReadBuffer,    // a buffer the intrinsic reads (Load of its base)
  WriteBuffer,   // a buffer the intrinsic writes
  ReadWriteBuffer,
  FragmentIndex  // indexes the fragment of the preceding buffer operand
};

/// A buffer operand that names a whole tile, not one element: the operand
/// is a Load of the tile's first element, and the intrinsic touches the
/// Rows x Cols elements from there. Rows and Cols are the constant values of
/// the operands RowsFrom and ColsFrom. Before StorageFlatten the tile spans
/// the operand's last two indices (element (r, c) at [..., i + r, j + c],
/// [..., i + c, j + r] when column-major); after it, element (r, c) lies at
/// p + r*ld + c (row-major) or p + c*ld + r (column-major), with ld the value
/// of operand StrideFrom, or Cols when StrideFrom is -1 (a dense tile).
/// LayoutFrom is the operand holding the layout (WmmaRowMajor or
/// WmmaColMajor), -1 for always row-major.
struct TileDecl {
  int RowsFrom = -1, ColsFrom = -1; // -1 in both: the operand is one element
  int StrideFrom = -1;
  int LayoutFrom = -1;
  bool IsFragment = false; // the operand is a tensor-core fragment (a buffer in a wmma scope)
  bool isTile() const { return RowsFrom >= 0; }
};

struct IntrinsicInfo {
  std::string Name;
  std::vector<OperandRole> Operands;
  /// Per operand (empty, or as long as Operands): the tile a buffer operand
  /// covers.
  std::vector<TileDecl> Tiles;
  bool IsBarrier = false;   // orders memory between the threads of a block
  bool IsPure = false;      // math: no memory effects at all
  /// Executed by a whole warp together: every one of its 32 lanes calls it
  /// at the same point with the same arguments, and it runs once for the
  /// warp. A pass never guards it on a lane, distributes it over threads or
  /// gives lanes different arguments.
  bool IsWarpCollective = false;
  /// The threads that execute a collective together: 32 (a warp), or 128 for
  /// the warpgroup instructions of wgmma (4 consecutive warps, the first a
  /// multiple of 4). Warpgroup collectives are warp collectives too
  /// (IsWarpCollective), so every rule for those holds for them.
  int CollectiveThreads = 32;
  /// A collective whose lanes are threadIdx.x 0..31 (the tensor-core calls:
  /// fragment layouts and warp indices assume it, so threadIdx.x has launch
  /// extent 32); false: any 32 consecutive threads of the block form a warp
  /// (a shuffle), which needs only whole warps.
  bool LanesAreThreadIdxX = true;
  /// An atomic read-modify-write of its read-write buffer operand (its other
  /// buffer operands are plain accesses): it commutes with
  /// every other atomic update of the element (no two of them conflict), but
  /// conflicts with plain accesses like a write.
  bool IsAtomic = false;
  DType ResultType = DType::Int32; // the type of a call (Int32 for "void")

  TileDecl tile(size_t Operand) const { return Operand < Tiles.size() ? Tiles[Operand] : TileDecl(); }
};

/// The layouts a tile operand's LayoutFrom holds.
enum : int64_t { WmmaRowMajor = 0, WmmaColMajor = 1 };

/// The tensor-core (wmma) intrinsics, all warp-collective. m, n, k are the
/// shape (constant operands); a fragment F is passed as a Load of the first
/// element of its tile in a wmma-scope buffer, a memory operand P as a Load
/// of the tile's first element in global or shared memory:
///   wmma.fill(F, value, m, n, k)              accumulator F (m x n) = value
///   wmma.load_a(F, P, ld, layout, m, n, k)    matrix_a F (m x k) from P
///   wmma.load_b(F, P, ld, layout, m, n, k)    matrix_b F (k x n) from P
///   wmma.load_c(F, P, ld, layout, m, n, k)    accumulator F (m x n) from P
///   wmma.store(P, F, ld, layout, m, n, k)     accumulator F (m x n) to P
///   wmma.mma(D, A, B, C, m, n, k)             D = A*B + C
/// The fragments' element types and their wmma scopes must agree with the
/// operation (checked by VerifyKernel). A matrix_a or matrix_b fragment
/// buffer is loaded with one layout throughout (it is part of its CUDA type).
enum class WmmaOp { Fill, LoadA, LoadB, LoadC, Store, Mma };

/// The two tensor-core instruction families. Both have the calls above with
/// the same operands, tiles and fragment scopes (wmma.matrix_a/_b/accumulator
/// buffers: a fragment is Rows x Cols elements there too), so every analysis
/// reads one declaration and one decoder:
///  - Wmma: `wmma.*`, CUDA's nvcuda::wmma API; a fragment's lane layout is
///    unspecified, so it is an opaque per-warp matrix.
///  - Mma: `mma.*`, PTX mma.sync.aligned.m16n8k16 (sm_80+) fed by ldmatrix:
///    the per-lane register layout is specified by the PTX ISA (mmaLaneElement
///    below), and a fragment's Rows*Cols elements are the warp's registers,
///    lane by lane: element L*R + i is register element i of lane L (R =
///    Rows*Cols/32). mma.load_a / mma.load_b are ldmatrix.x4 / .x2 (.trans for
///    a column-major A or a row-major B) and read shared memory only;
///    mma.load_c / mma.store move each lane's accumulator elements one by one
///    (global or shared). Shapes: m16n8k16 (fp16 -> fp32).
///  - Wgmma: `wgmma.*`, PTX wgmma.mma_async m64nNk16 (sm_90a), issued by a
///    warpgroup of 128 threads (IntrinsicInfo::CollectiveThreads): only
///    wgmma.fill, wgmma.mma and wgmma.store exist. The accumulator fragment is
///    64 x N; its cells are the warpgroup's registers, thread by thread
///    (element T*R + i is register i of thread T, R = N/2: wgmmaLaneElement).
///    A and B are read from shared memory directly (no fragments), both
///    K-major:
///      wgmma.mma(D, A, lda, B, ldb, m, n, k)   D += A * B^T
///    A is the m x k tile at A (row-major, rows lda apart), B the n x k tile
///    at B (B's columns stored as rows, ldb apart). A stage that wgmma reads
///    has rows of 32, 64 or 128 bytes (lda * 2) and the matching XOR swizzle
///    of PTX's canonical K-major layout (wgmmaSwizzle), so the descriptor's
///    stride-dimension offset is 8 rows and the tile is the plain strided tile
///    that every analysis reads. wgmma.mma is asynchronous: the warpgroup
///    calls wgmma.fence() before a batch of them, wgmma.commit() after it, and
///    wgmma.wait(0) before the accumulators are read (the simulator checks
///    these rules and that no barrier is crossed with a wgmma in flight).
enum class TensorFamily : unsigned char { Wmma, Mma, Wgmma };
const char *wmmaIntrinsicName(WmmaOp Op, TensorFamily Family = TensorFamily::Wmma);

/// A wmma call taken apart (decodeWmma). Operands that the operation does
/// not have are null.
struct WmmaCall {
  WmmaOp Op;
  const LoadNode *Frag = nullptr;   // fill, load_*: the fragment written; store: the one read
  const LoadNode *Memory = nullptr; // load_*, store: the memory tile
  Expr Value;                       // fill: the value
  Expr Stride;                      // load_*, store: ld
  int64_t Layout = WmmaRowMajor;    // load_*, store
  const LoadNode *D = nullptr, *A = nullptr, *B = nullptr, *C = nullptr; // mma
  Expr StrideA, StrideB;            // wgmma.mma: lda, ldb (A and B are memory tiles; C is D)
  int64_t M = 0, N = 0, K = 0;
  TensorFamily Family = TensorFamily::Wmma;
};

/// Whether E is a call to a wmma or mma intrinsic; fills Out if so. False for a
/// malformed call (wrong arity, a non-constant shape or layout, an operand
/// that is not a Load).
bool isWmmaCall(const Expr &E);
bool decodeWmma(const CallNode *Call, WmmaCall &Out);

/// The rows x cols of the fragment of kind Sc in an m x n x k operation
/// (matrix_a: m x k, matrix_b: k x n, accumulator: m x n).
void wmmaFragmentShape(Scope Sc, int64_t M, int64_t N, int64_t K, int64_t &Rows, int64_t &Cols);

/// The number of the fragment that a fragment operand names in its buffer:
/// the flat index of the tile's first element divided by the tile's Rows *
/// Cols elements (the tensorize pass passes multiples of it). Simplified over
/// Ranges, so (v*256) with v >= 0 known gives v; where the simplifier cannot
/// divide, the division itself. The one definition for every backend.
Expr wmmaFragmentNumber(const Expr &FlatIndex, int64_t TileElems, const VarRanges *Ranges = nullptr);

/// Builds a wmma (or mma) call (the caller's operands in the order listed
/// above).
Expr makeWmmaCall(WmmaOp Op, std::vector<Expr> Operands, int64_t M, int64_t N, int64_t K,
                  TensorFamily Family = TensorFamily::Wmma);

/// The bytes of one lane's part of a wmma fragment (PTX "Matrix Storage for
/// WMMA": each row or column of a memory tile starts at a multiple of it):
/// fp16 A/B fragments hold 16 halves, accumulators 8 elements, int8 A/B an
/// even share of the tile.
int64_t wmmaLaneFragmentBytes(Scope Sc, DType T, int64_t Rows, int64_t Cols);

/// What a memory tile's first element and leading dimension must be
/// aligned to, in bytes: wmma (the CUDA guide: a 256-bit aligned pointer;
/// ld*sizeof(T) a multiple of 16 bytes and of wmmaLaneFragmentBytes), mma
/// (ldmatrix: every 8-element row on 16 bytes; its per-lane stores need
/// nothing). The simulator checks them at run time, the tensorize passes at
/// compile time.
int64_t tileStartAlignment(TensorFamily Family, WmmaOp Op);
int64_t tileStrideAlignment(TensorFamily Family, WmmaOp Op, Scope FragScope, DType T, int64_t Rows,
                            int64_t Cols);

/// The shapes CUDA's wmma offers for half and 8-bit operands: m16n16k16,
/// m32n8k16, m8n32k16.
bool isWmmaShape(int64_t M, int64_t N, int64_t K);

/// The sizes one sched.cp_async copies: 4, 8 or 16 bytes (PTX cp.async).
bool isAsyncCopyBytes(int64_t Bytes);

/// The mma.sync shapes: m16n8k16 with fp16 operands and fp32 accumulators.
bool isMmaSyncShape(int64_t M, int64_t N, int64_t K);

/// The PTX ISA's fragment layout of mma.sync.aligned.m16n8k16 (f16 A/B, f32
/// C/D; "Matrix Fragments for mma.m16n8k16"): the (Row, Col) in the
/// fragment's matrix (matrix_a m x k, matrix_b k x n, accumulator m x n) of
/// element I of lane Lane's registers. With g = Lane / 4, t = Lane % 4:
///   A (I < 8):  row g + 8*(I/2 % 2), col 2t + I%2 + 8*(I >= 4)
///   B (I < 4):  row 2t + I%2 + 8*(I >= 2), col g
///   C (I < 4):  row g + 8*(I >= 2),  col 2t + I%2
/// Elements per lane: mmaLaneElements. The one definition for the simulator
/// and the CUDA backend.
int64_t mmaLaneElements(Scope Sc);
void mmaLaneElement(Scope Sc, int64_t Lane, int64_t I, int64_t &Row, int64_t &Col);

/// ldmatrix for mma.load_a / mma.load_b: A is four 8x8 matrices (.x4: top
/// left, bottom left, top right, bottom right), B two (.x2: k 0-7, k 8-15).
/// Lanes 8j..8j+7 give the addresses of the eight 16-byte rows of matrix j;
/// register j of lane L receives row L/4, columns 2(L%4) and 2(L%4)+1 of it
/// (.trans: the transpose). That yields mmaLaneElement's layout when a
/// matrix's memory rows run along A's k (row-major A) or B's k (column-major
/// B, i.e. B stored n by n); the other layouts need .trans.
int64_t ldmatrixCount(Scope Sc);                 // 4 for matrix_a, 2 for matrix_b
bool ldmatrixTransposes(Scope Sc, int64_t Layout); // .trans
/// The fragment-matrix (Row, Col) of the first of the eight elements whose
/// address lane Lane gives (lanes from 8 * ldmatrixCount on repeat lanes
/// 0..; ldmatrix ignores them); the row's elements run along the memory
/// tile's contiguous direction from there.
void ldmatrixLaneRow(Scope Sc, int64_t Layout, int64_t Lane, int64_t &Row, int64_t &Col);

/// The wgmma shapes: m64nNk16, N a multiple of 8 up to 256 (fp16 -> fp32).
bool isWgmmaShape(int64_t M, int64_t N, int64_t K);

/// The PTX ISA's layout of the f32 accumulator of wgmma.mma_async.m64nNk16
/// ("Matrix Fragments for wgmma.m64nNk16"): the (Row, Col) of register I
/// (I < N/2) of warpgroup thread T (0..127). With w = T / 32 (the warp in
/// the group), g = T % 32 / 4, t = T % 4:
///   row 16w + g + 8*(I/2 % 2), col 8*(I/4) + 2t + I%2
/// (mma.sync's accumulator layout, repeated over the N/8 column blocks, each
/// warp owning 16 rows). The one definition for the simulator and the CUDA
/// backend.
void wgmmaLaneElement(int64_t T, int64_t I, int64_t &Row, int64_t &Col);

/// The swizzle of a K-major stage whose rows are RowElems float16 elements
/// (32, 64 or 128 bytes: PTX's 32B, 64B, 128B swizzling modes,
/// Swizzle<1|2|3, 4, 3> on byte addresses); false for any other row length.
/// The repeating pattern is 8 rows, so the stage starts on 8 * row bytes.
bool wgmmaSwizzle(int64_t RowElems, Swizzle &Out);

/// Whether a stage whose rows are RowElems halves and whose swizzle is Have
/// is in PTX's canonical K-major layout for wgmma (Have is wgmmaSwizzle's).
bool hasWgmmaLayout(const Swizzle &Have, int64_t RowElems);

/// The wgmma control instructions (warpgroup collectives without operands
/// but wait's count): "wgmma.fence", "wgmma.commit", "wgmma.wait".
enum class WgmmaControl : unsigned char { None, Fence, Commit, Wait };
/// Which one a call named Name is (None for any other call).
WgmmaControl wgmmaControlOf(const std::string &Name);
Expr makeWgmmaFence();
Expr makeWgmmaCommit();
Expr makeWgmmaWait(int64_t Pending);

/// The warp shuffle `warp.shfl_xor(D, S, lane_mask)`: every lane L of the
/// warp sets its local element D to the value of local element S of lane
/// L ^ lane_mask (CUDA's __shfl_xor_sync over the full warp, 0 < lane_mask
/// < 32). A warp collective like the tensor-core calls: the 32 lanes call it
/// together with the same operands (the same local elements, each lane its
/// own copy), never under a condition that tells lanes apart; only the
/// values differ. Cross-thread reductions combine partial results with it
/// (passes/gpu/LowerThreadReductions.cpp).
extern const char *const WarpShflXor;
/// The atomic update `sched.atomic_<op>(P, v)`: element P of a global
/// buffer becomes P op v, atomically (CUDA's atomicAdd, atomicMin, ...; a
/// floating-point min or max is a compare-and-swap loop). Op is one of + min
/// max & | ^; null for any other. Cross-block reductions end with it
/// (passes/gpu/LowerThreadReductions.cpp).
const char *atomicIntrinsicName(BinOp Op);
/// Whether the GPU updates an element of type T atomically with Op (CUDA's
/// atomicAdd, Min, Max on 32- and 64-bit integers and float/double, the
/// last two as a compare-and-swap loop for floating point; And, Or, Xor on
/// integers).
bool hasAtomicUpdate(BinOp Op, DType T);
/// Whether atomic Op updates of a T give the same result in any order:
/// integer + (wrapping), min, max, &, |, ^ and floating-point min and max;
/// not a floating-point sum, whose rounding depends on the order.
bool atomicUpdateIsExact(BinOp Op, DType T);
/// The operation of an atomic update intrinsic; false for any other call.
bool atomicIntrinsicOp(const std::string &Name, BinOp &Op);
Stmt makeAtomicUpdate(BinOp Op, const Buffer &B, const std::vector<Expr> &Indices, Expr Value);
Stmt makeWarpShflXor(const Buffer &D, const Buffer &S, int64_t LaneMask);
/// `sched.block_ticket(T, C, n)`: the block's ticket of a fixed-order
/// combine across blocks. Everything the calling thread wrote before it is
/// released to the block that later sees the last ticket, and that block
/// acquires what every earlier caller released: T (a local uint32 element)
/// becomes the old value of counter C (a global uint32 element), which
/// counts to n - 1 and then wraps to 0 (CUDA's `__threadfence(); T =
/// atomicInc(&C, n - 1); __threadfence();`), so the n blocks of a group get
/// the tickets 0 .. n-1, one each, and the counter is 0 again after them.
/// The update of C is atomic; the write of T is plain. The simulator's race
/// detector orders the releasing blocks' accesses before the acquiring
/// block's (runtime/sim).
extern const char *const BlockTicket;
Stmt makeBlockTicket(const Buffer &Ticket, const Buffer &Counter, Expr CounterIndex, Expr Blocks);

/// Whether E is a call to an intrinsic declared warp-collective.
bool isWarpCollectiveCall(const Expr &E);

/// The threads that execute E together when it is a collective (32 or
/// 128), 0 when it is none.
int collectiveThreads(const Expr &E);

/// The declaration of intrinsic Name, or nullptr when unknown (an unknown
/// call is treated as reading and writing everything).
const IntrinsicInfo *lookupIntrinsic(const std::string &Name);

/// Adds (or replaces) the declaration of an intrinsic, so that a pass or
/// backend can declare the intrinsics it emits (wmma, VTA) next to its code.
void registerIntrinsic(const IntrinsicInfo &Info);

/// Whether some call in Body takes a tile of Buf as an operand (a Load of
/// Buf among its arguments: wmma/ldmatrix loads, VTA copies): such a buffer
/// is read with the intrinsic's own layout and stride, so its layout stays.
bool isIntrinsicOperand(const Stmt &Body, const BufferNode *Buf);

/// The result type a call to Name has unless its text says otherwise
/// (the printer omits it then): the table's ResultType, Int32 if unknown.
DType intrinsicResultType(const std::string &Name);

} // namespace ir
} // namespace sched

#endif
