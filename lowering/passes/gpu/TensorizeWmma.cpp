//===- TensorizeWmma.cpp - Regions marked tensorize(x, wmma.*) become wmma calls -===//
//
// `tensorize(x, wmma.mma)` marks a loop whose region is a matrix
// multiply-accumulate into a fragment of scope wmma.accumulator from
// fragments of wmma.matrix_a and wmma.matrix_b (cache stages); `wmma.load`
// marks a stage's copy into an operand fragment, `wmma.store` the write-back
// of the accumulator. This pass matches each marked region by meaning, not
// by position, and replaces it with the intrinsics of ir/Intrinsics.h:
//  - mma: the update `F[..] = F[..] + A[..]*B[..]` (casts to F's type
//    allowed) under three innermost loops, one over the tile's rows (it
//    indexes F and A), one over its columns (F and B) and one over the
//    reduction (A and B), in any order; their extents are the shape
//    (16x16x16, 32x8x16 or 8x32x16). An initialisation `F[..] = c` inside
//    the row and column loops, before the reduction loop, becomes a fill.
//    Loops of the region outside those three are loops over whole tiles and
//    stay. The mma decides, for each of its three fragment buffers, which of
//    its dimensions are the tile's rows and columns.
//  - load / store: a copy between a fragment and global or shared memory
//    whose two innermost loops run over the fragment's row and column
//    dimensions (a loop over several whole tiles is split); the memory
//    tile's layout (row- or column-major) and leading dimension come from
//    the memory access, which must span the buffer's last two dimensions.
//    A one-dimensional memory side is refused: no nest the plugin extracts
//    has one beside a usable fragment, since fragments are stages, a stage
//    has its source's rank, and the mma refuses a flat fragment (it needs
//    one dimension for the tile's rows and another for its columns).
//  - Any other store of a constant into an accumulator fragment (the
//    initialisation of a reduction whose loop the schedule moved outward)
//    becomes a fill the same way, without a mark.
// The same matcher serves the mma.sync family (ir::TensorFamily::Mma,
// sm_80+): `tensorize(x, mma.m16n8k16)` marks the computation (the tile
// must be 16x8x16, fp16 into fp32), `mma.load` the operand copies (ldmatrix:
// the memory side must be shared; a global operand is refused with the
// advice to stage it) and `mma.store` the write-back; they emit the mma.*
// calls with the same operands. The compute mark decides each fragment's
// family, and its copies must be marked with the same family.
// A mismatch is an error at the tensorize directive naming the loop or
// access and why. Afterwards no fragment is touched but by an intrinsic,
// and every fragment buffer is reshaped to [tiles..., rows, cols] in the
// logical orientation of its matrix, so that a fragment is a contiguous
// rows*cols block (codegen: fragment number = flat index / (rows*cols)) and
// virtual-thread injection expands it like any buffer.
//
// Runs right after BoundInference (regions and stage shapes are constants
// now) and before VerifyThreadBindings and InjectVirtualThread (which reads
// the intrinsics' operand declarations: contract 1).
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/Affine.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Intrinsics.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <map>
#include <set>

namespace sched {
namespace passes {

namespace {

using ir::Expr;
using ir::Stmt;

bool isFragmentScope(ir::Scope S) {
  return S == ir::Scope::WmmaMatrixA || S == ir::Scope::WmmaMatrixB ||
         S == ir::Scope::WmmaAccumulator;
}

/// The directive names of each family: the computation, the operand loads,
/// the accumulator's write-back.
struct MarkNames {
  const char *Compute, *Load, *Store;
  ir::TensorFamily Family;
};
const MarkNames Families[] = {{"wmma.mma", "wmma.load", "wmma.store", ir::TensorFamily::Wmma},
                              {"mma.m16n8k16", "mma.load", "mma.store", ir::TensorFamily::Mma}};

bool isTensorMark(const std::string &Intrinsic) {
  return Intrinsic.rfind("wmma.", 0) == 0 || Intrinsic.rfind("mma.", 0) == 0;
}

/// What the mma decided about a fragment buffer.
struct Fragment {
  int RowDim = -1, ColDim = -1; // the buffer dimensions of the tile's rows and columns
  int64_t Rows = 0, Cols = 0;
  int64_t M = 0, N = 0, K = 0;
  int64_t Layout = -1; // matrix_a/b: the layout its loads use (-1 until one)
  int Loc = -1;        // the tensorize(.., wmma.mma) that decided it
  ir::TensorFamily Family = ir::TensorFamily::Wmma;
};


/// `for (v, 0, 1) body` around tensor-core calls becomes body[v := 0].
class UnitLoopRemover : public ir::IRMutator {
protected:
  Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
    int64_t Min, Extent;
    if (N->LoopKind == ir::ForKind::Serial && ir::getConstInt(N->Min, Min) &&
        ir::getConstInt(N->Extent, Extent) && Extent == 1 && hasWarpCollective(N->Body, /*LanesOnX=*/true)) {
      std::map<const ir::VarNode *, Expr> Map{{N->LoopVar.get(), N->Min}};
      return mutate(ir::simplify(ir::substitute(N->Body, Map)));
    }
    return ir::IRMutator::mutateFor(S, N);
  }
};

/// A constant (possibly converted): the value of an initialisation.
bool isConstant(const Expr &E) {
  if (const auto *C = ir::as<ir::CastNode>(E))
    return isConstant(C->Value);
  return ir::as<ir::IntImmNode>(E) || ir::as<ir::FloatImmNode>(E);
}

/// A factor of the product: a Load, possibly converted to type T.
const ir::LoadNode *factorLoad(const Expr &E, ir::DType T) {
  if (const auto *C = ir::as<ir::CastNode>(E))
    return C->Type == T ? ir::as<ir::LoadNode>(C->Value) : nullptr;
  return ir::as<ir::LoadNode>(E);
}


std::string loopName(const ir::ForNode *L) { return "'" + L->LoopVar->Name + "'"; }

std::string accessText(const ir::Expr &Load) { return "`" + ir::print(Load) + "`"; }


class Tensorizer {
public:
  Tensorizer(ir::LoopNest &Nest, std::vector<Diag> &Diags) : Nest(Nest), Diags(Diags) {}

