//===- AutoTensorCore.cpp - tensorcore(auto): an ordinary kernel onto tensor cores -===//
//
// `tensorcore(auto)` on a matmul scheduled as an ordinary CUDA kernel - each
// thread a few accumulators in a local array, threadIdx.x over 32 lanes,
// operands read from shared stages or global memory - turns the per-thread
// multiply-add into warp-wide wmma operations, where it qualifies:
//  - one multiply-add `acc[..] = acc[..] + A'*B'` into a local accumulator
//    (A', B' loads of float16 operands converted to float32, or int8/uint8 to
//    int32), initialised by a constant and stored to the output once;
//  - every output element of a warp (the 32 threadIdx.x of one threadIdx.y,
//    z) is a point of a box: along the output's rows and its columns, the
//    lane and the accumulator's loops count in steps of 1, one after the
//    other (a radix chain), and the warp's box is tiled by one of the wmma
//    shapes (16x16, 32x8, 8x32, each with k 16);
//  - the operands run along the same chains: A over the rows and the
//    reduction, B over the reduction and the columns, each along its last two
//    dimensions (row- or column-major: the layout comes from the order);
//    the innermost reduction loop is a multiple of 16 long;
//  - every leading dimension is a constant that meets wmma's alignment.
// Then, inside the lane loop, where the accumulator was (thread indices
// "unified": a warp's operations depend on its tile offsets, never on its
// lane), with Cf = [warp rows/m, warp cols/n, m, n] accumulator fragments:
//   initialisation -> for a, b: wmma.fill(Cf[a, b])
//   reduction nest -> for kk { for a: wmma.load_a(Af[a, kk], &A'[row a*m, k kk*16])
//                              for b: wmma.load_b(Bf[kk, b], &B'[k kk*16, col b*n])
//                              for a, b: wmma.mma(Cf[a, b], Af[a, kk], Bf[kk, b], Cf[a, b]) }
//   output store   -> for a, b: wmma.store(&C[row a*m, col b*n], Cf[a, b])
// (the mma sums each k chunk in ascending order, as the loop did). A remark at
// the directive says what it became; where the nest does not qualify, a
// remark names the loop or access and the reason and the ordinary kernel is
// generated.
//
// On sm_80 and newer (-fplugin-arg-sched-arch) the same rewrite emits the
// PTX mma.sync m16n8k16 family (ldmatrix from the shared stages) where the
// operands are fp16 in shared memory and the warp box is whole 16 x 8 tiles.
//
// On sm_90a, a block of one warpgroup (128 threads) whose fp16 operands are
// in shared stages computes its whole box with wgmma.mma_async m64nNk16
// (ir::TensorFamily::Wgmma): the warps' boxes together are a dense box of
// rows and columns over the warp indices, the lanes and the accumulator
// (the same radix chains, the warp loops among their digits), 64-row tiles
// of at most 256 columns; the code no longer depends on the warp or lane, so
// all 128 threads issue the same calls:
//   initialisation -> for a: wgmma.fill(Cf[a, 0])
//   reduction nest -> for kk { wgmma.fence(); for a: wgmma.mma(Cf[a, 0], &A'[a*64, kk*16],
//                                                   lda, &B'[col 0, kk*16], ldb) }
//                     wgmma.commit(); wgmma.wait(0)
//   output store   -> for a: wgmma.store(&C[row a*64, col 0], Cf[a, 0])
// Both stages must be K-major (A's rows along k, B stored n by n); a stage
// that is not is stored transposed. Their rows must be 32, 64 or 128 bytes:
// LayoutSharedStages gives them PTX's swizzle of that width. Where wgmma does
// not apply, the per-warp rewrite above runs and the remark says why.
//
// Runs after BoundInference (stage shapes are constants) and before
// TensorizeWmma, which leaves kernels already written with wmma calls as
// they are; the lane loop stays bound to threadIdx.x (ComputeLaunchGeometry
// checks it has 32 threads).
//
//===----------------------------------------------------------------------===//
#include "ir/Affine.h"
#include "ir/Bounds.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Intrinsics.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "passes/FullTiles.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <map>
#include <set>

namespace sched {
namespace passes {

namespace {

using ir::Expr;
using ir::Stmt;

/// A failed check: the reason, for the remark. The checks are many and
/// nested in helpers; each unwinds to AutoTensorCore::run, which reports it
/// and leaves the nest as it was (nothing is changed before every check has
/// passed).
struct NotQualified {
  std::string Why;
  /// A shared stage whose tiles could not be aligned as it is stored; the
  /// other way round (transposed) they may be.
  const ir::BufferNode *Transposable = nullptr;
  /// Why it would be stored transposed, for the remark.
  std::string TransposeWhy = "so that its tiles start 32-byte aligned";
};

/// A loop on the path to a node, or inside a region.
struct LoopInfo {
  const ir::ForNode *Loop;
  int64_t Extent = -1;
};

/// One step of a radix chain along an output dimension: variable V counts
/// in steps of Coef, Extent times.
struct Digit {
  const ir::VarNode *V;
  int64_t Coef, Extent;
};

/// Finds the local accumulator: the Allocate of a local buffer updated by
/// `acc[..] = acc[..] + x*y`, with the thread loops around it.
class AccumulatorFinder : public ir::IRVisitor {
public:
  struct Candidate {
    const ir::AllocateNode *Alloc;
    std::vector<const ir::ForNode *> Outer; // loops around the allocation
  };
  std::vector<Candidate> Found;
  std::vector<std::string> NotMultiplyAdd; // updates of a local array that are no multiply-add

protected:
  void visitFor(const ir::ForNode *N) override {
    Path.push_back(N);
    ir::IRVisitor::visitFor(N);
    Path.pop_back();
  }
  void visitAllocate(const ir::AllocateNode *N) override {
    if (N->Buf->MemScope == ir::Scope::Local && reduces(N))
      Found.push_back({N, Path});
    ir::IRVisitor::visitAllocate(N);
  }

private:
  std::vector<const ir::ForNode *> Path;

