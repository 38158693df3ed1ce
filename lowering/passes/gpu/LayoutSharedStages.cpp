//===- LayoutSharedStages.cpp - Shared stages laid out for their readers ---===//
//
// A shared stage is laid out as the loops that fill it were written: As of
// a GEMM, staged 64 rows by 8 k, is As[row][k]. But the thread that reads it
// walks its register tile over rows (`acc[ii2, ji2] += As[ty*4 + ii2][ki] *
// ..`, ii2 the innermost loop that moves the read, ki around it): its 4
// values lie a row apart, so it reads them as 4 scalar loads, and the 4
// rows of a warp's threads fall into one bank. Stored transposed,
// As[k][row], the same 4 values are contiguous and 16-byte aligned: one
// float4 (ld.shared.v4), which is how a hand-written kernel stores it.
//
// So for each shared allocation of constant shape whose every read agrees,
// this pass moves the dimension the reads walk innermost:
//  - a read votes for dimension p when the innermost serial loop around it
//    (inside the allocation) whose variable the read's indices use, L, of
//    constant extent of at least 2, moves exactly index p, with coefficient
//    1, and p is not the innermost dimension, whose index uses neither L nor
//    a thread's index (that index is what keeps a warp's reads contiguous
//    across its threads: Bs[ki][tx*4 + ji2] stays as it is);
//  - any other read that moves with a loop votes to keep the layout; a read
//    that moves with no loop (the same element for every iteration) does not
//    vote;
//  - the buffer is changed only when no read votes to keep and every other
//    vote names the same dimension.
// Dimension p becomes the innermost (the others keep their order: a double-
// buffered stage keeps its copy index first), and its extent is padded to a
// pitch: a multiple of 16 bytes (so a run aligned in the old layout stays
// aligned for a vector load), chosen among the next 8 such pitches as the
// one whose stores, evaluated for the first warp of the block (with every
// loop variable other than the threads' at its first value), conflict least
// on the 32 four-byte banks; the smallest on a tie. For the GEMM's fetch
// (each warp storing 8 k of 4 rows) pitch 64 puts every store of a warp in
// 4 banks (8-way); 68, the hand-written kernel's, in 32 (none). Padding that
// would take the kernel over the 48 KiB of static shared memory is dropped.
//
// The change is a bijection between the elements the accesses name and
// their addresses (the padding is never accessed), so no value and no
// dependence changes: the barriers InjectThreadSync placed stay exact, and
// the simulator's race and uninitialised-read checks see the same accesses.
// A buffer an intrinsic takes as an operand (a wmma fragment load reads a
// tile at a pointer with its own stride) keeps its shape, and so does one
// whose rows are longer than any access reaches: the schedule padded them
// (storage_align), and that layout is the user's choice. A stage that only
// ldmatrix reads (mma.sync operands) and cp.async or plain stores write
// gets an XOR swizzle of its 16-byte chunks instead (ir::Swizzle: the rows
// one ldmatrix matrix takes, 64 bytes apart in a GEMM's A tile, fell into 2
// of the 8 bank groups - a 4-way conflict; swizzled, into 8); the emitter
// and the simulator apply it where an address is made.
//
// Runs after PrefetchDoubleBuffers (the prefetch's stores are the stage's
// fill in its final form) and before StorageFlatten, which lays the new
// shape out row-major like any other: from there on the reads are
// contiguous in L, so UnrollSmallLoops' unrolled loads merge into vector
// loads (the CUDA compiler sees a 16-byte aligned run) and a `vectorize`d L
// passes ir::planVectorLoop.
//
//===----------------------------------------------------------------------===//
#include "ir/Bounds.h"
#include "ir/IRMutator.h"
#include "ir/Intrinsics.h"
#include "ir/IRVisitor.h"
#include "ir/LaunchLimits.h"
#include "ir/Prove.h"
#include "ir/Simplify.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace sched {
namespace passes {

namespace {

/// Shared memory's banks: 32 of 4 bytes.
constexpr int64_t Banks = 32, BankBytes = 4;
/// How many pitches past the smallest are tried.
constexpr int64_t PitchCandidates = 8;

/// One access of a buffer: its indices (lets inlined) and the serial loops
/// around it inside the allocation, outermost first.
struct StageAccess {
  bool IsWrite = false;
  std::vector<ir::Expr> Indices;
  std::vector<const ir::ForNode *> Loops;
};

/// The accesses of one buffer inside its allocation's body.
class StageAccesses : public ir::IRVisitor {
public:
  explicit StageAccesses(const ir::BufferNode *Buf) : Buf(Buf) {}

