//===- TensorizeVtaGemm.cpp - tensorize(x, vta.gemm) and acc resets ------===//
//
// What: the region under a loop marked tensorize(x, vta.gemm) becomes one
// vta.uop_gemm(D, A, W) (ir/Vta.h uop form): VTA's GEMM core adds to the 16
// int32 lanes of an accumulator element D the products of a 16-lane int8
// input element A with a 16x16 int8 weight tile W stored [j][k]. Every
// store of 0 into vta.acc over a loop of 16 lanes becomes
// vta.uop_gemm_reset(D) (how the accumulator of a reduction is initialised).
//
// Why by meaning (DESIGN contract 2): TVM's TensorIR blockize drops unit
// loops before it compares the region with the intrinsic, so a batch loop
// of extent 1 makes the 1x16x16 GEMM fail to match. Here the region is read
// through the flat row-major indices of its three accesses: the output lane
// loop j is the loop of extent 16 that moves D by 1, the reduction loop k the
// one of extent 16 that moves A by 1; W must move by 16 along j and 1 along
// k; every other loop of the region must have extent 1 (the batch: present,
// split off, or absent - it is 0 either way); and each access, with the
// region's loops at 0, must start an element (16 scalars of inp and acc,
// 256 of wgt). The order of the loops does not matter. A mismatch is an
// error at the directive that names the loop or access and the rule.
//
// A weight stage read k-major, Wb[k][j] (the stage of a weight W[k*N + j],
// 16 rows of k; its rows may be several indices, Wb[ko][ki][j]), holds the
// tile transposed: it is stored transposed, Wb[j][k], every access moving
// its last index first (the copy's store included:
// InjectVtaDma then finds a tile W holds transposed, which the launcher
// transposes when it repacks W).  A k-major stage of several k blocks would
// hold its tile rows further than 16 apart: an error at the directive, as
// is a [j][k] stage of several k blocks (the stage's layout is the
// weights': a staged row of a row-major W[N][K] holds all of K).
//
// Where: after BoundInference (stage shapes are constant; regions concrete)
// and before InjectVtaAlu/InjectVtaDma; unit loops are still present, as the
// marks name them.
//
//===----------------------------------------------------------------------===//
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "ir/Vta.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

using namespace ir;

namespace {

std::string accessText(const Buffer &Buf, const std::vector<Expr> &Indices) {
  return print(makeLoad(Buf, Indices));
}

/// X of int32(X) (or X itself when it is int32 already): a load.
const LoadNode *operandLoad(const Expr &E) {
  if (const auto *C = as<CastNode>(E))
    return C->Type == DType::Int32 ? as<LoadNode>(C->Value) : nullptr;
  return as<LoadNode>(E);
}

/// The weight stages a GEMM reads k-major, each with its transposed copy
/// (TensorizeVtaGemm stores them so); the stages it reads [j][k].
struct WeightLayouts {
  std::map<const BufferNode *, Buffer> Transposed;
  std::set<const BufferNode *> AsIs;
};

/// A transposed weight stage's indices: the last (j) first.
std::vector<Expr> lastIndexFirst(const std::vector<Expr> &I) {
  std::vector<Expr> Out{I.back()};
  Out.insert(Out.end(), I.begin(), I.end() - 1);
  return Out;
}

class GemmMatcher {
public:
  GemmMatcher(const TensorizeMark &Mark, std::vector<Diag> &Diags, WeightLayouts &Layouts,
              const std::map<const VarNode *, Expr> &UnitLoops)
      : Mark(Mark), Diags(Diags), Layouts(Layouts), UnitLoops(UnitLoops) {}