  /// Whether N's body updates its buffer from itself inside a reduction loop.
  bool reduces(const ir::AllocateNode *N) {
    struct Finder : ir::IRVisitor {
      const ir::BufferNode *Buf;
      bool Found = false;
      std::vector<std::string> &Other;
      Finder(const ir::BufferNode *B, std::vector<std::string> &O) : Buf(B), Other(O) {}
      void visitStore(const ir::StoreNode *S) override {
        if (S->Buf.get() != Buf)
          return;
        if (!ir::loadsFrom(S->Value, {Buf}))
          return;
        const auto *Add = ir::as<ir::BinaryNode>(S->Value);
        bool MulAdd = Add && Add->Op == ir::BinOp::Add &&
                      (ir::as<ir::BinaryNode>(Add->B) || ir::as<ir::BinaryNode>(Add->A));
        if (MulAdd) {
          const auto *P = ir::as<ir::BinaryNode>(ir::as<ir::LoadNode>(Add->A) ? Add->B : Add->A);
          MulAdd = P && P->Op == ir::BinOp::Mul;
        }
        if (MulAdd)
          Found = true;
        else if (Buf->Type == ir::DType::Float16)
          Other.push_back("float16 accumulator");
        else
          Other.push_back(ir::print(S->Value));
      }
    } F(N->Buf.get(), NotMultiplyAdd);
    F.visit(N->Body);
    return F.Found;
  }
};



std::string text(const Expr &E) { return "`" + ir::print(E) + "`"; }

int64_t constExtent(const ir::ForNode *L) {
  int64_t E;
  return ir::getConstInt(ir::simplify(L->Extent), E) ? E : -1;
}

/// The coefficient of V in E (an affine form over the variables in Vars);
/// 0 when absent, -1 when E is not affine in them or the coefficient is not
/// a constant.
int64_t coefficient(const Expr &E, const ir::VarNode *V, const std::set<const ir::VarNode *> &Vars) {
  ir::AffineForm F;
  if (!ir::toAffine(E, [&](const ir::VarNode *U) { return Vars.count(U) != 0; }, F))
    return -1;
  auto It = F.Coefs.find(V);
  if (It == F.Coefs.end())
    return 0;
  int64_t C;
  return ir::getConstInt(ir::simplify(It->second), C) ? C : -1;
}

/// The digits of a dimension's index over the tile variables it uses,
/// sorted by coefficient; they must count 1, e1, e1*e2, ... (a dense box).
bool radixChain(const Expr &Index, const std::vector<std::pair<const ir::VarNode *, int64_t>> &TileVars,
                const std::set<const ir::VarNode *> &AllVars, std::vector<Digit> &Out, int64_t &Size) {
  Out.clear();
  for (auto [V, Ext] : TileVars) {
    int64_t C = coefficient(Index, V, AllVars);
    if (C < 0)
      return false;
    if (C > 0)
      Out.push_back({V, C, Ext});
  }
  std::sort(Out.begin(), Out.end(), [](const Digit &A, const Digit &B) { return A.Coef < B.Coef; });
  Size = 1;
  for (const Digit &D : Out) {
    if (D.Coef != Size)
      return false;
    Size *= D.Extent;
  }
  return true;
}

/// The value of each digit's variable at tile T's start along its chain:
/// offset T*Size, T in [0, Count). Where the digit is a plain multiple or
/// quotient of T over that range, it says so (so that alignment and
/// addresses stay affine); otherwise (T*Size / Coef) % Extent.
void digitsAt(const std::vector<Digit> &Chain, const ir::Var &T, int64_t Size, int64_t Count,
              std::map<const ir::VarNode *, Expr> &Out) {
  for (const Digit &D : Chain) {
    Expr V;
    if (Size % D.Coef == 0) {
      int64_t Q = Size / D.Coef;
      if (Q % D.Extent == 0 || Count == 1)
        V = ir::makeInt(0);
      else if ((Count - 1) * Q < D.Extent)
        V = Expr(T) * ir::makeInt(Q);
    } else if (D.Coef % Size == 0) {
      int64_t R = D.Coef / Size;
      if (Count <= R)
        V = ir::makeInt(0);
      else if ((Count - 1) / R < D.Extent)
        V = Expr(T) / ir::makeInt(R);
    }
    if (!V)
      V = (Expr(T) * ir::makeInt(Size) / ir::makeInt(D.Coef)) % ir::makeInt(D.Extent);
    Out[D.V] = ir::simplify(V);
  }
}

class AutoTensorCore {
public:
  AutoTensorCore(ir::LoopNest &Nest, std::vector<Diag> &Diags, TargetArch Arch)
      : Nest(Nest), Diags(Diags), ArchNumber(Arch.Number),
        Wgmma(Arch.Number == 90 && Arch.Specific) {}

  void run() {
    // Unit loops (a split by the whole extent: `split(jc, jr, lane, 32)` of
    // 32 columns) run once: their variable is their first value. Without
    // them the tile chains are what they look like; where tensor cores do
    // not apply, the nest stays as written.
    ir::LoopNest AsWritten = Nest;
    Nest.Body = withoutUnitLoops(Nest.Body);
    runOnce();
    if (!Applied)
      Nest = AsWritten;
  }

  void runOnce() {
    if (runOnFullTiles())
      return;
    std::string Summary;
    ir::LoopNest Original = Nest;
    try {
      Summary = rewriteTransposing();
    } catch (const NotQualified &N) {
      Nest = Original;
      remark("tensorcore(auto) does not apply: " + N.Why + "; the ordinary CUDA kernel is generated");
      return;
    }
    remark("tensorcore(auto): " + Summary);
    Applied = true;
  }

  /// rewrite(), where it fails for a shared stage's layout retried with the
  /// stage stored transposed (at most twice: A's and B's). A stage's layout
  /// is the kernel's own: stored transposed, a column-major operand becomes
  /// row-major (int8 A column-major and B row-major have no aligned wmma
  /// tiling otherwise; wgmma reads K-major stages only). The nest may have
  /// transposed stages when this throws.
  std::string rewriteTransposing() {
    std::string Transposed;
    for (int Tries = 0;; ++Tries) {
      try {
        return rewrite() + Transposed;
      } catch (const NotQualified &N) {
        if (Tries == 2 || !N.Transposable || !transposeStage(N.Transposable))
          throw;
        Transposed += "; '" + N.Transposable->Name + "' is stored transposed " + N.TransposeWhy;
      }
    }
  }

  /// S with every serial or unrolled loop of constant extent 1 replaced by
  /// its body at the loop's first value.
  static Stmt withoutUnitLoops(const Stmt &S) {
    struct Dropper : ir::IRMutator {
      Stmt mutateFor(const Stmt &St, const ir::ForNode *N) override {
        int64_t Extent;
        if ((N->LoopKind == ir::ForKind::Serial || N->LoopKind == ir::ForKind::Unrolled) &&
            ir::getConstInt(N->Extent, Extent) && Extent == 1)
          return mutate(ir::substitute(N->Body, {{N->LoopVar.get(), N->Min}}));
        return ir::IRMutator::mutateFor(St, N);
      }
    } D;
    return D.mutate(S);
  }

  bool Applied = false; // tensor cores replaced the per-thread multiply-add