  bool run() {
    bool HasFragments = false;
    for (const ir::Access &A : ir::collectAccesses(Nest.Body))
      HasFragments |= isFragmentScope(A.Buf->MemScope);
    bool HasMarks = false;
    for (const ir::TensorizeMark &M : Nest.Tensorize)
      HasMarks |= isTensorMark(M.Intrinsic);
    if (!HasFragments && !HasMarks)
      return true;
    // The mma decides each fragment's tile; loads and stores read that.
    for (int Stage = 0; Stage < 3; ++Stage)
      for (const MarkNames &F : Families)
        for (const ir::TensorizeMark &M : Nest.Tensorize)
          if (M.Intrinsic == (Stage == 0 ? F.Compute : Stage == 1 ? F.Load : F.Store) &&
              !applyMark(M, F))
            return false;
    if (!fills() || !noElementAccess() || !reshape())
      return false;
    // The regions are calls now: their unit loops (a stage's `Af.ax0` over
    // one row of tiles) go, and so do the marks.
    UnitLoopRemover Remover;
    Nest.Body = Remover.mutate(Nest.Body);
    std::vector<ir::TensorizeMark> Rest;
    for (const ir::TensorizeMark &M : Nest.Tensorize)
      if (!isTensorMark(M.Intrinsic))
        Rest.push_back(M);
    Nest.Tensorize = Rest;
    return true;
  }

private:
  ir::LoopNest &Nest;
  std::vector<Diag> &Diags;
  std::map<const ir::BufferNode *, Fragment> Frags;
  std::map<const ir::VarNode *, Expr> Fixed; // one-iteration loops around the current region

  bool error(int Loc, const std::string &Message) {
    Diag D;
    D.Loc = Loc;
    D.Message = Message;
    Diags.push_back(D);
    return false;
  }

  void replace(const ir::ForNode *Old, const Stmt &New) {
    Nest.Body = replaceLoop(Nest.Body, Old, New);
  }

  bool applyMark(const ir::TensorizeMark &M, const MarkNames &Names) {
    std::vector<const ir::ForNode *> Around;
    const ir::ForNode *X = findLoop(Nest.Body, M.Loop.get(), &Around);
    // Loops of one iteration around the region are constants: a tile start
    // `kk*16` under `for (kk, 0, 1)` is 0 (alignment checks).
    Fixed.clear();
    for (const ir::ForNode *L : Around) {
      int64_t E;
      if (ir::getConstInt(L->Extent, E) && E == 1)
        Fixed[L->LoopVar.get()] = L->Min;
    }
    std::string Directive = "tensorize(" + M.Loop->Name + ", " + M.Intrinsic + ")";
    if (!X)
      return error(M.Loc, Directive + ": loop '" + M.Loop->Name +
                              "' is no longer in the kernel (another tensorize replaced it)");
    RegionScan Scan;
    Scan.visit(borrow(X));
    if (Scan.BoundLoop)
      return error(M.Loc, Directive + ": loop " + loopName(Scan.BoundLoop) + " is bound to " +
                              Scan.BoundLoop->ThreadTag +
                              "; a tensor-core operation is executed by a whole warp, so no "
                              "loop inside its region may be bound to a thread");
    if (!Scan.Others.empty())
      return error(M.Loc, Directive + ": the region holds `" +
                              stmtText(Scan.Others[0]) +
                              "`, which is no part of a tile operation");
    if (M.Intrinsic == Names.Compute)
      return matchMma(X, Scan, Names.Family, M.Loc, Directive);
    if (Scan.Stores.size() != 1)
      return error(M.Loc, Directive + ": the region holds " + std::to_string(Scan.Stores.size()) +
                              " stores; a tile copy is exactly one");
    return matchCopy(X, Scan.Stores[0], M.Intrinsic == Names.Store, Names.Family, M.Loc,
                     Directive);
  }

  //===--------------------------------------------------------------------===//
  // mma
  //===--------------------------------------------------------------------===//