  /// The uop that replaces the region under L, or null after an error.
  Stmt match(const ForNode *L) {
    StoreNest R = storeNestOf(borrow(L));
    const std::string Where = "tensorize(" + L->LoopVar->Name + ", vta.gemm): ";
    if (R.Other)
      return fail(Where + "the region under '" + L->LoopVar->Name +
                  "' must be the multiply-add alone; it also holds `" + stmtText(R.Other) + "`");
    if (!R.Store)
      return fail(Where + "the region under '" + L->LoopVar->Name + "' stores nothing");
    const StoreNode *St = R.Store;
    // D = D + int32(X) * int32(Y), in either order of the sum and product.
    Expr Term = updateTerm(St);
    const auto *Prod = Term ? as<BinaryNode>(Term) : nullptr;
    const LoadNode *X = Prod && Prod->Op == BinOp::Mul ? operandLoad(Prod->A) : nullptr;
    const LoadNode *Y = Prod && Prod->Op == BinOp::Mul ? operandLoad(Prod->B) : nullptr;
    if (!X || !Y)
      return fail(Where + "`" + stmtText(St) +
                  "` is not an accumulation acc = acc + int32(inp) * int32(wgt)");
    if (St->Buf->MemScope != Scope::VtaAcc || St->Buf->Type != DType::Int32)
      return fail(Where + "the accumulator `" + accessText(St->Buf, St->Indices) +
                  "` must be an int32 buffer in vta.acc (cache_write the output to vta.acc)");
    if (X->Buf->MemScope == Scope::VtaWgt)
      std::swap(X, Y);
    const LoadNode *A = X, *W = Y;
    if (A->Buf->MemScope != Scope::VtaInp)
      return fail(Where + "the input `" + print(borrow(A)) + "` must be in vta.inp (cache_read it to vta.inp)");
    if (W->Buf->MemScope != Scope::VtaWgt)
      return fail(Where + "the weight `" + print(borrow(W)) + "` must be in vta.wgt (cache_read it to vta.wgt)");
    for (const LoadNode *Op : {A, W})
      if (Op->Buf->Type != DType::Int8)
        return fail(Where + "`" + print(borrow(Op)) + "` is " + dtypeName(Op->Buf->Type) +
                    "; VTA multiplies int8 inputs and weights");

    std::set<const VarNode *> Vars;
    for (const ForNode *F : R.Loops)
      Vars.insert(F->LoopVar.get());
    LinearIndex FD, FA, FW;
    if (!linearOf(St->Buf, St->Indices, Vars, FD, Where) ||
        !linearOf(A->Buf, A->Indices, Vars, FA, Where) ||
        !linearOf(W->Buf, W->Indices, Vars, FW, Where))
      return nullptr;

    const ForNode *J = nullptr, *K = nullptr;
    for (const ForNode *F : R.Loops) {
      int64_t Ext;
      if (!getConstInt(F->Extent, Ext))
        return fail(Where + "loop '" + F->LoopVar->Name + "' has no constant extent");
      const VarNode *V = F->LoopVar.get();
      if (Ext == vta::BlockOut && FD.coef(V) == 1 && !J)
        J = F;
      else if (Ext == vta::BlockIn && FA.coef(V) == 1 && FD.coef(V) == 0 && !K)
        K = F;
      else if (Ext != 1)
        return fail(Where + "loop '" + F->LoopVar->Name + "' (extent " + std::to_string(Ext) +
                    ") is not part of VTA's 1x16x16 GEMM: the region must be the 16 outputs "
                    "(the lanes of the accumulator element), the 16-element reduction and a batch "
                    "of 1");
    }
    if (!J)
      return fail(Where + "no loop of extent 16 under '" + L->LoopVar->Name +
                  "' walks the accumulator `" + accessText(St->Buf, St->Indices) +
                  "` contiguously: VTA's GEMM computes 16 outputs (BLOCK_OUT) at once");
    if (!K)
      return fail(Where + "no loop of extent 16 under '" + L->LoopVar->Name +
                  "' walks the input `" + print(borrow(A)) +
                  "` contiguously: VTA's GEMM reduces over 16 elements (BLOCK_IN)");
    const VarNode *JV = J->LoopVar.get(), *KV = K->LoopVar.get();
    if (FA.coef(JV) != 0)
      return fail(Where + "the input `" + print(borrow(A)) + "` depends on the output loop '" +
                  JV->Name + "'");
    // A k-major stage Wb[k][j] (of a weight W[k*N + j]) holds the tile
    // transposed: stored Wb'[j][k] instead, it is the tile VTA reads (the
    // launcher transposes the tiles of W for its DMA, InjectVtaDma).
    Buffer WT = transposedWeight(W, JV, KV, Vars);
    if (!WT && !Failed && FW.coef(KV) == 1 && FW.coef(JV) > vta::BlockIn &&
        FW.coef(JV) % vta::BlockIn == 0)
      return fail(Where + "the weight stage " + W->Buf->Name + " holds " +
                  std::to_string(FW.coef(JV)) + " k in a row (several blocks of 16): the rows of "
                  "a tile `" + print(borrow(W)) + "` are " + std::to_string(FW.coef(JV)) +
                  " apart in it, and VTA reads a weight tile as 256 contiguous bytes, [j][k]; "
                  "compute the stage at the loop of the k blocks, or store the weights tile by "
                  "tile ([N/16][K/16][16][16])");
    if (!WT && !Failed && (FW.coef(JV) != vta::BlockIn || FW.coef(KV) != 1))
      return fail(Where + "the weight `" + print(borrow(W)) + "` must hold row '" + JV->Name +
                  "' 16 elements apart and '" + KV->Name +
                  "' contiguous: VTA reads a weight tile as 16x16 bytes, [j][k] with k fastest");
    if (Failed)
      return nullptr;
    if (WT ? Layouts.AsIs.count(W->Buf.get()) : Layouts.Transposed.count(W->Buf.get()))
      return fail(Where + "the weight stage " + W->Buf->Name +
                  " is read k-major by one GEMM and [j][k] by another; it has one layout");
    if (WT)
      Layouts.Transposed[W->Buf.get()] = WT;
    else
      Layouts.AsIs.insert(W->Buf.get());
    // Every access, with the region's loops at 0, starts an element.
    // (Loops of one iteration around the region at their value: a k of one
    // block, ko = 0, in a weight stage of all k.)
    std::map<const VarNode *, Expr> Zero = UnitLoops;
    for (const ForNode *F : R.Loops)
      Zero[F->LoopVar.get()] = makeInt(0);
    struct Operand {
      Buffer Buf;
      const std::vector<Expr> *Indices;
    };
    std::vector<Expr> Starts;
    for (const Operand &O : {Operand{St->Buf, &St->Indices}, Operand{A->Buf, &A->Indices},
                             Operand{W->Buf, &W->Indices}}) {
      std::vector<Expr> Idx;
      for (const Expr &E : *O.Indices)
        Idx.push_back(simplify(substitute(E, Zero)));
      Expr Start = makeLoad(O.Buf, Idx), Elem;
      // A transposed stage's element starts where its copy's does.
      Expr Stored = O.Buf == W->Buf && WT ? makeLoad(WT, lastIndexFirst(Idx)) : Start;
      std::string Why;
      if (!vtaElementIndex(as<LoadNode>(Stored), Elem, Why))
        return fail(Where + "`" + accessText(O.Buf, *O.Indices) +
                    "` does not start a VTA element: its first scalar must be a multiple of " +
                    std::to_string(vtaElementLanes(O.Buf->MemScope)) + " in " + O.Buf->Name);
      Starts.push_back(Start);
    }
    return makeEvaluate(makeCall("vta.uop_gemm", Starts, DType::Int32));
  }

private:
  const TensorizeMark &Mark;
  std::vector<Diag> &Diags;
  WeightLayouts &Layouts;
  const std::map<const VarNode *, Expr> &UnitLoops;
  bool Failed = false;