  /// A nest whose tiles may be partial (run-time sizes: its statements are
  /// guarded): the code of a block is split at its full tiles
  /// (passes/FullTiles.h, over every loop, the k-tile loop included, so a
  /// full tile is whole in k too), and tensor cores run in the full tiles'
  /// copy, `if (V) <tensor cores> else <the ordinary kernel>`; V is uniform
  /// over a block. False where the nest has no such guards (the rest of
  /// run() decides); true when this has reported on it.
  bool runOnFullTiles() {
    std::vector<const ir::ForNode *> Chain;
    fulltiles::FreeVars Threads;
    for (const auto *L = ir::as<ir::ForNode>(Nest.Body);
         L && L->LoopKind == ir::ForKind::ThreadBound &&
         (ir::isBlockTag(L->ThreadTag) || isThreadIdxLoop(L));
         L = ir::as<ir::ForNode>(L->Body)) {
      Chain.push_back(L);
      if (isThreadIdxLoop(L))
        Threads.addLoop(L);
    }
    if (Chain.empty())
      return false;
    fulltiles::FullTileVersion V;
    if (!fulltiles::versionFullTiles(Chain.back()->Body, Threads, /*OverRunTimeLoops=*/true, V) ||
        V.Conds.empty())
      return false;
    auto InChain = [&](Stmt Body) {
      for (auto It = Chain.rbegin(); It != Chain.rend(); ++It)
        Body = ir::withBody(*It, Body);
      return Body;
    };
    ir::LoopNest Original = Nest;
    Nest.Body = InChain(fulltiles::allocatedAround(V.Fast, V.Hoisted));
    Expr Full = ir::conjunction(withRowsInRuns(V.Conds, V.Fast));
    std::string Summary;
    try {
      Summary = rewriteTransposing();
    } catch (const NotQualified &N) {
      Nest = Original;
      remark("tensorcore(auto) does not apply: in a block whose tile is full (" + text(Full) +
             "), " + N.Why + "; the ordinary CUDA kernel is generated");
      return true;
    }
    // A stage stored transposed for the tensor cores is stored so for the
    // ordinary kernel too: the two share its allocation.
    std::vector<ir::Buffer> Hoisted = V.Hoisted;
    Stmt Unshared = V.Unshared;
    for (const auto &[Old, New] : TransposedStages) {
      for (ir::Buffer &B : Hoisted)
        if (B.get() == Old)
          B = New;
      Unshared = ir::remapBuffer(Unshared, Old, New, swapIndices);
    }
    // The rewritten block code, inside the chain and the hoisted stages.
    Stmt Fast = Nest.Body;
    for (size_t I = 0; I < Chain.size(); ++I)
      Fast = ir::as<ir::ForNode>(Fast)->Body;
    for (const ir::Buffer &B : Hoisted) {
      const auto *A = ir::as<ir::AllocateNode>(Fast);
      if (!A || A->Buf != B) {
        Nest = Original;
        remark("tensorcore(auto) does not apply: internal: the full tiles' stages moved");
        return true;
      }
      Fast = A->Body;
    }
    Nest = Original;
    Nest.Body = InChain(fulltiles::allocatedAround(
        ir::makeIf(Full, ir::cloneDeclarations(Fast), Unshared), Hoisted));
    remark("tensorcore(auto): in a block whose tile is full (" + text(Full) + "), " + Summary +
           "; the other blocks run the ordinary kernel");
    Applied = true;
    return true;
  }

  /// Conds and, for each operand array of run-time row length n read in
  /// Fast (float16, int8), `n % (16 / element size) == 0`: its rows then
  /// start 16 bytes apart, so the stages are filled by 16-byte copies
  /// (cp.async), as the full tiles' copy is meant to be fast.
  static std::vector<Expr> withRowsInRuns(std::vector<Expr> Conds, const Stmt &Fast) {
    struct Finder : ir::IRVisitor {
      std::set<const ir::VarNode *> Seen;
      std::vector<std::pair<Expr, int64_t>> Rows; // in the order first read
      void visitLoad(const ir::LoadNode *N) override {
        int64_t Bytes = ir::dtypeBytes(N->Buf->Type);
        if (N->Buf->MemScope == ir::Scope::Global && Bytes <= 2 && N->Buf->Shape.size() >= 2)
          if (const auto *V = ir::as<ir::VarNode>(N->Buf->Shape.back()); V && Seen.insert(V).second)
            Rows.push_back({N->Buf->Shape.back(), 16 / Bytes});
        ir::IRVisitor::visitLoad(N);
      }
    } F;
    F.visit(Fast);
    for (const auto &Row : F.Rows)
      Conds.push_back(ir::makeBinary(ir::BinOp::EQ,
                                     Row.first % ir::makeInt(Row.second, Row.first->Type),
                                     ir::makeInt(0, Row.first->Type)));
    return Conds;
  }

  /// Stores the two-dimensional shared stage Buf (allocated in the nest)
  /// transposed: its copy and its readers index it the other way round.
  bool transposeStage(const ir::BufferNode *Buf) {
    if (Buf->Shape.size() != 2 || Buf->MemScope != ir::Scope::Shared || !allocatedInNest(Buf))
      return false;
    ir::Buffer New = ir::makeBuffer(Buf->Name, Buf->Type, {Buf->Shape[1], Buf->Shape[0]}, Buf->MemScope);
    Nest.Body = ir::remapBuffer(Nest.Body, Buf, New, swapIndices);
    TransposedStages.push_back({Buf, New});
    return true;
  }
  static std::vector<Expr> swapIndices(const std::vector<Expr> &Idx) { return {Idx[1], Idx[0]}; }
  /// The stages transposeStage stored transposed, and their new buffers.
  std::vector<std::pair<const ir::BufferNode *, ir::Buffer>> TransposedStages;

private:
  ir::LoopNest &Nest;
  std::vector<Diag> &Diags;
  const int ArchNumber; // the target's compute capability (80 for sm_80), 0 unknown
  const bool Wgmma;     // sm_90a: a warpgroup's box may run on wgmma

  bool allocatedInNest(const ir::BufferNode *Buf) const {
    struct Finder : ir::IRVisitor {
      const ir::BufferNode *Buf;
      bool Found = false;
      void visitAllocate(const ir::AllocateNode *N) override {
        Found |= N->Buf.get() == Buf;
        ir::IRVisitor::visitAllocate(N);
      }
    } F;
    F.Buf = Buf;
    F.visit(Nest.Body);
    return F.Found;
  }

  void remark(const std::string &Message) {
    Diag D;
    D.Severity = Diag::Level::Remark;
    D.Loc = Nest.TensorCoreAuto;
    D.Message = Message;
    Diags.push_back(D);
  }

  [[noreturn]] static void fail(const std::string &Why) { throw NotQualified{Why}; }

  /// On sm_90a the warpgroup's rewrite first (wgmma), else the warp's; a
  /// stage that wgmma wants transposed is reported (NotQualified) so that
  /// rewriteTransposing stores it so and tries again.
  std::string rewrite() {
    if (!Wgmma)
      return rewriteFor(false);
    ir::LoopNest Before = Nest;
    std::string WhyNot;
    try {
      return rewriteFor(true);
    } catch (const NotQualified &N) {
      if (N.Transposable)
        throw;
      Nest = Before;
      WhyNot = N.Why;
    }
    return rewriteFor(false) + " (wgmma does not apply: " + WhyNot + ")";
  }