  std::vector<StageAccess> Accesses;

protected:
  void visitFor(const ir::ForNode *N) override {
    bool Serial = N->LoopKind != ir::ForKind::ThreadBound;
    if (Serial)
      Loops.push_back(N);
    ir::IRVisitor::visitFor(N);
    if (Serial)
      Loops.pop_back();
  }
  void visitLoad(const ir::LoadNode *N) override {
    if (N->Buf.get() == Buf)
      Accesses.push_back({false, N->Indices, Loops});
    ir::IRVisitor::visitLoad(N);
  }
  void visitStore(const ir::StoreNode *N) override {
    if (N->Buf.get() == Buf)
      Accesses.push_back({true, N->Indices, Loops});
    ir::IRVisitor::visitStore(N);
  }

private:
  const ir::BufferNode *Buf;
  std::vector<const ir::ForNode *> Loops;
};

/// The threadIdx loops of the kernel: their variables and tags.
class ThreadVars : public ir::IRVisitor {
public:
  std::map<const ir::VarNode *, std::string> Tag;

protected:
  void visitFor(const ir::ForNode *N) override {
    if (isThreadIdxLoop(N))
      Tag[N->LoopVar.get()] = N->ThreadTag;
    ir::IRVisitor::visitFor(N);
  }
};

bool usesAny(const ir::Expr &E, const std::map<const ir::VarNode *, std::string> &Vars) {
  for (const ir::VarNode *V : ir::varsOf(E))
    if (Vars.count(V))
      return true;
  return false;
}

/// What one read asks of the layout.
enum class Vote { None, Keep, Move };

/// The read's vote, and for Move the dimension it walks (see the header).
Vote voteOf(const StageAccess &Read, const ThreadVars &Threads, size_t &Dim) {
  const size_t Rank = Read.Indices.size();
  for (size_t I = Read.Loops.size(); I-- > 0;) {
    const ir::ForNode *L = Read.Loops[I];
    const ir::VarNode *V = L->LoopVar.get();
    std::vector<size_t> Moved;
    for (size_t D = 0; D < Rank; ++D)
      if (ir::usesVar(Read.Indices[D], V))
        Moved.push_back(D);
    if (Moved.empty())
      continue;
    int64_t Extent;
    if (Moved.size() != 1 || !ir::getConstInt(L->Extent, Extent))
      return Vote::Keep;
    if (Extent < 2)
      continue; // a unit loop moves nothing
    ir::LinearIndex Lin;
    const ir::Expr &Index = Read.Indices[Moved[0]];
    if (!ir::linearIn(Index, {V}, Lin) || Lin.coef(V) != 1 || (Lin.Rest && ir::usesVar(Lin.Rest, V)))
      return Vote::Keep;
    if (Moved[0] == Rank - 1 || usesAny(Read.Indices[Rank - 1], Threads.Tag))
      return Vote::Keep;
    Dim = Moved[0];
    return Vote::Move;
  }
  return Vote::None;
}

/// The dimension every read of the buffer walks, or -1 to keep its layout.
int dimensionToMove(const StageAccesses &Uses, const ThreadVars &Threads) {
  int Chosen = -1;
  for (const StageAccess &A : Uses.Accesses) {
    if (A.IsWrite)
      continue;
    size_t Dim = 0;
    switch (voteOf(A, Threads, Dim)) {
    case Vote::None:
      break;
    case Vote::Keep:
      return -1;
    case Vote::Move:
      if (Chosen >= 0 && Chosen != static_cast<int>(Dim))
        return -1;
      Chosen = static_cast<int>(Dim);
      break;
    }
  }
  return Chosen;
}

/// Old indices in the new order: Dim last.
std::vector<ir::Expr> permuted(const std::vector<ir::Expr> &Indices, size_t Dim) {
  std::vector<ir::Expr> Out;
  for (size_t D = 0; D < Indices.size(); ++D)
    if (D != Dim)
      Out.push_back(Indices[D]);
  Out.push_back(Indices[Dim]);
  return Out;
}

/// How the stores of a buffer of Shape (new order, constant) conflict on the
/// banks: for each store, the first warp's addresses with every variable but
/// the threads' at 0, the most distinct words one bank serves, summed over
/// the stores. A store whose address is not constant so adds nothing.
int64_t storeConflicts(const std::vector<StageAccess> &Stores, const std::vector<int64_t> &Shape,
                       size_t Dim, int64_t ElemBytes, const ThreadVars &Threads,
                       const KernelContext &Ctx) {
  int64_t Bx = std::max<int64_t>(Ctx.constExtent("threadIdx.x"), 1);
  int64_t By = std::max<int64_t>(Ctx.constExtent("threadIdx.y"), 1);
  int64_t Bz = std::max<int64_t>(Ctx.constExtent("threadIdx.z"), 1);
  int64_t Warp = std::min<int64_t>(32, Bx * By * Bz);
  int64_t Total = 0;
  for (const StageAccess &S : Stores) {
    std::vector<ir::Expr> Idx = permuted(S.Indices, Dim);
    ir::Expr Flat = ir::makeInt(0);
    for (size_t D = 0; D < Idx.size(); ++D)
      Flat = Flat * ir::makeInt(Shape[D]) + Idx[D];
    std::map<int64_t, std::set<int64_t>> WordsOfBank;
    bool Constant = true;
    for (int64_t T = 0; T < Warp && Constant; ++T) {
      const int64_t Coord[3] = {T % Bx, T / Bx % By, T / (Bx * By)};
      std::map<const ir::VarNode *, ir::Expr> Values;
      for (const ir::VarNode *V : ir::varsOf(Flat)) {
        auto It = Threads.Tag.find(V);
        int64_t Value = 0;
        if (It != Threads.Tag.end())
          Value = Coord[It->second.back() - 'x'];
        Values[V] = ir::makeInt(Value, V->Type);
      }
      int64_t Element;
      Constant = ir::getConstInt(ir::simplify(ir::substitute(Flat, Values)), Element);
      int64_t Word = Element * ElemBytes / BankBytes;
      WordsOfBank[((Word % Banks) + Banks) % Banks].insert(Word);
    }
    if (!Constant)
      continue;
    size_t Worst = 0;
    for (const auto &B : WordsOfBank)
      Worst = std::max(Worst, B.second.size());
    Total += static_cast<int64_t>(Worst);
  }
  return Total;
}

class StageLayouts : public ir::IRMutator {
public:
  StageLayouts(const KernelContext &Ctx, const ThreadVars &Threads, int64_t SharedBytes)
      : Ctx(Ctx), Threads(Threads), SharedBytes(SharedBytes) {}

protected:
  ir::Stmt mutateFor(const ir::Stmt &S, const ir::ForNode *N) override {
    Outer[N->LoopVar.get()] = {N->Min, ir::simplify(N->Min + N->Extent - ir::makeInt(1))};
    ir::Stmt Out = ir::IRMutator::mutateFor(S, N);
    Outer.erase(N->LoopVar.get());
    return Out;
  }

