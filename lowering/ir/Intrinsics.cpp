//===- Intrinsics.cpp - Operand declarations of intrinsic calls -----------===//
//
// The one table of intrinsics (DESIGN 5.1). Built-in entries are the barrier
// and the pure math functions of MathFunctions.h; passes that
// emit their own intrinsics register them with registerIntrinsic.
//
//===----------------------------------------------------------------------===//

#include "Intrinsics.h"
#include "IRVisitor.h"
#include "Vta.h"
#include "MathFunctions.h"
#include "Simplify.h"

#include <map>
#include <mutex>

namespace sched {
namespace ir {

namespace {

IntrinsicInfo pureMath(const std::string &Name, unsigned Arity, DType T) {
  IntrinsicInfo Info;
  Info.Name = Name;
  Info.Operands.assign(Arity, OperandRole::Value);
  Info.IsPure = true;
  Info.ResultType = T;
  return Info;
}

const char *const WmmaNames[] = {"wmma.fill", "wmma.load_a", "wmma.load_b",
                                 "wmma.load_c", "wmma.store", "wmma.mma"};
const char *const MmaNames[] = {"mma.fill", "mma.load_a", "mma.load_b",
                                "mma.load_c", "mma.store", "mma.mma"};
/// The wgmma control instructions, by WgmmaControl.
const char *const WgmmaControlNames[] = {"", "wgmma.fence", "wgmma.commit", "wgmma.wait"};

/// wgmma has no fragment loads: A and B come from shared memory.
const char *const WgmmaNames[] = {"wgmma.fill", "", "", "", "wgmma.store", "wgmma.mma"};
constexpr WmmaOp AllOps[] = {WmmaOp::Fill, WmmaOp::LoadA, WmmaOp::LoadB,
                             WmmaOp::LoadC, WmmaOp::Store, WmmaOp::Mma};

/// Operand positions of m, n, k: the last three operands of every wmma call.
int shapeOperand(WmmaOp Op, char Which) {
  int First = Op == WmmaOp::Fill ? 2 : 4;
  return First + (Which == 'm' ? 0 : Which == 'n' ? 1 : 2);
}

/// The tile of a fragment or memory operand that is Rows x Cols of the
/// operation's m, n, k (e.g. "mk" for matrix_a).
TileDecl wmmaTile(WmmaOp Op, const char *Shape, bool IsFragment, int Stride = -1,
                  int Layout = -1) {
  TileDecl T;
  T.RowsFrom = shapeOperand(Op, Shape[0]);
  T.ColsFrom = shapeOperand(Op, Shape[1]);
  T.StrideFrom = Stride;
  T.LayoutFrom = Layout;
  T.IsFragment = IsFragment;
  return T;
}

/// The declaration of a wmma or mma call: the same operands and tiles.
IntrinsicInfo wmmaIntrinsic(WmmaOp Op, TensorFamily Family) {
  using R = OperandRole;
  IntrinsicInfo Info;
  Info.Name = wmmaIntrinsicName(Op, Family);
  Info.IsWarpCollective = true;
  TileDecl None;
  switch (Op) {
  case WmmaOp::Fill:
    Info.Operands = {R::WriteBuffer, R::Value, R::Value, R::Value, R::Value};
    Info.Tiles = {wmmaTile(Op, "mn", true), None, None, None, None};
    break;
  case WmmaOp::LoadA:
  case WmmaOp::LoadB:
  case WmmaOp::LoadC: {
    const char *Shape = Op == WmmaOp::LoadA ? "mk" : Op == WmmaOp::LoadB ? "kn" : "mn";
    Info.Operands = {R::WriteBuffer, R::ReadBuffer, R::Value, R::Value, R::Value, R::Value, R::Value};
    Info.Tiles = {wmmaTile(Op, Shape, true), wmmaTile(Op, Shape, false, 2, 3), None, None, None,
                  None, None};
    break;
  }
  case WmmaOp::Store:
    Info.Operands = {R::WriteBuffer, R::ReadBuffer, R::Value, R::Value, R::Value, R::Value, R::Value};
    Info.Tiles = {wmmaTile(Op, "mn", false, 2, 3), wmmaTile(Op, "mn", true), None, None, None,
                  None, None};
    break;
  case WmmaOp::Mma:
    Info.Operands = {R::WriteBuffer, R::ReadBuffer, R::ReadBuffer, R::ReadBuffer,
                     R::Value,       R::Value,      R::Value};
    Info.Tiles = {wmmaTile(Op, "mn", true), wmmaTile(Op, "mk", true), wmmaTile(Op, "kn", true),
                  wmmaTile(Op, "mn", true), None, None, None};
    break;
  }
  return Info;
}

/// The declarations of the wgmma family (TensorFamily::Wgmma): fill and
/// store as wmma's (their tiles in the same operands), mma with two memory
/// tiles, and the control instructions; all warpgroup collectives.
std::vector<IntrinsicInfo> wgmmaIntrinsics() {
  using R = OperandRole;
  std::vector<IntrinsicInfo> Out;
  for (WmmaOp Op : {WmmaOp::Fill, WmmaOp::Store})
    Out.push_back(wmmaIntrinsic(Op, TensorFamily::Wgmma));
  IntrinsicInfo Mma;
  Mma.Name = "wgmma.mma";
  Mma.IsWarpCollective = true;
  // (D, A, lda, B, ldb, m, n, k): D is m x n; A m x k rows lda apart; B
  // n x k rows ldb apart.
  Mma.Operands = {R::ReadWriteBuffer, R::ReadBuffer, R::Value, R::ReadBuffer, R::Value,
                  R::Value,           R::Value,      R::Value};
  auto Tile = [](int Rows, int Cols, int Stride, bool Frag) {
    TileDecl T;
    T.RowsFrom = Rows;
    T.ColsFrom = Cols;
    T.StrideFrom = Stride;
    T.IsFragment = Frag;
    return T;
  };
  TileDecl None;
  Mma.Tiles = {Tile(5, 6, -1, true), Tile(5, 7, 2, false), None, Tile(6, 7, 4, false), None,
               None, None, None};
  Out.push_back(Mma);
  for (WgmmaControl C : {WgmmaControl::Fence, WgmmaControl::Commit, WgmmaControl::Wait}) {
    IntrinsicInfo Control;
    Control.Name = WgmmaControlNames[static_cast<int>(C)];
    Control.IsWarpCollective = true;
    if (C == WgmmaControl::Wait)
      Control.Operands = {R::Value};
    Out.push_back(Control);
  }
  for (IntrinsicInfo &Info : Out)
    Info.CollectiveThreads = 128;
  return Out;
}

/// The asynchronous copies (PTX cp.async, sm_80+):
///   sched.cp_async(D, S, 1, n)   the n contiguous elements from S to D (D
///                                shared, S global; 4, 8 or 16 bytes), in
///                                flight until the thread waits for them
///   sched.cp_async_commit()      closes the thread's group of copies
///   sched.cp_async_wait(g)       waits until at most g of the thread's
///                                committed groups are in flight
/// D and S are 1 x n tiles (the run lies in their last dimension). Only the
/// issuing thread's wait completes a copy; another thread sees it after a
/// barrier that follows the wait.
std::vector<IntrinsicInfo> asyncCopyIntrinsics() {
  using R = OperandRole;
  IntrinsicInfo Copy;
  Copy.Name = "sched.cp_async";
  Copy.Operands = {R::WriteBuffer, R::ReadBuffer, R::Value, R::Value};
  TileDecl Run;
  Run.RowsFrom = 2;
  Run.ColsFrom = 3;
  Copy.Tiles = {Run, Run, TileDecl(), TileDecl()};
  IntrinsicInfo Commit;
  Commit.Name = "sched.cp_async_commit";
  IntrinsicInfo Wait;
  Wait.Name = "sched.cp_async_wait";
  Wait.Operands = {R::Value};
  return {Copy, Commit, Wait};
}

IntrinsicInfo warpShuffleIntrinsic() {
  using R = OperandRole;
  IntrinsicInfo Shfl;
  Shfl.Name = WarpShflXor;
  Shfl.Operands = {R::WriteBuffer, R::ReadBuffer, R::Value};
  Shfl.IsWarpCollective = true;
  Shfl.LanesAreThreadIdxX = false;
  return Shfl;
}

const struct {
  BinOp Op;
  const char *Name;
} AtomicIntrinsics[] = {
    {BinOp::Add, "sched.atomic_add"},    {BinOp::Min, "sched.atomic_min"},
    {BinOp::Max, "sched.atomic_max"},    {BinOp::BitAnd, "sched.atomic_and"},
    {BinOp::BitOr, "sched.atomic_or"},   {BinOp::BitXor, "sched.atomic_xor"},
};

std::map<std::string, IntrinsicInfo> builtinIntrinsics() {
  std::map<std::string, IntrinsicInfo> Table;
  Table[WarpShflXor] = warpShuffleIntrinsic();
  for (const auto &A : AtomicIntrinsics) {
    IntrinsicInfo Atomic;
    Atomic.Name = A.Name;
    Atomic.Operands = {OperandRole::ReadWriteBuffer, OperandRole::Value};
    Atomic.IsAtomic = true;
    Table[A.Name] = Atomic;
  }
  IntrinsicInfo Ticket;
  Ticket.Name = BlockTicket;
  Ticket.Operands = {OperandRole::WriteBuffer, OperandRole::ReadWriteBuffer, OperandRole::Value};
  Ticket.IsAtomic = true; // of its read-write operand, the counter
  Table[Ticket.Name] = Ticket;
  IntrinsicInfo Barrier;
  Barrier.Name = "sched.syncthreads";
  Barrier.IsBarrier = true;
  Table[Barrier.Name] = Barrier;

  for (const IntrinsicInfo &Info : asyncCopyIntrinsics())
    Table[Info.Name] = Info;
  for (const IntrinsicInfo &Info : wgmmaIntrinsics())
    Table[Info.Name] = Info;
  for (const MathFunction &M : mathFunctions())
    Table[M.Name] = pureMath(M.Name, M.Arity, M.Type);
  for (TensorFamily F : {TensorFamily::Wmma, TensorFamily::Mma})
    for (WmmaOp Op : AllOps)
      Table[wmmaIntrinsicName(Op, F)] = wmmaIntrinsic(Op, F);
  for (const IntrinsicInfo &Info : vtaIntrinsicDeclarations())
    Table[Info.Name] = Info;
  return Table;
}

/// The table; entries are never erased, so returned pointers stay valid.
std::map<std::string, IntrinsicInfo> &table() {
  static std::map<std::string, IntrinsicInfo> Table = builtinIntrinsics();
  return Table;
}

std::mutex &tableMutex() {
  static std::mutex M;
  return M;
}

} // namespace

const char *const WarpShflXor = "warp.shfl_xor";

Stmt makeWarpShflXor(const Buffer &D, const Buffer &S, int64_t LaneMask) {
  return makeEvaluate(makeCall(WarpShflXor,
                               {makeLoad(D, {makeInt(0)}), makeLoad(S, {makeInt(0)}),
                                makeInt(LaneMask)},
                               DType::Int32));
}

const char *const BlockTicket = "sched.block_ticket";

Stmt makeBlockTicket(const Buffer &Ticket, const Buffer &Counter, Expr CounterIndex, Expr Blocks) {
  return makeEvaluate(makeCall(BlockTicket,
                               {makeLoad(Ticket, {makeInt(0)}),
                                makeLoad(Counter, {std::move(CounterIndex)}), std::move(Blocks)},
                               DType::Int32));
}

const char *atomicIntrinsicName(BinOp Op) {
  for (const auto &A : AtomicIntrinsics)
    if (A.Op == Op)
      return A.Name;
  return nullptr;
}

bool hasAtomicUpdate(BinOp Op, DType T) {
  const bool Int = T == DType::Int32 || T == DType::UInt32 || T == DType::Int64 ||
                   T == DType::UInt64;
  const bool Float = T == DType::Float32 || T == DType::Float64;
  if (Op == BinOp::Add || Op == BinOp::Min || Op == BinOp::Max)
    return Int || Float;
  return (Op == BinOp::BitAnd || Op == BinOp::BitOr || Op == BinOp::BitXor) && Int;
}

bool atomicUpdateIsExact(BinOp Op, DType T) {
  if (!hasAtomicUpdate(Op, T))
    return false;
  return Op != BinOp::Add || !(T == DType::Float32 || T == DType::Float64);
}

bool atomicIntrinsicOp(const std::string &Name, BinOp &Op) {
  for (const auto &A : AtomicIntrinsics)
    if (Name == A.Name) {
      Op = A.Op;
      return true;
    }
  return false;
}

Stmt makeAtomicUpdate(BinOp Op, const Buffer &B, const std::vector<Expr> &Indices, Expr Value) {
  return makeEvaluate(makeCall(atomicIntrinsicName(Op), {makeLoad(B, Indices), std::move(Value)},
                               DType::Int32));
}

const IntrinsicInfo *lookupIntrinsic(const std::string &Name) {
  std::lock_guard<std::mutex> Lock(tableMutex());
  auto &T = table();
  auto It = T.find(Name);
  return It == T.end() ? nullptr : &It->second;
}

void registerIntrinsic(const IntrinsicInfo &Info) {
  std::lock_guard<std::mutex> Lock(tableMutex());
  table()[Info.Name] = Info;
}

DType intrinsicResultType(const std::string &Name) {
  const IntrinsicInfo *Info = lookupIntrinsic(Name);
  return Info ? Info->ResultType : DType::Int32;
}

const char *wmmaIntrinsicName(WmmaOp Op, TensorFamily Family) {
  const char *const *Names = Family == TensorFamily::Mma     ? MmaNames
                             : Family == TensorFamily::Wgmma ? WgmmaNames
                                                             : WmmaNames;
  return Names[static_cast<int>(Op)];
}

static bool wmmaOpOf(const std::string &Name, WmmaOp &Out, TensorFamily &Family) {
  for (TensorFamily F : {TensorFamily::Wmma, TensorFamily::Mma, TensorFamily::Wgmma})
    for (WmmaOp Op : AllOps)
      if (*wmmaIntrinsicName(Op, F) && Name == wmmaIntrinsicName(Op, F)) {
        Out = Op;
        Family = F;
        return true;
      }
  return false;
}

bool decodeWmma(const CallNode *Call, WmmaCall &Out) {
  WmmaOp Op;
  TensorFamily Family;
  if (!Call || !wmmaOpOf(Call->Name, Op, Family))
    return false;
  bool WgmmaMma = Family == TensorFamily::Wgmma && Op == WmmaOp::Mma;
  size_t Arity = Op == WmmaOp::Fill ? 5 : WgmmaMma ? 8 : 7;
  if (Call->Args.size() != Arity)
    return false;
  Out = WmmaCall();
  Out.Op = Op;
  Out.Family = Family;
  const std::vector<Expr> &A = Call->Args;
  if (WgmmaMma) {
    Out.D = Out.C = as<LoadNode>(A[0]);
    Out.A = as<LoadNode>(A[1]);
    Out.StrideA = A[2];
    Out.B = as<LoadNode>(A[3]);
    Out.StrideB = A[4];
    return Out.D && Out.A && Out.B && getConstInt(A[5], Out.M) && getConstInt(A[6], Out.N) &&
           getConstInt(A[7], Out.K);
  }
  if (!getConstInt(A[shapeOperand(Op, 'm')], Out.M) || !getConstInt(A[shapeOperand(Op, 'n')], Out.N) ||
      !getConstInt(A[shapeOperand(Op, 'k')], Out.K))
    return false;
  auto Buf = [&](size_t I) { return as<LoadNode>(A[I]); };
  switch (Op) {
  case WmmaOp::Fill:
    Out.Frag = Buf(0);
    Out.Value = A[1];
    return Out.Frag != nullptr;
  case WmmaOp::LoadA:
  case WmmaOp::LoadB:
  case WmmaOp::LoadC:
  case WmmaOp::Store:
    Out.Frag = Buf(Op == WmmaOp::Store ? 1 : 0);
    Out.Memory = Buf(Op == WmmaOp::Store ? 0 : 1);
    Out.Stride = A[2];
    return Out.Frag && Out.Memory && getConstInt(A[3], Out.Layout) &&
           (Out.Layout == WmmaRowMajor || Out.Layout == WmmaColMajor);
  case WmmaOp::Mma:
    Out.D = Buf(0);
    Out.A = Buf(1);
    Out.B = Buf(2);
    Out.C = Buf(3);
    return Out.D && Out.A && Out.B && Out.C;
  }
  return false;
}

bool isWmmaCall(const Expr &E) {
  WmmaCall Ignored;
  return decodeWmma(as<CallNode>(E), Ignored);
}

void wmmaFragmentShape(Scope Sc, int64_t M, int64_t N, int64_t K, int64_t &Rows, int64_t &Cols) {
  Rows = Sc == Scope::WmmaMatrixB ? K : M;
  Cols = Sc == Scope::WmmaMatrixA ? K : N;
}

Expr wmmaFragmentNumber(const Expr &FlatIndex, int64_t TileElems, const VarRanges *Ranges) {
  return simplify(FlatIndex / makeInt(TileElems, FlatIndex->Type), Ranges);
}

Expr makeWmmaCall(WmmaOp Op, std::vector<Expr> Operands, int64_t M, int64_t N, int64_t K,
                  TensorFamily Family) {
  for (int64_t V : {M, N, K})
    Operands.push_back(makeInt(V));
  return makeCall(wmmaIntrinsicName(Op, Family), std::move(Operands), DType::Int32);
}

int64_t wmmaLaneFragmentBytes(Scope Sc, DType T, int64_t Rows, int64_t Cols) {
  if (Sc == Scope::WmmaAccumulator)
    return 8 * dtypeBytes(T);
  if (T == DType::Float16)
    return 16 * 2;
  return Rows * Cols / 32 * dtypeBytes(T);
}

int64_t tileStartAlignment(TensorFamily Family, WmmaOp Op) {
  if (Family == TensorFamily::Wmma)
    return 32;
  return Op == WmmaOp::LoadA || Op == WmmaOp::LoadB ? 16 : 1;
}

int64_t tileStrideAlignment(TensorFamily Family, WmmaOp Op, Scope FragScope, DType T, int64_t Rows,
                            int64_t Cols) {
  if (Family == TensorFamily::Mma)
    return Op == WmmaOp::LoadA || Op == WmmaOp::LoadB ? 16 : 1;
  int64_t Lane = wmmaLaneFragmentBytes(FragScope, T, Rows, Cols);
  // lcm(16, Lane): both are powers of two.
  return Lane > 16 ? Lane : 16;
}

bool isWmmaShape(int64_t M, int64_t N, int64_t K) {
  return K == 16 && ((M == 16 && N == 16) || (M == 32 && N == 8) || (M == 8 && N == 32));
}

bool isAsyncCopyBytes(int64_t Bytes) { return Bytes == 4 || Bytes == 8 || Bytes == 16; }

bool isMmaSyncShape(int64_t M, int64_t N, int64_t K) { return M == 16 && N == 8 && K == 16; }

int64_t mmaLaneElements(Scope Sc) { return Sc == Scope::WmmaMatrixA ? 8 : 4; }

void mmaLaneElement(Scope Sc, int64_t Lane, int64_t I, int64_t &Row, int64_t &Col) {
  int64_t G = Lane / 4, T = Lane % 4;
  switch (Sc) {
  case Scope::WmmaMatrixA:
    Row = G + 8 * (I / 2 % 2);
    Col = 2 * T + I % 2 + (I >= 4 ? 8 : 0);
    return;
  case Scope::WmmaMatrixB:
    Row = 2 * T + I % 2 + (I >= 2 ? 8 : 0);
    Col = G;
    return;
  default:
    Row = G + (I >= 2 ? 8 : 0);
    Col = 2 * T + I % 2;
    return;
  }
}

int64_t ldmatrixCount(Scope Sc) { return Sc == Scope::WmmaMatrixA ? 4 : 2; }

bool ldmatrixTransposes(Scope Sc, int64_t Layout) {
  return (Sc == Scope::WmmaMatrixA) == (Layout == WmmaColMajor);
}

void ldmatrixLaneRow(Scope Sc, int64_t Layout, int64_t Lane, int64_t &Row, int64_t &Col) {
  bool Trans = ldmatrixTransposes(Sc, Layout);
  int64_t J = Lane / 8 % ldmatrixCount(Sc), R = Lane % 8;
  if (Sc == Scope::WmmaMatrixA) {
    // Matrix j covers rows 8*(j%2).., columns 8*(j/2)..; its memory row r is
    // the fragment's row (column, with .trans) r of it.
    Row = 8 * (J % 2) + (Trans ? 0 : R);
    Col = 8 * (J / 2) + (Trans ? R : 0);
  } else {
    // Matrix j covers k 8j..8j+7 (rows of B) and all 8 columns; without
    // .trans its memory row r is B's column r.
    Row = 8 * J + (Trans ? R : 0);
    Col = Trans ? 0 : R;
  }
}

bool isWgmmaShape(int64_t M, int64_t N, int64_t K) {
  return M == 64 && K == 16 && N >= 8 && N <= 256 && N % 8 == 0;
}

void wgmmaLaneElement(int64_t T, int64_t I, int64_t &Row, int64_t &Col) {
  int64_t W = T / 32, G = T % 32 / 4, Q = T % 4;
  Row = 16 * W + G + 8 * (I / 2 % 2);
  Col = 8 * (I / 4) + 2 * Q + I % 2;
}

bool wgmmaSwizzle(int64_t RowElems, Swizzle &Out) {
  // Byte address bits [4, 4+b) ^= bits [7, 7+b); in float16 elements bits
  // [3, 3+b) ^= [6, 6+b).
  int Bits = RowElems == 16 ? 1 : RowElems == 32 ? 2 : RowElems == 64 ? 3 : 0;
  if (!Bits)
    return false;
  Out.Base = 3;
  Out.Bits = Bits;
  Out.Shift = 6;
  return true;
}

bool hasWgmmaLayout(const Swizzle &Have, int64_t RowElems) {
  Swizzle Want;
  return wgmmaSwizzle(RowElems, Want) && Have.Base == Want.Base && Have.Bits == Want.Bits &&
         Have.Shift == Want.Shift;
}

WgmmaControl wgmmaControlOf(const std::string &Name) {
  for (WgmmaControl C : {WgmmaControl::Fence, WgmmaControl::Commit, WgmmaControl::Wait})
    if (Name == WgmmaControlNames[static_cast<int>(C)])
      return C;
  return WgmmaControl::None;
}

static Expr wgmmaControl(WgmmaControl C, std::vector<Expr> Args) {
  return makeCall(WgmmaControlNames[static_cast<int>(C)], std::move(Args), DType::Int32);
}
Expr makeWgmmaFence() { return wgmmaControl(WgmmaControl::Fence, {}); }
Expr makeWgmmaCommit() { return wgmmaControl(WgmmaControl::Commit, {}); }
Expr makeWgmmaWait(int64_t Pending) { return wgmmaControl(WgmmaControl::Wait, {makeInt(Pending)}); }

int collectiveThreads(const Expr &E) {
  const auto *Call = as<CallNode>(E);
  const IntrinsicInfo *Info = Call ? lookupIntrinsic(Call->Name) : nullptr;
  return Info && Info->IsWarpCollective ? Info->CollectiveThreads : 0;
}

bool isWarpCollectiveCall(const Expr &E) {
  const auto *Call = as<CallNode>(E);
  const IntrinsicInfo *Info = Call ? lookupIntrinsic(Call->Name) : nullptr;
  return Info && Info->IsWarpCollective;
}

bool isIntrinsicOperand(const Stmt &Body, const BufferNode *Buf) {
  struct Finder : IRVisitor {
    const BufferNode *Buf;
    bool Found = false;
    explicit Finder(const BufferNode *B) : Buf(B) {}
    void visitCall(const CallNode *N) override {
      for (const Expr &Arg : N->Args)
        if (const auto *L = as<LoadNode>(Arg))
          Found |= L->Buf.get() == Buf;
      IRVisitor::visitCall(N);
    }
  } F(Buf);
  F.visit(Body);
  return F.Found;
}

} // namespace ir
} // namespace sched