  std::string rewriteFor(bool Warpgroup);
};

/// One operand of the product: its load, the dimensions that hold its rows
/// (or columns) and the reduction, its layout and leading dimension.
struct Operand {
  const ir::LoadNode *Load = nullptr;
  int TileDim = -1, KDim = -1; // matrix_a: rows, k; matrix_b: k, columns
  int64_t Layout = ir::WmmaRowMajor;
  int64_t Ld = 0;
};

std::string AutoTensorCore::rewriteFor(bool Warpgroup) {
  AccumulatorFinder Finder;
  Finder.visit(Nest.Body);
  if (Finder.Found.empty()) {
    if (!Finder.NotMultiplyAdd.empty() && Finder.NotMultiplyAdd.front() == "float16 accumulator")
      fail("the accumulator is float16; tensor cores accumulate float16 products in float32 "
           "(declare the accumulator float)");
    if (!Finder.NotMultiplyAdd.empty())
      fail("the reduction `" + Finder.NotMultiplyAdd.front() + "` is not a multiply-add");
    fail("no per-thread accumulator (a local array updated by `acc += a*b`) in the nest");
  }
  if (Finder.Found.size() > 1)
    fail("the nest has " + std::to_string(Finder.Found.size()) + " accumulators; it must have one");
  const ir::AllocateNode *Acc = Finder.Found[0].Alloc;
  const ir::BufferNode *AccBuf = Acc->Buf.get();

  // The lane loop: threadIdx.x around the accumulator, 32 threads.
  const ir::ForNode *Lane = nullptr;
  int64_t BlockThreads = 1;
  for (const ir::ForNode *L : Finder.Found[0].Outer)
    if (L->LoopKind == ir::ForKind::ThreadBound && ir::isThreadIdxTag(L->ThreadTag)) {
      int64_t E = constExtent(L);
      if (E < 0)
        fail("loop '" + L->LoopVar->Name + "' bound to " + L->ThreadTag +
             " has a run-time extent");
      BlockThreads *= E;
      if (L->ThreadTag == "threadIdx.x")
        Lane = L;
    }
  if (BlockThreads % 32 != 0)
    fail("the block has " + std::to_string(BlockThreads) +
         " threads, which is not a whole number of warps");
  // wgmma: the block is one warpgroup; its warps' loops are digits of the
  // box like the lane's.
  std::vector<const ir::ForNode *> WarpLoops;
  if (Warpgroup) {
    if (BlockThreads != 128)
      fail("the block has " + std::to_string(BlockThreads) +
           " threads; wgmma needs a block of one warpgroup (128 threads)");
    for (const ir::ForNode *L : Finder.Found[0].Outer)
      if (L->LoopKind == ir::ForKind::ThreadBound && ir::isThreadIdxTag(L->ThreadTag) &&
          L->ThreadTag != "threadIdx.x")
        WarpLoops.push_back(L);
  }
  if (!Lane || constExtent(Lane) != 32)
    fail(std::string("a warp must be the 32 threads of threadIdx.x of one threadIdx.y and z, but ") +
         (Lane ? "loop '" + Lane->LoopVar->Name + "' bound to threadIdx.x has " +
                     std::to_string(constExtent(Lane)) + " threads"
               : "no loop around the accumulator is bound to threadIdx.x"));

  // The accumulator's statements: initialisation, update, output.
  std::vector<StoreSite> Stores = RegionScan::of(Acc->Body);
  const StoreSite *Init = nullptr, *Update = nullptr, *Out = nullptr;
  auto ReadsAcc = [&](const Expr &E) { return ir::loadsFrom(E, {AccBuf}); };
  for (const StoreSite &S : Stores) {
    bool ToAcc = S.Store->Buf.get() == AccBuf;
    if (S.Guard)
      fail("`" + stmtText(S.Store) +
           "` is guarded, so a warp's tile may be partial");
    if (ToAcc && !ReadsAcc(S.Store->Value) && ir::as<ir::FloatImmNode>(S.Store->Value) == nullptr &&
        ir::as<ir::IntImmNode>(S.Store->Value) == nullptr)
      fail("the accumulator is set to " + text(S.Store->Value) + ", not a constant");
    if (ToAcc && !ReadsAcc(S.Store->Value)) {
      if (Init)
        fail("the accumulator is initialised twice");
      Init = &S;
    } else if (ToAcc) {
      if (Update)
        fail("the accumulator is updated by two statements");
      Update = &S;
    } else if (ReadsAcc(S.Store->Value)) {
      if (Out)
        fail("the accumulator is stored twice");
      Out = &S;
    }
  }
  if (!Init || !Update || !Out)
    fail("the accumulator must be initialised, updated and stored once each");

  // The product.
  ir::DType AccT = AccBuf->Type;
  const auto *Add = ir::as<ir::BinaryNode>(Update->Store->Value);
  auto IsAcc = [&](const Expr &E) {
    const auto *L = ir::as<ir::LoadNode>(E);
    return L && L->Buf.get() == AccBuf;
  };
  if (!Add || Add->Op != ir::BinOp::Add || (!IsAcc(Add->A) && !IsAcc(Add->B)))
    fail("the update " + text(Update->Store->Value) + " is not `acc + a*b`");
  const auto *Mul = ir::as<ir::BinaryNode>(IsAcc(Add->A) ? Add->B : Add->A);
  if (!Mul || Mul->Op != ir::BinOp::Mul)
    fail("the update " + text(Update->Store->Value) + " is not `acc + a*b`");
  auto FactorOf = [&](const Expr &E) -> const ir::LoadNode * {
    if (const auto *C = ir::as<ir::CastNode>(E))
      return C->Type == AccT ? ir::as<ir::LoadNode>(C->Value) : nullptr;
    return ir::as<ir::LoadNode>(E);
  };
  const ir::LoadNode *X = FactorOf(Mul->A), *Y = FactorOf(Mul->B);
  if (!X || !Y)
    fail("a factor of " + text(Update->Store->Value) + " is not an array element");
  ir::DType In = X->Buf->Type;
  if (In != Y->Buf->Type)
    fail("the operands are " + std::string(ir::dtypeName(In)) + " and " +
         ir::dtypeName(Y->Buf->Type));
  if (!((In == ir::DType::Float16 && AccT == ir::DType::Float32) ||
        ((In == ir::DType::Int8 || In == ir::DType::UInt8) && AccT == ir::DType::Int32)))
    fail(std::string("operands ") + ir::dtypeName(In) + " accumulated in " + ir::dtypeName(AccT) +
         "; tensor cores multiply float16 into float32 or int8/uint8 into int32");
  for (const ir::LoadNode *F : {X, Y})
    if (F->Buf->MemScope != ir::Scope::Global && F->Buf->MemScope != ir::Scope::Shared)
      fail("operand '" + F->Buf->Name + "' is in " + ir::scopeName(F->Buf->MemScope) +
           " memory; wmma loads from global or shared memory");

  // Accumulator dimensions: each indexed by one loop in every statement.
  size_t Rank = AccBuf->Shape.size();
  auto AccVars = [&](const std::vector<Expr> &Idx, const char *What) {
    std::vector<const ir::VarNode *> Vars;
    for (const Expr &E : Idx) {
      const auto *V = ir::as<ir::VarNode>(E);
      int64_t C;
      if (!V && !(ir::getConstInt(E, C) && C == 0))
        fail(std::string("the accumulator's ") + What + " index " + text(E) +
             " is not a loop variable");
      Vars.push_back(V);
    }
    return Vars;
  };
  std::vector<const ir::VarNode *> UVars = AccVars(Update->Store->Indices, "update");
  std::vector<const ir::VarNode *> OVars = AccVars(ir::as<ir::LoadNode>(Out->Store->Value)
                                                       ? ir::as<ir::LoadNode>(Out->Store->Value)->Indices
                                                       : std::vector<Expr>{},
                                                   "output");
  if (OVars.size() != Rank)
    fail("the output stores " + text(Out->Store->Value) + ", not an accumulator element");

  // Loop extents inside the accumulator, and the lane's.
  std::map<const ir::VarNode *, int64_t> Extent;
  for (const StoreSite *S : {Init, Update, Out})
    for (const ir::ForNode *L : S->Loops)
      Extent[L->LoopVar.get()] = constExtent(L);
  Extent[Lane->LoopVar.get()] = 32;
  for (const ir::ForNode *L : WarpLoops)
    Extent[L->LoopVar.get()] = constExtent(L);

  // The output: C[row, col], rows and columns as radix chains of the lane
  // and the accumulator's loops.
  const ir::StoreNode *CStore = Out->Store;
  size_t CRank = CStore->Indices.size();
  if (CRank < 2)
    fail("the output '" + CStore->Buf->Name + "' is not indexed by a row and a column");
  std::set<const ir::VarNode *> OutVars;
  for (const ir::ForNode *L : Out->Loops)
    OutVars.insert(L->LoopVar.get());
  for (const ir::ForNode *L : Finder.Found[0].Outer)
    OutVars.insert(L->LoopVar.get());
  std::vector<std::pair<const ir::VarNode *, int64_t>> OutTile = {{Lane->LoopVar.get(), 32}};
  for (const ir::ForNode *L : WarpLoops)
    OutTile.push_back({L->LoopVar.get(), constExtent(L)});
  for (const ir::VarNode *V : OVars)
    if (V)
      OutTile.push_back({V, Extent[V]});
  std::vector<Digit> RowChain, ColChain;
  int64_t Rw, Cw;
  const Expr &RowIdx = CStore->Indices[CRank - 2], &ColIdx = CStore->Indices[CRank - 1];
  if (!radixChain(RowIdx, OutTile, OutVars, RowChain, Rw) ||
      !radixChain(ColIdx, OutTile, OutVars, ColChain, Cw) ||
      RowChain.size() + ColChain.size() != OutTile.size())
    fail("the output " + text(ir::makeLoad(CStore->Buf, CStore->Indices)) +
         " is not a dense box of rows and columns over the " +
         (Warpgroup ? "warps, the lanes" : "lanes") + " and the accumulator");
  for (size_t D = 0; D + 2 < CRank; ++D)
    for (auto [V, E] : OutTile)
      if (ir::usesVar(CStore->Indices[D], V))
        fail("the output " + text(ir::makeLoad(CStore->Buf, CStore->Indices)) +
             " uses the lanes or the accumulator outside its last two dimensions");

  // The same chains in the update's terms: accumulator dimension d is
  // OVars[d] in the output and UVars[d] in the update.
  std::map<const ir::VarNode *, const ir::VarNode *> ToUpdate{{Lane->LoopVar.get(), Lane->LoopVar.get()}};
  for (const ir::ForNode *L : WarpLoops)
    ToUpdate[L->LoopVar.get()] = L->LoopVar.get();
  for (size_t D = 0; D < Rank; ++D)
    if (OVars[D])
      ToUpdate[OVars[D]] = UVars[D];
  auto InUpdate = [&](std::vector<Digit> Chain) {
    for (Digit &Dg : Chain) {
      if (!ToUpdate.count(Dg.V) || !ToUpdate[Dg.V])
        fail("the accumulator's dimensions do not match between its update and its output");
      Dg.V = ToUpdate[Dg.V];
    }
    return Chain;
  };
  std::vector<Digit> URow = InUpdate(RowChain), UCol = InUpdate(ColChain);

  // The reduction: the innermost loop around the update that indexes no
  // accumulator dimension.
  std::set<const ir::VarNode *> UTile;
  for (const Digit &D : URow)
    UTile.insert(D.V);
  for (const Digit &D : UCol)
    UTile.insert(D.V);
  const ir::ForNode *KLoop = nullptr;
  for (const ir::ForNode *L : Update->Loops)
    if (!UTile.count(L->LoopVar.get()))
      KLoop = L;
  if (!KLoop)
    fail("no reduction loop around the update");
  int64_t Ek = constExtent(KLoop);
  if (Ek <= 0 || Ek % 16 != 0)
    fail("the reduction loop '" + KLoop->LoopVar->Name + "' runs " +
         (Ek < 0 ? std::string("a run-time number of") : std::to_string(Ek)) +
         " times, not a multiple of 16 (the k of a wmma tile)");
  // The reduction nest: the loops around the update over the tile and k,
  // innermost and perfectly nested.
  size_t First = Update->Loops.size();
  while (First > 0) {
    const ir::ForNode *L = Update->Loops[First - 1];
    if (L != KLoop && !UTile.count(L->LoopVar.get()))
      break;
    --First;
  }
  for (size_t I = First; I < Update->Loops.size(); ++I) {
    const ir::StmtNode *Next = I + 1 < Update->Loops.size()
                                   ? static_cast<const ir::StmtNode *>(Update->Loops[I + 1])
                                   : Update->Store;
    if (Update->Loops[I]->Body.get() != Next)
      fail("loop '" + Update->Loops[I]->LoopVar->Name +
           "' holds more than the update; the loops over the accumulator and the reduction "
           "must nest perfectly around it");
  }
  if (First >= Update->Loops.size() || std::find(Update->Loops.begin() + First, Update->Loops.end(), KLoop) == Update->Loops.end())
    fail("the reduction loop '" + KLoop->LoopVar->Name + "' is not inside the loops over the accumulator");

  // The operands: one runs over the rows, the other over the columns.
  std::set<const ir::VarNode *> UVarsAll;
  for (const ir::ForNode *L : Update->Loops)
    UVarsAll.insert(L->LoopVar.get());
  for (const ir::ForNode *L : Finder.Found[0].Outer)
    UVarsAll.insert(L->LoopVar.get());
  auto UsesChain = [&](const ir::LoadNode *L, const std::vector<Digit> &Chain) {
    for (const Digit &D : Chain)
      for (const Expr &E : L->Indices)
        if (ir::usesVar(E, D.V))
          return true;
    return false;
  };
  if (UsesChain(X, UCol) && !UsesChain(X, URow))
    std::swap(X, Y);
  auto Describe = [&](const ir::LoadNode *L) { return text(ir::makeLoad(L->Buf, L->Indices)); };
  auto Place = [&](const ir::LoadNode *L, const std::vector<Digit> &Chain, bool IsA) {
    Operand Op;
    Op.Load = L;
    int Rk = static_cast<int>(L->Indices.size());
    for (int D = 0; D < Rk; ++D) {
      bool HasK = ir::usesVar(L->Indices[D], KLoop->LoopVar.get());
      bool HasTile = false;
      for (const Digit &Dg : Chain)
        HasTile |= ir::usesVar(L->Indices[D], Dg.V);
      if (HasK && HasTile)
        fail("operand " + Describe(L) + " mixes the reduction and the tile in one index");
      if (HasK) {
        if (Op.KDim >= 0 || coefficient(L->Indices[D], KLoop->LoopVar.get(), UVarsAll) != 1)
          fail("operand " + Describe(L) + " is not read one element after the other along '" +
               KLoop->LoopVar->Name + "'");
        Op.KDim = D;
      }
      if (HasTile) {
        std::vector<Digit> Mine;
        int64_t Size;
        std::vector<std::pair<const ir::VarNode *, int64_t>> Vars;
        for (const Digit &Dg : Chain)
          Vars.push_back({Dg.V, Dg.Extent});
        if (Op.TileDim >= 0 || !radixChain(L->Indices[D], Vars, UVarsAll, Mine, Size) ||
            Mine.size() != Chain.size())
          fail("operand " + Describe(L) + " does not run over the " +
               (IsA ? "rows" : "columns") + " of the warp's tile as the output does");
        for (size_t I = 0; I < Mine.size(); ++I)
          if (Mine[I].V != Chain[I].V || Mine[I].Coef != Chain[I].Coef)
            fail("operand " + Describe(L) + " does not run over the " +
                 (IsA ? "rows" : "columns") + " of the warp's tile as the output does");
        Op.TileDim = D;
      }
    }
    if (Op.KDim < 0 || Op.TileDim < 0)
      fail("operand " + Describe(L) + " is not indexed by the " + (IsA ? "rows" : "columns") +
           " and the reduction");
    int Last = Rk - 1;
    int RowDim = IsA ? Op.TileDim : Op.KDim, ColDim = IsA ? Op.KDim : Op.TileDim;
    if (RowDim == Last - 1 && ColDim == Last)
      Op.Layout = ir::WmmaRowMajor;
    else if (RowDim == Last && ColDim == Last - 1)
      Op.Layout = ir::WmmaColMajor;
    else
      fail("operand " + Describe(L) + " must run over its last two dimensions");
    if (!ir::getConstInt(ir::simplify(L->Buf->Shape.back()), Op.Ld))
      fail("the leading dimension of '" + L->Buf->Name + "' (" + ir::print(L->Buf->Shape.back()) +
           ") is known only at run time; wmma needs it to be a multiple of 16 elements");
    for (const ir::Expr &E : L->Indices)
      for (const ir::VarNode *V : ir::varsOf(E))
        if (!UVarsAll.count(V) && !scalarParams(Nest).count(V))
          fail("operand " + Describe(L) + " depends on '" + V->Name + "', which is not a loop");
    return Op;
  };
  Operand OA = Place(X, URow, true), OB = Place(Y, UCol, false);
  // The output's leading dimension: mma.sync stores element by element, so
  // a run-time one will do; a wmma store wants it known (its alignment).
  Expr CLdExpr = ir::simplify(CStore->Buf->Shape.back());
  int64_t CLd = 0;
  bool CLdKnown = ir::getConstInt(CLdExpr, CLd);
  // wmma alignment: every row start 32 bytes apart for 16-bit operands and
  // 32-bit accumulators (the PTX rule), 16 bytes for 8-bit operands.
  auto Aligned = [&](int64_t Ld, ir::DType T, const std::string &Name) {
    int64_t Bytes = Ld * ir::dtypeBytes(T), Need = ir::dtypeBytes(T) == 1 ? 16 : 32;
    if (Bytes % Need != 0)
      fail("the rows of '" + Name + "' are " + std::to_string(Ld) + " elements (" +
           std::to_string(Bytes) + " bytes) apart; wmma needs a multiple of " +
           std::to_string(Need) + " bytes (pad the array or its stage with storage_align)");
  };
  const int64_t CLayout = ir::WmmaRowMajor;

  // The shape: a wmma tile that tiles the warp's box (the exact one first)
  // and starts every tile 32 bytes aligned in A, B and C (CUDA's rule for
  // a wmma pointer).
  ir::Var TA = ir::makeVar("tc.a"), TB = ir::makeVar("tc.b"), TK = ir::makeVar("tc.k");
  const int64_t K = 16;
  // An operand's tile start: the tile digits and k at their offsets.
  auto TileStart = [&](const ir::LoadNode *L, const std::vector<Digit> &Chain, const ir::Var &T,
                       int64_t Size, int64_t Count, Expr KOff) {
    std::map<const ir::VarNode *, Expr> Map;
    digitsAt(Chain, T, Size, Count, Map);
    if (KOff)
      Map[KLoop->LoopVar.get()] = KOff;
    std::vector<Expr> Idx;
    for (const Expr &E : L->Indices)
      Idx.push_back(ir::simplify(ir::substitute(E, Map)));
    return ir::makeLoad(L->Buf, Idx);
  };
  // The output's tile start, in the output store's terms.
  auto OutStart = [&](int64_t Mc, int64_t Nc) {
    std::map<const ir::VarNode *, Expr> OutMap;
    digitsAt(RowChain, TA, Mc, Rw / Mc, OutMap);
    digitsAt(ColChain, TB, Nc, Cw / Nc, OutMap);
    std::vector<Expr> CIdx;
    for (const Expr &E : CStore->Indices)
      CIdx.push_back(ir::simplify(ir::substitute(E, OutMap)));
    return ir::makeLoad(CStore->Buf, CIdx);
  };
  // On sm_80 and newer, PTX mma.sync m16n8k16 (fed by ldmatrix from shared
  // memory, which needs only 16-byte rows) where it fits: fp16 operands in
  // shared stages, a warp box of whole 16 x 8 tiles, every ldmatrix row on
  // 16 bytes.
  ir::TensorFamily Family = ir::TensorFamily::Wmma;
  if (Warpgroup) {
    // wgmma: fp16 operands in shared stages, both K-major (A's rows along
    // k, B stored n by n), rows of 32, 64 or 128 bytes; 64-row tiles of the
    // warpgroup's whole box.
    if (In != ir::DType::Float16 || X->Buf->MemScope != ir::Scope::Shared ||
        Y->Buf->MemScope != ir::Scope::Shared)
      fail("wgmma reads float16 operands from shared stages");
    if (OA.Layout != ir::WmmaRowMajor)
      throw NotQualified{"wgmma reads A k-major", X->Buf.get(),
                         "so that wgmma reads it k-major"};
    if (OB.Layout != ir::WmmaColMajor)
      throw NotQualified{"wgmma reads B k-major", Y->Buf.get(),
                         "so that wgmma reads it k-major"};
    ir::Swizzle Sw;
    for (const Operand *O : {&OA, &OB})
      if (!ir::wgmmaSwizzle(O->Ld, Sw) || O->Load->Buf->Shape.size() != 2)
        fail("the rows of stage '" + O->Load->Buf->Name + "' are " + std::to_string(O->Ld) +
             " elements; wgmma reads rows of 16, 32 or 64 (a k tile of that size)");
    if (Rw % 64 != 0 || Cw % 8 != 0 || Cw > 256)
      fail("the warpgroup computes " + std::to_string(Rw) + " x " + std::to_string(Cw) +
           " outputs; wgmma takes 64-row tiles of at most 256 columns, a multiple of 8");
    if (Rw * Cw / 128 > 128)
      fail("the warpgroup's " + std::to_string(Rw) + " x " + std::to_string(Cw) +
           " accumulators are " + std::to_string(Rw * Cw / 128) +
           " registers per thread, more than 128");
    // Each tile starts on a swizzle pattern (8 rows).
    if (!provablyAligned(ir::as<ir::LoadNode>(TileStart(X, URow, TA, 64, Rw / 64, ir::makeInt(0))),
                         8 * OA.Ld * 2) ||
        !provablyAligned(ir::as<ir::LoadNode>(TileStart(Y, UCol, TB, Cw, 1, ir::makeInt(0))),
                         8 * OB.Ld * 2))
      fail("a wgmma tile does not start on 8 rows of its stage");
    Family = ir::TensorFamily::Wgmma;
  }
  if (!Warpgroup && ArchNumber >= 80 && In == ir::DType::Float16 && X->Buf->MemScope == ir::Scope::Shared &&
      Y->Buf->MemScope == ir::Scope::Shared && Rw % 16 == 0 && Cw % 8 == 0 &&
      (OA.Ld * 2) % 16 == 0 && (OB.Ld * 2) % 16 == 0) {
    Expr KOff = Ek == 16 ? ir::makeInt(0) : Expr(TK) * ir::makeInt(16);
    if (provablyAligned(ir::as<ir::LoadNode>(TileStart(X, URow, TA, 16, Rw / 16, KOff)), 16) &&
        provablyAligned(ir::as<ir::LoadNode>(TileStart(Y, UCol, TB, 8, Cw / 8, KOff)), 16))
      Family = ir::TensorFamily::Mma;
  }
  if (Family == ir::TensorFamily::Wmma) {
    if (!CLdKnown)
      fail("the leading dimension of '" + CStore->Buf->Name + "' (" + ir::print(CStore->Buf->Shape.back()) +
           ") is known only at run time");
    Aligned(OA.Ld, In, X->Buf->Name);
    Aligned(OB.Ld, In, Y->Buf->Name);
    Aligned(CLd, AccT, CStore->Buf->Name);
  }
  std::vector<std::pair<int64_t, int64_t>> Shapes;
  for (auto [Mc, Nc] : {std::pair<int64_t, int64_t>{16, 16}, {32, 8}, {8, 32}})
    if (Rw == Mc && Cw == Nc)
      Shapes.insert(Shapes.begin(), {Mc, Nc});
    else if (Rw % Mc == 0 && Cw % Nc == 0)
      Shapes.push_back({Mc, Nc});
  if (Shapes.empty())
    fail("a warp computes " + std::to_string(Rw) + " x " + std::to_string(Cw) +
         " outputs, which no wmma tile (16x16, 32x8, 8x32) divides");
  int64_t M = 0, N = 0;
  std::string Misaligned;
  const ir::BufferNode *MisalignedStage = nullptr;
  if (Family == ir::TensorFamily::Mma)
    Shapes = {{16, 8}};
  if (Family == ir::TensorFamily::Wgmma)
    Shapes = {{64, Cw}};
  for (auto [Mc, Nc] : Shapes) {
    if (Family != ir::TensorFamily::Wmma) {
      M = Mc;
      N = Nc;
      break;
    }
    Expr KOff = Ek == K ? ir::makeInt(0) : Expr(TK) * ir::makeInt(K);
    std::string Why;
    for (Expr Start : {TileStart(X, URow, TA, Mc, Rw / Mc, KOff), TileStart(Y, UCol, TB, Nc, Cw / Nc, KOff),
                       OutStart(Mc, Nc)})
      if (Why.empty() && !provablyAligned(ir::as<ir::LoadNode>(Start), 32)) {
        const ir::LoadNode *L = ir::as<ir::LoadNode>(Start);
        Why = "with " + std::to_string(Mc) + "x" + std::to_string(Nc) + "x16 tiles, a tile of '" +
              L->Buf->Name + "' starts at " + text(Start) + ", not 32 bytes aligned";
        if (Misaligned.empty() && L->Buf->MemScope == ir::Scope::Shared &&
            (L->Buf.get() == X->Buf.get() || L->Buf.get() == Y->Buf.get()))
          MisalignedStage = L->Buf.get();
      }
    if (Why.empty()) {
      M = Mc;
      N = Nc;
      break;
    }
    if (Misaligned.empty())
      Misaligned = Why;
  }
  if (!M)
    throw NotQualified{Misaligned + " (CUDA wants every wmma tile 32-byte aligned)", MisalignedStage};
  int64_t TilesR = Rw / M, TilesC = Cw / N, TilesK = Ek / K;

  // The new statements. Loop variables over the tiles.
  ir::Buffer Cf = ir::makeBuffer("Cf", AccT,
                                 {ir::makeInt(TilesR), ir::makeInt(TilesC), ir::makeInt(M), ir::makeInt(N)},
                                 ir::Scope::WmmaAccumulator);
  ir::Buffer Af = ir::makeBuffer("Af", In,
                                 {ir::makeInt(TilesR), ir::makeInt(TilesK), ir::makeInt(M), ir::makeInt(K)},
                                 ir::Scope::WmmaMatrixA);
  ir::Buffer Bf = ir::makeBuffer("Bf", In,
                                 {ir::makeInt(TilesK), ir::makeInt(TilesC), ir::makeInt(K), ir::makeInt(N)},
                                 ir::Scope::WmmaMatrixB);
  auto Frag = [](const ir::Buffer &B, Expr I, Expr J) {
    return ir::makeLoad(B, {I, J, ir::makeInt(0), ir::makeInt(0)});
  };
  auto Loop = [](const ir::Var &V, int64_t E, Stmt Body) {
    return E == 1 ? ir::substitute(Body, {{V.get(), ir::makeInt(0)}})
                  : ir::makeFor(V, ir::makeInt(0), ir::makeInt(E), Body);
  };
  Expr KOff = Ek == K ? ir::makeInt(0) : Expr(TK) * ir::makeInt(K);
  Stmt Fill = Loop(TA, TilesR, Loop(TB, TilesC,
                   ir::makeEvaluate(ir::makeWmmaCall(
                       ir::WmmaOp::Fill,
                       {Frag(Cf, TA, TB), ir::simplify(ir::makeCast(AccT, Init->Store->Value))}, M, N, K, Family))));
  // One k step of 16 at a time: its fragments loaded, then every tile's
  // mma, so that only one step's fragments are live (a 64x64 warp box
  // with all of them live spills on sm_80).
  Stmt LoadA = Loop(TA, TilesR,
                    ir::makeEvaluate(ir::makeWmmaCall(
                        ir::WmmaOp::LoadA,
                        {Frag(Af, TA, TK), TileStart(X, URow, TA, M, TilesR, KOff), ir::makeInt(OA.Ld),
                         ir::makeInt(OA.Layout)},
                        M, N, K, Family)));
  Stmt LoadB = Loop(TB, TilesC,
                    ir::makeEvaluate(ir::makeWmmaCall(
                        ir::WmmaOp::LoadB,
                        {Frag(Bf, TK, TB), TileStart(Y, UCol, TB, N, TilesC, KOff), ir::makeInt(OB.Ld),
                         ir::makeInt(OB.Layout)},
                        M, N, K, Family)));
  Stmt Mma = Loop(TA, TilesR, Loop(TB, TilesC,
                  ir::makeEvaluate(ir::makeWmmaCall(
                      ir::WmmaOp::Mma, {Frag(Cf, TA, TB), Frag(Af, TA, TK), Frag(Bf, TK, TB), Frag(Cf, TA, TB)},
                      M, N, K, Family))));
  Stmt Reduce = ir::makeAllocate(
      Af, ir::makeAllocate(Bf, Loop(TK, TilesK, ir::makeSeq({LoadA, LoadB, Mma}))));
  if (Family == ir::TensorFamily::Wgmma) {
    // The warpgroup's mma straight from the stages; one batch per k tile,
    // waited for at its end (the stages are refilled after it).
    Expr Wg = ir::makeCall(
        "wgmma.mma",
        {Frag(Cf, TA, ir::makeInt(0)), TileStart(X, URow, TA, M, TilesR, KOff), ir::makeInt(OA.Ld),
         TileStart(Y, UCol, TB, N, 1, KOff), ir::makeInt(OB.Ld), ir::makeInt(M), ir::makeInt(N),
         ir::makeInt(K)},
        ir::DType::Int32);
    // The fence inside the k loop: the barrier that publishes the stages
    // goes before the loop, so a step stays fills, barrier, computation
    // (what PipelineStages pipelines).
    Reduce = ir::makeSeq({Loop(TK, TilesK,
                               ir::makeSeq({ir::makeEvaluate(ir::makeWgmmaFence()),
                                            Loop(TA, TilesR, ir::makeEvaluate(Wg))})),
                          ir::makeEvaluate(ir::makeWgmmaCommit()),
                          ir::makeEvaluate(ir::makeWgmmaWait(0))});
  }
  Stmt Store = Loop(TA, TilesR, Loop(TB, TilesC,
                    ir::makeEvaluate(ir::makeWmmaCall(
                        ir::WmmaOp::Store,
                        {OutStart(M, N), Frag(Cf, TA, TB), CLdExpr,
                         ir::makeInt(CLayout)},
                        M, N, K, Family))));

  // The statements they replace: the outermost loop of each nest (or the
  // store itself).
  auto Root = [&](const StoreSite &S, const std::function<bool(const ir::ForNode *)> &Inside) {
    const ir::StmtNode *R = S.Store;
    for (size_t I = S.Loops.size(); I-- > 0;) {
      if (!Inside(S.Loops[I]) || S.Loops[I]->Body.get() != R)
        break;
      R = S.Loops[I];
    }
    return R;
  };
  auto OverAcc = [&](const std::vector<const ir::VarNode *> &Vars) {
    return [Vars](const ir::ForNode *L) {
      return std::find(Vars.begin(), Vars.end(), L->LoopVar.get()) != Vars.end();
    };
  };
  std::vector<const ir::VarNode *> IVars = AccVars(Init->Store->Indices, "initialisation");
  const ir::StmtNode *InitRoot = Root(*Init, OverAcc(IVars));
  const ir::StmtNode *OutRoot = Root(*Out, OverAcc(OVars));
  const ir::StmtNode *ReduceRoot = Update->Loops[First];
  // Everything else the accumulator's loops hold must be gone with them.
  for (auto [R, S] : {std::pair<const ir::StmtNode *, const StoreSite *>{InitRoot, Init}, {OutRoot, Out}})
    if (RegionScan::of(borrow(R)).size() != 1)
      fail("the loops around " + text(ir::makeLoad(S->Store->Buf, S->Store->Indices)) +
           " hold other statements");
  if (RegionScan::of(borrow(ReduceRoot)).size() != 1)
    fail("the reduction nest holds other statements than the update");

  class Replace : public ir::IRMutator {
  public:
    std::map<const ir::StmtNode *, Stmt> With;
    const ir::AllocateNode *AccAlloc;
    ir::Buffer Frag;

  protected:
    Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
      auto It = With.find(N);
      return It != With.end() ? It->second : ir::IRMutator::mutateFor(S, N);
    }
    Stmt mutateStore(const Stmt &S, const ir::StoreNode *N) override {
      auto It = With.find(N);
      return It != With.end() ? It->second : ir::IRMutator::mutateStore(S, N);
    }
    Stmt mutateAllocate(const Stmt &S, const ir::AllocateNode *N) override {
      if (N == AccAlloc)
        return ir::makeAllocate(Frag, mutate(N->Body));
      return ir::IRMutator::mutateAllocate(S, N);
    }
  } R;
  R.With = {{InitRoot, Fill}, {ReduceRoot, Reduce}, {OutRoot, Store}};
  R.AccAlloc = Acc;
  R.Frag = Cf;
  Nest.Body = R.mutate(Nest.Body);