  /// The update `F[f] = F[f] + a*b`: its operands (A the one indexed like
  /// the rows of F). False when Site is no update.
  static bool asUpdate(const StoreSite &Site, const ir::LoadNode *&A, const ir::LoadNode *&B) {
    const ir::StoreNode *St = Site.Store;
    if (St->Buf->MemScope != ir::Scope::WmmaAccumulator)
      return false;
    const auto *Add = ir::as<ir::BinaryNode>(St->Value);
    if (!Add || Add->Op != ir::BinOp::Add)
      return false;
    Expr Self = Add->A, Product = Add->B;
    auto IsSelf = [&](const Expr &E) {
      const auto *L = ir::as<ir::LoadNode>(E);
      if (!L || L->Buf != St->Buf || L->Indices.size() != St->Indices.size())
        return false;
      for (size_t D = 0; D < L->Indices.size(); ++D)
        if (!ir::structurallyEqual(L->Indices[D], St->Indices[D]))
          return false;
      return true;
    };
    if (!IsSelf(Self))
      std::swap(Self, Product);
    const auto *Mul = ir::as<ir::BinaryNode>(Product);
    if (!IsSelf(Self) || !Mul || Mul->Op != ir::BinOp::Mul)
      return false;
    A = factorLoad(Mul->A, St->Buf->Type);
    B = factorLoad(Mul->B, St->Buf->Type);
    if (!A || !B)
      return false;
    if (A->Buf->MemScope == ir::Scope::WmmaMatrixB)
      std::swap(A, B);
    return A->Buf->MemScope == ir::Scope::WmmaMatrixA && B->Buf->MemScope == ir::Scope::WmmaMatrixB;
  }

  /// Which dimensions of Indices use V, and whether each use is `V + rest`.
  static std::vector<int> dimsUsing(const std::vector<Expr> &Indices, const ir::VarNode *V,
                                    bool &UnitCoefficient,
                                    const std::set<const ir::VarNode *> &RegionVars) {
    std::vector<int> Dims;
    UnitCoefficient = true;
    for (size_t D = 0; D < Indices.size(); ++D) {
      if (!ir::usesVar(Indices[D], V))
        continue;
      Dims.push_back(static_cast<int>(D));
      ir::AffineForm F;
      int64_t C;
      if (!ir::toAffine(Indices[D], [&](const ir::VarNode *U) { return RegionVars.count(U) != 0; },
                        F) ||
          !F.Coefs.count(V) || !ir::getConstInt(F.Coefs[V], C) || C != 1)
        UnitCoefficient = false;
    }
    return Dims;
  }

  /// Records (or checks against what an earlier mma decided) a fragment.
  bool recordFragment(const ir::LoadNode *L, int RowDim, int ColDim, int64_t M, int64_t N,
                      int64_t K, ir::TensorFamily Family, int Loc, const std::string &Directive) {
    Fragment F;
    F.Family = Family;
    F.RowDim = RowDim;
    F.ColDim = ColDim;
    F.M = M;
    F.N = N;
    F.K = K;
    ir::wmmaFragmentShape(L->Buf->MemScope, M, N, K, F.Rows, F.Cols);
    F.Loc = Loc;
    auto [It, Inserted] = Frags.emplace(L->Buf.get(), F);
    const Fragment &Old = It->second;
    if (!Inserted && (Old.RowDim != RowDim || Old.ColDim != ColDim || Old.M != M ||
                      Old.N != N || Old.K != K || Old.Family != Family))
      return error(Loc, Directive + ": '" + L->Buf->Name +
                            "' is used with another tile shape, orientation or instruction by an "
                            "earlier tensorized multiply-accumulate");
    return true;
  }