  Stmt fail(const std::string &Message) {
    Diag D;
    D.Loc = Mark.Loc;
    D.Message = Message;
    Diags.push_back(D);
    Failed = true;
    return nullptr;
  }

  /// W's stage transposed, [C][R...] for its [R...][C], when W reads it
  /// k-major: its last index walks the outputs J (coefficient 1), the
  /// others (their flat index: the rows) the reduction K, and its rows are
  /// one block of k (16), so that stored [j][k] a tile's rows are 16 apart.
  /// Null otherwise (and an error when only the block of k is wrong).
  Buffer transposedWeight(const LoadNode *W, const VarNode *JV, const VarNode *KV,
                          const std::set<const VarNode *> &Vars) {
    const Buffer &B = W->Buf;
    const size_t Last = B->Shape.size() - 1;
    if (B->Shape.size() < 2)
      return nullptr;
    std::vector<Expr> RowShape(B->Shape.begin(), B->Shape.begin() + Last);
    std::vector<Expr> RowIdx(W->Indices.begin(), W->Indices.begin() + Last);
    LinearIndex Row, Col;
    int64_t Rows = 1, Extent;
    for (const Expr &E : RowShape)
      Rows = getConstInt(simplify(E), Extent) && Rows > 0 ? Rows * Extent : -1;
    if (Rows < 0 || !linearIn(flatIndex(RowShape, RowIdx), Vars, Row) ||
        !linearIn(W->Indices[Last], Vars, Col) || Row.coef(KV) != 1 || Row.coef(JV) != 0 ||
        Col.coef(JV) != 1 || Col.coef(KV) != 0)
      return nullptr;
    if (Rows != vta::BlockIn) {
      fail("tensorize(" + Mark.Loop->Name + ", vta.gemm): the weight `" + print(borrow(W)) +
           "` is k-major and its stage " + B->Name + " holds " + std::to_string(Rows) +
           " rows of k: a k-major weight stage is stored transposed, [j][k], which is VTA's "
           "weight tile only when it holds one block of 16 k (compute it at the loop of the k "
           "blocks)");
      return nullptr;
    }
    auto It = Layouts.Transposed.find(B.get());
    if (It != Layouts.Transposed.end())
      return It->second;
    std::vector<Expr> Shape{B->Shape[Last]};
    Shape.insert(Shape.end(), RowShape.begin(), RowShape.end());
    return makeBuffer(B->Name, B->Type, Shape, B->MemScope);
  }