  ir::Stmt mutateAllocate(const ir::Stmt &S, const ir::AllocateNode *N) override {
    ir::Stmt Body = mutate(N->Body);
    ir::Stmt Same = Body == N->Body ? S : ir::makeAllocate(N->Buf, Body);
    const ir::Buffer &Old = N->Buf;
    std::vector<int64_t> Shape;
    if (Old->MemScope != ir::Scope::Shared || Old->Shape.size() < 2 ||
        !constantShape(Old, Shape) || paddedRows(Body, Old, Shape.back()))
      return Same;
    if (ir::isIntrinsicOperand(Body, Old.get())) {
      ir::Swizzle Sw;
      if (!Old->Swizzle.any() && wgmmaSwizzle(Body, Old, Shape, Sw)) {
        // wgmma reads it through a descriptor of PTX's canonical K-major
        // layout: rows of 32, 64 or 128 bytes with that swizzle, never
        // padded.
        auto New = std::make_shared<ir::BufferNode>(*Old);
        New->Swizzle = Sw;
        return ir::remapBuffer(ir::makeAllocate(Old, Body), Old.get(), New,
                               [](const std::vector<ir::Expr> &Indices) { return Indices; });
      }
      if (Old->Swizzle.any() || !ldmatrixSwizzle(Body, Old, Shape, Sw))
        return Same;
      // Rows padded to an odd number of 16-byte chunks where that fits
      // (addresses stay affine, as cheap as unpadded ones), else the swizzle.
      int64_t Pitch = ldmatrixPitch(Shape.back()), Rows = 1;
      for (size_t D = 0; D + 1 < Shape.size(); ++D)
        Rows *= Shape[D];
      int64_t Extra = Rows * (Pitch - Shape.back()) * ir::dtypeBytes(Old->Type);
      if (SharedBytes >= 0 && SharedBytes + Extra <= ir::MaxStaticSharedBytes) {
        SharedBytes += Extra;
        return padRows(ir::makeAllocate(Old, Body), Old, Pitch);
      }
      auto New = std::make_shared<ir::BufferNode>(*Old);
      New->Swizzle = Sw;
      return ir::remapBuffer(ir::makeAllocate(Old, Body), Old.get(), New,
                             [](const std::vector<ir::Expr> &Indices) { return Indices; });
    }
    StageAccesses Uses(Old.get());
    Uses.visit(ir::inlineLets(Body));
    int Dim = dimensionToMove(Uses, Threads);
    if (Dim < 0)
      return Same;
    std::vector<int64_t> NewShape = permutedShape(Shape, Dim);
    NewShape.back() = pitch(Uses, NewShape, Dim, Old);
    std::vector<ir::Expr> ShapeExprs;
    for (int64_t E : NewShape)
      ShapeExprs.push_back(ir::makeInt(E));
    auto New = std::make_shared<ir::BufferNode>(Old->Name, Old->Type, ShapeExprs, Old->MemScope);
    New->NoAlias = Old->NoAlias;
    size_t D = static_cast<size_t>(Dim);
    return ir::remapBuffer(ir::makeAllocate(Old, Body), Old.get(), New,
                           [D](const std::vector<ir::Expr> &Indices) { return permuted(Indices, D); });
  }

private:
  const KernelContext &Ctx;
  const ThreadVars &Threads;