  bool matchMma(const ir::ForNode *X, const RegionScan &Scan, ir::TensorFamily Family, int Loc,
                const std::string &Directive) {
    bool Sync = Family == ir::TensorFamily::Mma;
    const StoreSite *Update = nullptr, *Init = nullptr;
    const ir::LoadNode *A = nullptr, *B = nullptr;
    for (const StoreSite &Site : Scan.Stores) {
      const ir::LoadNode *SA, *SB;
      if (asUpdate(Site, SA, SB) && !Update) {
        Update = &Site;
        A = SA;
        B = SB;
      } else if (Site.Store->Buf->MemScope == ir::Scope::WmmaAccumulator &&
                 isConstant(Site.Store->Value) && !Init) {
        Init = &Site;
      } else {
        return error(Loc, Directive + ": `" +
                              stmtText(Site.Store) +
                              "` is not the update `F[..] = F[..] + A[..]*B[..]` of an "
                              "accumulator fragment F from fragments A (wmma.matrix_a) and B "
                              "(wmma.matrix_b)");
      }
    }
    if (!Update)
      return error(Loc, Directive + ": the region holds no multiply-accumulate into a "
                                    "wmma.accumulator fragment");
    const ir::StoreNode *U = Update->Store;
    if (Update->Guard || (Init && Init->Guard))
      return error(Loc, Directive + ": the update is guarded by `" +
                            ir::print(Update->Guard ? Update->Guard : Init->Guard) +
                            "`, so a tile may be partial; make the loops divide the tile");
    if (Init && Init->Store->Buf != U->Buf)
      return error(Loc, Directive + ": the region initialises another fragment than it updates");
    // Types: fp16 -> fp32, int8/uint8 -> int32.
    ir::DType In = A->Buf->Type, Acc = U->Buf->Type;
    bool TypesOk = In == B->Buf->Type &&
                   ((In == ir::DType::Float16 && Acc == ir::DType::Float32) ||
                    ((In == ir::DType::Int8 || In == ir::DType::UInt8) && Acc == ir::DType::Int32));
    if (!TypesOk || (Sync && In != ir::DType::Float16))
      return error(Loc, Directive + ": operands " + std::string(ir::dtypeName(A->Buf->Type)) +
                            " and " + ir::dtypeName(B->Buf->Type) + " accumulated in " +
                            ir::dtypeName(Acc) +
                            (Sync ? "; mma.m16n8k16 multiplies float16 into float32"
                                  : "; wmma multiplies float16 into float32 or int8/uint8 into "
                                    "int32"));
    // The three innermost loops: rows, columns, reduction.
    const std::vector<const ir::ForNode *> &Loops = Update->Loops;
    if (Loops.size() < 3)
      return error(Loc, Directive + ": the region has " + std::to_string(Loops.size()) +
                            " loops around the update; a tile needs one over its rows, one over "
                            "its columns and one over the reduction");
    std::set<const ir::VarNode *> RegionVars;
    for (const ir::ForNode *L : Loops)
      RegionVars.insert(L->LoopVar.get());
    const ir::ForNode *RowL = nullptr, *ColL = nullptr, *RedL = nullptr;
    for (size_t I = Loops.size() - 3; I < Loops.size(); ++I) {
      const ir::VarNode *V = Loops[I]->LoopVar.get();
      bool InF = ir::usesVar(makeLoadExpr(U), V), InA = usesLoad(A, V), InB = usesLoad(B, V);
      const ir::ForNode *&Slot = InF && InA && !InB   ? RowL
                                 : InF && InB && !InA ? ColL
                                 : InA && InB && !InF ? RedL
                                                      : Unmatched;
      if (&Slot == &Unmatched || Slot)
        return error(Loc, Directive + ": loop " + loopName(Loops[I]) +
                              " is one of the three innermost loops of the update but indexes " +
                              describeUse(InF, InA, InB) +
                              "; they must run over the tile's rows (the output and A), its "
                              "columns (the output and B) and the reduction (A and B)");
      Slot = Loops[I];
    }
    // Extents: the shape.
    int64_t M, N, K;
    if (!ir::getConstInt(RowL->Extent, M) || !ir::getConstInt(ColL->Extent, N) ||
        !ir::getConstInt(RedL->Extent, K))
      return error(Loc, Directive + ": the tile loops " + loopName(RowL) + ", " + loopName(ColL) +
                            " and " + loopName(RedL) + " must have constant extents");
    bool ShapeOk = Sync ? ir::isMmaSyncShape(M, N, K)
                        : (M == 16 && N == 16 && K == 16) || (M == 32 && N == 8 && K == 16) ||
                              (M == 8 && N == 32 && K == 16);
    if (!ShapeOk)
      return error(Loc, Directive + ": the tile is " + std::to_string(M) + " x " +
                            std::to_string(N) + " x " + std::to_string(K) + " (loops " +
                            loopName(RowL) + ", " + loopName(ColL) + ", " + loopName(RedL) +
                            (Sync ? "); mma.m16n8k16 needs 16x8x16"
                                  : "); wmma supports 16x16x16, 32x8x16 and 8x32x16"));
    // Each tile loop indexes exactly one dimension of each buffer, as `v + ...`.
    int Dims[3][2]; // [F, A, B][row, col]
    struct Use {
      const ir::LoadNode *Buf;
      int Which;
      const ir::ForNode *Row, *Col;
    };
    ir::Expr UpdateLoad = makeLoadExpr(U);
    const ir::LoadNode *F = ir::as<ir::LoadNode>(UpdateLoad);
    for (const Use &Uu : {Use{F, 0, RowL, ColL}, Use{A, 1, RowL, RedL}, Use{B, 2, RedL, ColL}}) {
      for (int RC = 0; RC < 2; ++RC) {
        const ir::ForNode *L = RC == 0 ? Uu.Row : Uu.Col;
        bool Unit;
        std::vector<int> D = dimsUsing(Uu.Buf->Indices, L->LoopVar.get(), Unit, RegionVars);
        if (D.size() != 1 || !Unit)
          return error(Loc, Directive + ": loop " + loopName(L) + " must index one dimension of " +
                                accessText(borrow(Uu.Buf)) +
                                " as `" + L->LoopVar->Name + " + ...`");
        Dims[Uu.Which][RC] = D[0];
      }
    }
    // The loop structure: the tile loops innermost and perfectly nested,
    // but for the initialisation between the row/column loops and the
    // reduction loop.
    const ir::ForNode *Outer = Loops[Loops.size() - 3], *Middle = Loops[Loops.size() - 2],
                      *Inner = Loops[Loops.size() - 1];
    bool InitPlaced = true;
    if (Init) {
      InitPlaced = Inner == RedL && Init->Loops.size() == Loops.size() - 1 &&
                   Init->Loops.back() == Middle;
      const auto *Body = ir::as<ir::SeqNode>(Middle->Body);
      InitPlaced = InitPlaced && Body && Body->Stmts.size() == 2 &&
                   Body->Stmts[0].get() == Init->Store && Body->Stmts[1].get() == Inner &&
                   Outer->Body.get() == Middle;
    } else {
      InitPlaced = Outer->Body.get() == Middle && Middle->Body.get() == Inner;
    }
    if (!InitPlaced || Inner->Body.get() != U)
      return error(Loc, Directive + ": the loops " + loopName(Outer) + ", " + loopName(Middle) +
                            " and " + loopName(Inner) +
                            " must nest perfectly around the update (an initialisation may "
                            "stand before the reduction loop)");
    if (!recordFragment(F, Dims[0][0], Dims[0][1], M, N, K, Family, Loc, Directive) ||
        !recordFragment(A, Dims[1][0], Dims[1][1], M, N, K, Family, Loc, Directive) ||
        !recordFragment(B, Dims[2][0], Dims[2][1], M, N, K, Family, Loc, Directive))
      return false;
    std::map<const ir::VarNode *, Expr> Zero;
    for (const ir::ForNode *L : {RowL, ColL, RedL})
      Zero[L->LoopVar.get()] = ir::makeInt(0, L->LoopVar->Type);
    auto Base = [&](const ir::LoadNode *L) { return ir::simplify(ir::substitute(makeLoadOf(L), Zero)); };
    std::vector<Stmt> Calls;
    if (Init)
      Calls.push_back(ir::makeEvaluate(ir::makeWmmaCall(
          ir::WmmaOp::Fill, {Base(F), ir::simplify(ir::makeCast(Acc, Init->Store->Value))}, M, N, K,
          Family)));
    Calls.push_back(ir::makeEvaluate(ir::makeWmmaCall(
        ir::WmmaOp::Mma, {Base(F), Base(A), Base(B), Base(F)}, M, N, K, Family)));
    replace(Outer, ir::makeSeq(Calls));
    (void)X;
    return true;
  }