  auto Major = [](int64_t L) { return L == ir::WmmaRowMajor ? "row-major" : "column-major"; };
  if (Family == ir::TensorFamily::Wgmma)
    return "a warpgroup computes " + std::to_string(Rw) + " x " + std::to_string(Cw) + " outputs as " +
           std::to_string(TilesR) + " wgmma tiles of " + std::to_string(M) + "x" + std::to_string(N) +
           "x" + std::to_string(K) + "; '" + X->Buf->Name + "' is A, '" + Y->Buf->Name +
           "' B, both k-major in shared memory";
  return "a warp computes " + std::to_string(Rw) + " x " + std::to_string(Cw) + " outputs as " +
         std::to_string(TilesR) + " x " + std::to_string(TilesC) +
         (Family == ir::TensorFamily::Mma ? " mma.sync tiles of " : " wmma tiles of ") +
         std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) + "; '" +
         X->Buf->Name + "' is matrix_a (" + Major(OA.Layout) + "), '" + Y->Buf->Name +
         "' matrix_b (" + Major(OB.Layout) + ")";
}

} // namespace

ir::LoopNest autoTensorCore(const ir::LoopNest &Nest, std::vector<Diag> &Diags, TargetArch Arch) {
  if (Nest.TensorCoreAuto < 0)
    return Nest;
  ir::LoopNest Out = Nest;
  AutoTensorCore(Out, Diags, Arch).run();
  return Out;
}

const Pass AutoTensorCorePass = {
    "AutoTensorCore", /*Requires=*/FormAny, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      S.Nest = autoTensorCore(S.Nest, S.Diags, S.Opts.Arch);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