  /// Allocation S of Buf with Buf's rows Pitch elements long: every access
  /// the same element, and every mma.load of it given the new row stride.
  static ir::Stmt padRows(const ir::Stmt &S, const ir::Buffer &Buf, int64_t Pitch) {
    std::vector<ir::Expr> Shape = Buf->Shape;
    Shape.back() = ir::makeInt(Pitch);
    auto New = std::make_shared<ir::BufferNode>(*Buf);
    New->Shape = Shape;
    ir::Stmt Out = ir::remapBuffer(S, Buf.get(), New,
                                   [](const std::vector<ir::Expr> &Indices) { return Indices; });
    struct Strides : ir::IRMutator {
      const ir::BufferNode *Buf;
      int64_t Pitch;
      ir::Expr mutateCall(const ir::Expr &E, const ir::CallNode *N) override {
        ir::WmmaCall W;
        if (!ir::decodeWmma(N, W) || !W.Memory || W.Memory->Buf.get() != Buf)
          return ir::IRMutator::mutateCall(E, N);
        std::vector<ir::Expr> Args = N->Args;
        for (size_t I = 0; I < Args.size(); ++I)
          if (Args[I] == W.Stride)
            Args[I] = ir::makeInt(Pitch, W.Stride->Type);
        return ir::makeCall(N->Name, Args, N->Type);
      }
    } Fix;
    Fix.Buf = New.get();
    Fix.Pitch = Pitch;
    return Fix.mutate(Out);
  }