  const ir::ForNode *Unmatched = nullptr;

  static Expr makeLoadExpr(const ir::StoreNode *S) { return ir::makeLoad(S->Buf, S->Indices); }
  static Expr makeLoadOf(const ir::LoadNode *L) { return ir::makeLoad(L->Buf, L->Indices); }
  static bool usesLoad(const ir::LoadNode *L, const ir::VarNode *V) {
    return ir::usesVar(makeLoadOf(L), V);
  }
  static std::string describeUse(bool F, bool A, bool B) {
    std::vector<std::string> Parts;
    if (F)
      Parts.push_back("the output");
    if (A)
      Parts.push_back("A");
    if (B)
      Parts.push_back("B");
    if (Parts.empty())
      return "none of the output, A and B";
    std::string Out = Parts[0];
    for (size_t I = 1; I < Parts.size(); ++I)
      Out += (I + 1 == Parts.size() ? " and " : ", ") + Parts[I];
    return Out;
  }

  //===--------------------------------------------------------------------===//
  // load, store, fill
  //===--------------------------------------------------------------------===//

  /// A copy between a fragment and memory (or a constant into an
  /// accumulator: a fill) whose innermost two loops run over the tile.
  bool matchCopy(const ir::ForNode *X, const StoreSite &Site, bool IsStore,
                 ir::TensorFamily Family, int Loc, const std::string &Directive) {
    const ir::StoreNode *St = Site.Store;
    const ir::LoadNode *Frag = nullptr, *Mem = nullptr;
    bool IsFill = false;
    if (IsStore) {
      Frag = ir::as<ir::LoadNode>(St->Value);
      if (!Frag || Frag->Buf->MemScope != ir::Scope::WmmaAccumulator ||
          isFragmentScope(St->Buf->MemScope))
        return error(Loc, Directive + ": `" + stmtText(St) +
                              "` does not copy an accumulator fragment to memory");
    } else if (isFragmentScope(St->Buf->MemScope) && isConstant(St->Value) &&
               St->Buf->MemScope == ir::Scope::WmmaAccumulator) {
      IsFill = true;
    } else {
      Mem = ir::as<ir::LoadNode>(St->Value);
      if (!isFragmentScope(St->Buf->MemScope) || !Mem || isFragmentScope(Mem->Buf->MemScope))
        return error(Loc, Directive + ": `" + stmtText(St) +
                              "` does not copy memory into a fragment");
    }
    Expr FragExpr = IsStore ? makeLoadOf(Frag) : makeLoadExpr(St);
    const auto *FragLoad = ir::as<ir::LoadNode>(FragExpr);
    Expr MemExpr = IsStore ? makeLoadExpr(St) : IsFill ? Expr() : makeLoadOf(Mem);
    const ir::LoadNode *MemLoad = MemExpr ? ir::as<ir::LoadNode>(MemExpr) : nullptr;
    auto FI = Frags.find(FragLoad->Buf.get());
    if (FI == Frags.end())
      return error(Loc, Directive + ": no tensorized wmma.mma uses '" + FragLoad->Buf->Name +
                            "' (tensorize the computation with wmma.mma first)");
    Fragment &F = FI->second;
    const MarkNames &Want = Families[static_cast<int>(F.Family)];
    if (F.Family != Family)
      return error(Loc, Directive + ": '" + FragLoad->Buf->Name + "' is an operand of " +
                            Want.Compute + "; tensorize its copy with " +
                            (IsStore ? Want.Store : Want.Load));
    if (MemLoad && !IsStore && Family == ir::TensorFamily::Mma &&
        MemLoad->Buf->MemScope != ir::Scope::Shared)
      return error(Loc, Directive + ": " + accessText(MemExpr) + " is in " +
                            ir::scopeName(MemLoad->Buf->MemScope) +
                            " memory; mma.load is ldmatrix, which reads shared memory only: stage '" +
                            MemLoad->Buf->Name + "' in shared memory (cache_read(" +
                            MemLoad->Buf->Name + ", shared, ...)) and load the fragment from there");
    if (Site.Guard)
      return error(Loc, Directive + ": the copy is guarded by `" + ir::print(Site.Guard) +
                            "`, so a tile may be partial");
    if (MemLoad && MemLoad->Buf->Type != FragLoad->Buf->Type)
      return error(Loc, Directive + ": " + accessText(MemExpr) + " is " +
                            ir::dtypeName(MemLoad->Buf->Type) + " but the fragment is " +
                            ir::dtypeName(FragLoad->Buf->Type) +
                            "; a tile is copied without conversion");
    // The region is a perfect nest from X down to the copy; among its loops,
    // one runs over the tile's rows (it indexes F's row dimension as `r +
    // ...`) and one over its columns; the others (over whole tiles, or
    // unused) stay, in their order, around the call. The copy writes each
    // element once, so its loops may run in any order.
    std::vector<const ir::ForNode *> Loops;
    for (size_t I = 0; I < Site.Loops.size(); ++I)
      if (Site.Loops[I] == X)
        Loops.assign(Site.Loops.begin() + I, Site.Loops.end());
    std::set<const ir::VarNode *> RegionVars;
    for (const ir::ForNode *L : Loops)
      RegionVars.insert(L->LoopVar.get());
    const ir::ForNode *RowL = nullptr, *ColL = nullptr;
    for (size_t I = 0; I < Loops.size(); ++I) {
      const ir::ForNode *L = Loops[I];
      const ir::StmtNode *Next = I + 1 < Loops.size() ? static_cast<const ir::StmtNode *>(Loops[I + 1])
                                                      : St;
      if (L->Body.get() != Next)
        return error(Loc, Directive + ": loop " + loopName(L) +
                              " holds more than the copy; the region must be a perfect nest of "
                              "loops around it");
      if (L->LoopKind != ir::ForKind::Serial)
        return error(Loc, Directive + ": loop " + loopName(L) + " is " +
                              (L->LoopKind == ir::ForKind::ThreadBound ? "bound to " + L->ThreadTag
                                                                       : std::string("unrolled or vectorized")) +
                              "; the loops of a tensorized region stay serial");
      bool Unit;
      std::vector<int> D = dimsUsing(FragLoad->Indices, L->LoopVar.get(), Unit, RegionVars);
      if (D.size() == 1 && Unit && D[0] == F.RowDim && !RowL)
        RowL = L;
      else if (D.size() == 1 && Unit && D[0] == F.ColDim && !ColL)
        ColL = L;
    }
    if (!RowL || !ColL)
      return error(Loc, Directive + ": no loop of the region runs over the " +
                            (RowL ? "columns" : "rows") + " of the tile in " +
                            accessText(FragExpr) + " one element at a time");
    int64_t RowExt, ColExt;
    if (!ir::getConstInt(RowL->Extent, RowExt) || !ir::getConstInt(ColL->Extent, ColExt) ||
        RowExt % F.Rows != 0 || ColExt % F.Cols != 0)
      return error(Loc, Directive + ": loops " + loopName(RowL) + " and " + loopName(ColL) +
                            " copy " + ir::print(RowL->Extent) + " x " + ir::print(ColL->Extent) +
                            " elements of " + accessText(FragExpr) + ", not whole " +
                            std::to_string(F.Rows) + " x " + std::to_string(F.Cols) + " tiles");
    // The memory side: layout and leading dimension.
    int64_t Layout = ir::WmmaRowMajor;
    Expr Ld;
    if (MemLoad && !memoryLayout(MemLoad, RowL->LoopVar.get(), ColL->LoopVar.get(), RegionVars,
                                 Layout, Ld))
      return error(Loc, Directive + ": " + accessText(MemExpr) +
                            " must run over the tile's rows and columns along its last two "
                            "dimensions, one element apart along one of them (loops " +
                            loopName(RowL) + " and " + loopName(ColL) + ")");
    ir::Scope Sc = FragLoad->Buf->MemScope;
    if (!IsStore && !IsFill && Sc != ir::Scope::WmmaAccumulator) {
      if (F.Layout >= 0 && F.Layout != Layout)
        return error(Loc, Directive + ": '" + FragLoad->Buf->Name + "' is loaded " +
                              (Layout == ir::WmmaRowMajor ? "row" : "column") +
                              "-major here but the other way elsewhere; a fragment has one "
                              "layout");
      F.Layout = Layout;
    }
    // Whole tiles: loops over the tile numbers around one call.
    std::map<const ir::VarNode *, Expr> TileStart;
    std::vector<std::pair<ir::Var, int64_t>> TileLoops;
    for (auto [L, Ext, Size] : {std::make_tuple(RowL, RowExt, F.Rows),
                                std::make_tuple(ColL, ColExt, F.Cols)}) {
      Expr Start = ir::makeInt(0, L->LoopVar->Type);
      if (Ext > Size) {
        ir::Var T = ir::makeVar(L->LoopVar->Name + ".tile", L->LoopVar->Type);
        TileLoops.push_back({T, Ext / Size});
        Start = ir::Expr(T) * ir::makeInt(Size, L->LoopVar->Type);
      }
      TileStart[L->LoopVar.get()] = Start;
    }
    auto Base = [&](const Expr &E) { return ir::simplify(ir::substitute(E, TileStart)); };
    Expr Call;
    if (IsFill)
      Call = ir::makeWmmaCall(ir::WmmaOp::Fill,
                              {Base(FragExpr), ir::simplify(ir::makeCast(FragLoad->Buf->Type, St->Value))},
                              F.M, F.N, F.K, F.Family);
    else if (IsStore)
      Call = ir::makeWmmaCall(ir::WmmaOp::Store,
                              {Base(MemExpr), Base(FragExpr), Ld, ir::makeInt(Layout)}, F.M, F.N, F.K,
                              F.Family);
    else
      Call = ir::makeWmmaCall(Sc == ir::Scope::WmmaMatrixA   ? ir::WmmaOp::LoadA
                              : Sc == ir::Scope::WmmaMatrixB ? ir::WmmaOp::LoadB
                                                             : ir::WmmaOp::LoadC,
                              {Base(FragExpr), Base(MemExpr), Ld, ir::makeInt(Layout)}, F.M, F.N,
                              F.K, F.Family);
    // What the hardware needs of the memory tile (ir::tileStartAlignment),
    // checked here: a GPU does not say, it computes garbage.
    if (MemLoad) {
      ir::WmmaCall Decoded;
      ir::decodeWmma(ir::as<ir::CallNode>(Call), Decoded);
      int64_t Bytes = ir::dtypeBytes(MemLoad->Buf->Type);
      int64_t StartAlign = ir::tileStartAlignment(F.Family, Decoded.Op);
      Expr Start = ir::simplify(ir::substitute(Base(MemExpr), Fixed));
      if (!provablyAligned(ir::as<ir::LoadNode>(Start), StartAlign))
        return error(Loc, Directive + ": the tile at " + accessText(Base(MemExpr)) + " is not " +
                              "provably " + std::to_string(StartAlign) + "-byte aligned (" +
                              (F.Family == ir::TensorFamily::Wmma
                                   ? "a wmma pointer must be 256-bit aligned"
                                   : "ldmatrix reads 16-byte rows") +
                              "); tile starts and row lengths must keep it");
      int64_t Rows, Cols, LdValue;
      ir::wmmaFragmentShape(Sc, F.M, F.N, F.K, Rows, Cols);
      int64_t StrideAlign =
          ir::tileStrideAlignment(F.Family, Decoded.Op, Sc, MemLoad->Buf->Type, Rows, Cols);
      if (!ir::getConstInt(ir::simplify(Ld), LdValue) || (LdValue * Bytes) % StrideAlign != 0)
        return error(Loc, Directive + ": the rows of " + accessText(MemExpr) + " are " +
                              ir::print(Ld) + " elements apart; the tile needs a multiple of " +
                              std::to_string(StrideAlign) +
                              " bytes (pad the array, or its shared stage with storage_align)");
    }
    Stmt Out = ir::makeEvaluate(Call);
    for (size_t I = TileLoops.size(); I-- > 0;)
      Out = ir::makeFor(TileLoops[I].first, ir::makeInt(0, TileLoops[I].first->Type),
                        ir::makeInt(TileLoops[I].second, TileLoops[I].first->Type), Out);
    for (size_t I = Loops.size(); I-- > 0;)
      if (Loops[I] != RowL && Loops[I] != ColL)
        Out = ir::withBody(Loops[I], Out);
    replace(X, Out);
    return true;
  }