  bool linearOf(const Buffer &Buf, const std::vector<Expr> &Indices,
                const std::set<const VarNode *> &Vars, LinearIndex &Out, const std::string &Where) {
    if (linearIn(flatIndex(Buf->Shape, Indices), Vars, Out))
      return true;
    fail(Where + "the index of `" + accessText(Buf, Indices) +
         "` is not affine in the region's loops with constant coefficients");
    return false;
  }
};

class Tensorizer : public IRMutator {
public:
  WeightLayouts Layouts;

  Tensorizer(const LoopNest &Nest, std::vector<Diag> &Diags) : Diags(Diags) {
    for (const TensorizeMark &M : Nest.Tensorize)
      if (M.Intrinsic == "vta.gemm")
        Marks[M.Loop.get()] = &M;
  }

protected:
  Stmt mutateFor(const Stmt &S, const ForNode *N) override {
    auto It = Marks.find(N->LoopVar.get());
    if (It != Marks.end()) {
      Stmt Uop = GemmMatcher(*It->second, Diags, Layouts, UnitLoops).match(N);
      return Uop ? Uop : S;
    }
    if (Stmt Reset = matchReset(N))
      return Reset;
    int64_t Extent;
    bool Unit = getConstInt(N->Extent, Extent) && Extent == 1;
    if (Unit)
      UnitLoops[N->LoopVar.get()] = N->Min;
    Stmt Out = IRMutator::mutateFor(S, N);
    UnitLoops.erase(N->LoopVar.get());
    return Out;
  }

private:
  std::map<const VarNode *, const TensorizeMark *> Marks;
  std::vector<Diag> &Diags;
  std::map<const VarNode *, Expr> UnitLoops; // enclosing loops of one iteration

  /// for (l, 0, 16) { [unit loops] D[..] = 0 } with D in vta.acc and l its
  /// lanes: vta.uop_gemm_reset(D[l := 0]).
  static Stmt matchReset(const ForNode *N) {
    int64_t Ext;
    if (!getConstInt(N->Extent, Ext) || Ext != vta::BlockOut)
      return nullptr;
    StoreNest R = storeNestOf(N->Body);
    const StoreNode *St = R.Store;
    int64_t Value;
    if (R.Other || !St || St->Buf->MemScope != Scope::VtaAcc ||
        !getConstInt(St->Value, Value) || Value != 0)
      return nullptr;
    std::map<const VarNode *, Expr> Zero{{N->LoopVar.get(), makeInt(0)}};
    std::set<const VarNode *> Vars{N->LoopVar.get()};
    for (const ForNode *F : R.Loops) {
      if (!getConstInt(F->Extent, Ext) || Ext != 1)
        return nullptr;
      Zero[F->LoopVar.get()] = makeInt(0);
      Vars.insert(F->LoopVar.get());
    }
    LinearIndex Flat;
    if (!linearIn(flatIndex(St->Buf->Shape, St->Indices), Vars, Flat) ||
        Flat.coef(N->LoopVar.get()) != 1)
      return nullptr;
    std::vector<Expr> Idx;
    for (const Expr &E : St->Indices)
      Idx.push_back(simplify(substitute(E, Zero)));
    Expr Start = makeLoad(St->Buf, Idx), Elem;
    std::string Why;
    if (!vtaElementIndex(as<LoadNode>(Start), Elem, Why))
      return nullptr;
    return makeEvaluate(makeCall("vta.uop_gemm_reset", {Start}, DType::Int32));
  }
};

} // namespace

ir::LoopNest tensorizeVtaGemm(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  LoopNest Out = Nest;
  Tensorizer T(Nest, Diags);
  Out.Body = T.mutate(Nest.Body);
  // Weight stages read k-major are stored transposed: every access (the
  // copy's store, the uops' operands) swaps its two indices.
  BufferRemaps Transpose;
  for (const auto &[Old, New] : T.Layouts.Transposed)
    Transpose[Old] = {New, lastIndexFirst};
  if (!Transpose.empty())
    Out.Body = remapBuffers(Out.Body, Transpose);
  return Out;
}

const Pass TensorizeVtaGemmPass = {
    "TensorizeVtaGemm", /*Requires=*/FormAny, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      S.Nest = tensorizeVtaGemm(S.Nest, S.Diags);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