  /// The swizzle of a stage wgmma.mma reads (ir::wgmmaSwizzle of its row
  /// length); false when no wgmma reads it. AutoTensorCore chose wgmma only
  /// for rows that have one; the simulator checks the stage has it.
  static bool wgmmaSwizzle(const ir::Stmt &Body, const ir::Buffer &Buf,
                           const std::vector<int64_t> &Shape, ir::Swizzle &Out) {
    struct Reader : ir::IRVisitor {
      const ir::BufferNode *Buf;
      bool Found = false;
      void visitCall(const ir::CallNode *N) override {
        ir::WmmaCall W;
        Found |= ir::decodeWmma(N, W) && W.Family == ir::TensorFamily::Wgmma &&
                 W.Op == ir::WmmaOp::Mma && (W.A->Buf.get() == Buf || W.B->Buf.get() == Buf);
        ir::IRVisitor::visitCall(N);
      }
    } R;
    R.Buf = Buf.get();
    R.visit(Body);
    int64_t Size = 1;
    for (int64_t E : Shape)
      Size *= E;
    return R.Found && ir::wgmmaSwizzle(Shape.back(), Out) &&
           Size % (int64_t(1) << (Out.Shift + Out.Bits)) == 0;
  }

  /// The XOR swizzle of a stage ldmatrix reads (mma.load_a/_b): 16-byte
  /// chunks of a row XORed with row bits, so that the 8 rows an ldmatrix
  /// matrix takes at one column - and the rows of a warp's 16-byte cp.async
  /// stores - fall in 8 different 16-byte bank groups (a 128-byte window).
  /// With R chunks per row (a power of 2, at least 2): Bits = log2(min(R, 8))
  /// chunk bits, XORed with the row bits that pick the window a row is in
  /// (rows r/(8/R) for short rows, r for long ones). Only for 16-bit
  /// elements, rows of a power of 2 of at least 32 bytes, a size the XOR
  /// stays inside, and where no other intrinsic than ldmatrix and cp.async
  /// touches the stage (a wmma pointer, an mma.store, wants it dense).
  static bool ldmatrixSwizzle(const ir::Stmt &Body, const ir::Buffer &Buf,
                              const std::vector<int64_t> &Shape, ir::Swizzle &Out) {
    struct Operands : ir::IRVisitor {
      const ir::BufferNode *Buf;
      bool Ldmatrix = false, Other = false;
      void visitCall(const ir::CallNode *N) override {
        bool Uses = false;
        for (const ir::Expr &A : N->Args)
          if (const auto *L = ir::as<ir::LoadNode>(A))
            Uses |= L->Buf.get() == Buf;
        if (Uses) {
          ir::WmmaCall W;
          bool IsLdmatrix = ir::decodeWmma(N, W) && W.Family == ir::TensorFamily::Mma &&
                            (W.Op == ir::WmmaOp::LoadA || W.Op == ir::WmmaOp::LoadB) &&
                            W.Memory && W.Memory->Buf.get() == Buf;
          Ldmatrix |= IsLdmatrix;
          Other |= !IsLdmatrix && N->Name != "sched.cp_async";
        }
        ir::IRVisitor::visitCall(N);
      }
    } Ops;
    Ops.Buf = Buf.get();
    Ops.visit(Body);
    if (!Ops.Ldmatrix || Ops.Other || ir::dtypeBytes(Buf->Type) != 2)
      return false;
    int64_t RowBytes = Shape.back() * 2, Chunks = RowBytes / 16, Size = 1;
    for (int64_t E : Shape)
      Size *= E;
    if (RowBytes % 16 || Chunks < 2 || (Chunks & (Chunks - 1)))
      return false;
    int LogChunks = 0;
    while ((int64_t(1) << LogChunks) < Chunks)
      ++LogChunks;
    Out.Base = 3; // 8 halves: 16 bytes
    Out.Bits = std::min(LogChunks, 3);
    Out.Shift = Out.Base + std::max(LogChunks, 3);
    return Size % (int64_t(1) << Out.Shift) == 0;
  }
  int64_t SharedBytes; // of the kernel so far, -1 when unknown
  ir::VarRanges Outer; // of the loops around the statement being rewritten