  /// The layout and leading dimension of a memory tile: along its last two
  /// dimensions (row-major when the columns run along the last).
  static bool memoryLayout(const ir::LoadNode *Mem, const ir::VarNode *Row, const ir::VarNode *Col,
                           const std::set<const ir::VarNode *> &RegionVars, int64_t &Layout,
                           Expr &Ld) {
    size_t Rank = Mem->Indices.size();
    bool RowUnit, ColUnit;
    std::vector<int> RD = dimsUsing(Mem->Indices, Row, RowUnit, RegionVars);
    std::vector<int> CD = dimsUsing(Mem->Indices, Col, ColUnit, RegionVars);
    if (Rank < 2 || RD.size() != 1 || CD.size() != 1 || !RowUnit || !ColUnit)
      return false;
    int Last = static_cast<int>(Rank) - 1;
    if (RD[0] == Last - 1 && CD[0] == Last)
      Layout = ir::WmmaRowMajor;
    else if (RD[0] == Last && CD[0] == Last - 1)
      Layout = ir::WmmaColMajor;
    else
      return false;
    Ld = ir::simplify(Mem->Buf->Shape.back());
    return true;
  }

  /// Stores of a constant into an accumulator fragment that no mark
  /// covered: each becomes a fill.
  bool fills() {
    for (;;) {
      RegionScan Scan;
      Scan.visit(Nest.Body);
      const StoreSite *Found = nullptr;
      for (const StoreSite &Site : Scan.Stores)
        if (Site.Store->Buf->MemScope == ir::Scope::WmmaAccumulator &&
            isConstant(Site.Store->Value) && Frags.count(Site.Store->Buf.get())) {
          Found = &Site;
          break;
        }
      if (!Found)
        return true;
      int Loc = Frags[Found->Store->Buf.get()].Loc;
      std::string What = "the initialisation `" +
                         stmtText(Found->Store) + "`";
      // The fill's region: the perfect nest of loops around it that index
      // the fragment.
      const ir::ForNode *Root = nullptr;
      const ir::StmtNode *Inner = Found->Store;
      for (size_t I = Found->Loops.size(); I-- > 0;) {
        const ir::ForNode *L = Found->Loops[I];
        if (L->Body.get() != Inner || !ir::usesVar(makeLoadExpr(Found->Store), L->LoopVar.get()))
          break;
        Root = L;
        Inner = L;
      }
      if (!Root)
        return error(Loc, What + " of the accumulator fragment sets single elements; it must "
                                 "run over whole tiles to become a fill");
      if (!matchCopy(Root, *Found, false, Frags[Found->Store->Buf.get()].Family, Loc, What))
        return false;
    }
  }

  /// No load or store of a fragment is left but an intrinsic's operand.
  bool noElementAccess() {
    for (const ir::Access &A : ir::collectAccesses(Nest.Body)) {
      if (!isFragmentScope(A.Buf->MemScope) || !A.Statement ||
          A.Statement->Kind != ir::StmtKind::Store)
        continue;
      auto FI = Frags.find(A.Buf.get());
      std::string Hint =
          A.Buf->MemScope == ir::Scope::WmmaAccumulator
              ? (A.IsWrite ? "tensorize its computation with wmma.mma" : "tensorize its write-back with wmma.store")
              : "tensorize its copy loop with wmma.load";
      return error(FI == Frags.end() ? -1 : FI->second.Loc,
                   "'" + A.Buf->Name + "' (" + ir::scopeName(A.Buf->MemScope) +
                       ") is a tensor-core fragment, but `" +
                       stmtText(A.Statement) +
                       "` touches it element by element: " + Hint);
    }
    return true;
  }

  /// Every fragment buffer becomes [other dims..., row tiles, column tiles,
  /// rows, cols].
  bool reshape() {
    class Allocs : public ir::IRVisitor {
    public:
      std::vector<ir::Buffer> Bufs;

    protected:
      void visitAllocate(const ir::AllocateNode *N) override {
        if (isFragmentScope(N->Buf->MemScope))
          Bufs.push_back(N->Buf);
        ir::IRVisitor::visitAllocate(N);
      }
    } Found;
    Found.visit(Nest.Body);
    for (const ir::Buffer &Buf : Found.Bufs) {
      // A fragment no mark matched is touched by intrinsics already (checked
      // above): a kernel written with them, as it is.
      auto FI = Frags.find(Buf.get());
      if (FI == Frags.end())
        continue;
      const Fragment &F = FI->second;
      std::vector<Expr> Shape;
      int64_t RowExt, ColExt;
      if (!ir::getConstInt(ir::simplify(Buf->Shape[F.RowDim]), RowExt) ||
          !ir::getConstInt(ir::simplify(Buf->Shape[F.ColDim]), ColExt) || RowExt % F.Rows ||
          ColExt % F.Cols)
        return error(F.Loc, "'" + Buf->Name + "' holds " + ir::print(Buf->Shape[F.RowDim]) +
                                " x " + ir::print(Buf->Shape[F.ColDim]) + " elements, not whole " +
                                std::to_string(F.Rows) + " x " + std::to_string(F.Cols) + " tiles");
      for (size_t D = 0; D < Buf->Shape.size(); ++D)
        if (int(D) != F.RowDim && int(D) != F.ColDim)
          Shape.push_back(Buf->Shape[D]);
      for (int64_t E : {RowExt / F.Rows, ColExt / F.Cols, F.Rows, F.Cols})
        Shape.push_back(ir::makeInt(E));
      ir::Buffer New = ir::makeBuffer(Buf->Name, Buf->Type, Shape, Buf->MemScope);
      bool Aligned = true;
      std::string Misaligned;
      Nest.Body = ir::remapBuffer(Nest.Body, Buf.get(), New, [&](const std::vector<Expr> &Idx) {
        std::vector<Expr> Out;
        for (size_t D = 0; D < Idx.size(); ++D)
          if (int(D) != F.RowDim && int(D) != F.ColDim)
            Out.push_back(Idx[D]);
        Expr R = Idx[F.RowDim], C = Idx[F.ColDim];
        Expr RQ = divideExactly(R, F.Rows), CQ = divideExactly(C, F.Cols);
        if (!RQ || !CQ) {
          Aligned = false;
          Misaligned = ir::print(R) + ", " + ir::print(C);
          RQ = ir::simplify(R / ir::makeInt(F.Rows, R->Type));
          CQ = ir::simplify(C / ir::makeInt(F.Cols, C->Type));
        }
        Out.push_back(RQ);
        Out.push_back(CQ);
        Out.push_back(ir::makeInt(0, R->Type));
        Out.push_back(ir::makeInt(0, C->Type));
        return Out;
      });
      if (!Aligned)
        return error(F.Loc, "a tile of '" + Buf->Name + "' starts at (" + Misaligned +
                                "), which is not provably a multiple of the " +
                                std::to_string(F.Rows) + " x " + std::to_string(F.Cols) + " tile");
    }
    return true;
  }
};

} // namespace

ir::LoopNest tensorizeWmma(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  ir::LoopNest Out = Nest;
  Tensorizer T(Out, Diags);
  if (!T.run())
    return Nest;
  return Out;
}

const Pass TensorizeWmmaPass = {
    "TensorizeWmma", /*Requires=*/FormAny, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      S.Nest = tensorizeWmma(S.Nest, S.Diags);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