  /// Whether no access of Buf in Body reaches the last element of a row of
  /// Row elements (provably): the rows were padded.
  bool paddedRows(const ir::Stmt &Body, const ir::Buffer &Buf, int64_t Row) const {
    int64_t Reach = -1;
    for (bool Reads : {true, false}) {
      ir::Region R;
      if (!ir::regionTouched(Body, Buf, Reads, Outer, R))
        continue;
      int64_t Max;
      if (!R.back().Max || !ir::getConstInt(R.back().Max, Max))
        return false;
      Reach = std::max(Reach, Max);
    }
    return Reach >= 0 && Reach + 1 < Row;
  }

  static bool constantShape(const ir::Buffer &B, std::vector<int64_t> &Out) {
    for (const ir::Expr &E : B->Shape) {
      int64_t N;
      if (!ir::getConstInt(E, N) || N < 1)
        return false;
      Out.push_back(N);
    }
    return true;
  }

  static std::vector<int64_t> permutedShape(const std::vector<int64_t> &Shape, int Dim) {
    std::vector<int64_t> Out;
    for (size_t D = 0; D < Shape.size(); ++D)
      if (D != static_cast<size_t>(Dim))
        Out.push_back(Shape[D]);
    Out.push_back(Shape[Dim]);
    return Out;
  }

  /// The padded extent of the new innermost dimension (see the header).
  int64_t pitch(const StageAccesses &Uses, std::vector<int64_t> Shape, int Dim,
                const ir::Buffer &Old) {
    const int64_t ElemBytes = ir::dtypeBytes(Old->Type);
    const int64_t Step = std::max<int64_t>(1, 16 / ElemBytes);
    const int64_t Extent = Shape.back();
    const int64_t Smallest = (Extent + Step - 1) / Step * Step;
    int64_t Rows = 1;
    for (size_t D = 0; D + 1 < Shape.size(); ++D)
      Rows *= Shape[D];
    std::vector<StageAccess> Stores;
    for (const StageAccess &A : Uses.Accesses)
      if (A.IsWrite)
        Stores.push_back(A);
    int64_t Best = Extent, BestCost = -1;
    for (int64_t I = 0; I < PitchCandidates; ++I) {
      int64_t P = Smallest + I * Step;
      // The padding must fit: the kernel's other arrays and this one grown.
      if (SharedBytes < 0 ||
          SharedBytes + (Rows * P - Rows * Extent) * ElemBytes > ir::MaxStaticSharedBytes)
        break;
      Shape.back() = P;
      int64_t Cost = storeConflicts(Stores, Shape, static_cast<size_t>(Dim), ElemBytes, Threads, Ctx);
      if (BestCost < 0 || Cost < BestCost) {
        Best = P;
        BestCost = Cost;
      }
    }
    SharedBytes += (Rows * Best - Rows * Extent) * ElemBytes;
    return Best;
  }
};

} // namespace

ir::LoopNest layoutSharedStages(const ir::LoopNest &Nest, const KernelContext &Ctx) {
  ThreadVars Threads;
  Threads.visit(Nest.Body);
  StageLayouts Layouts(Ctx, Threads, ir::staticSharedBytes(Nest));
  ir::LoopNest Out = Nest;
  Out.Body = Layouts.mutate(Nest.Body);
  return Out;
}

const Pass LayoutSharedStagesPass = {
    "LayoutSharedStages", /*Requires=*/FormSynchronized, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      const KernelContext *Ctx = S.launchContext();
      if (!Ctx)
        return false;
      S.Nest = layoutSharedStages(S.Nest, *Ctx);
      return true;
    }};

} // namespace passes
} // namespace sched
