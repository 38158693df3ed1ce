//===- InjectVtaDma.cpp - pragma(x, dma_copy): copies become VTA DMA -----===//
//
// What: the copy nest under a loop marked pragma(x, dma_copy) - a stage's
// copy-in `S[..] = G[..]` (S in vta.inp, vta.wgt or vta.acc) or an
// accumulator's write-back `G[..] = int8(S[..])` - becomes vta.load_2d /
// vta.store_2d (ir/Vta.h uop form): rows of x_size elements, y_size of them,
// x_stride elements apart in DRAM, dense in SRAM. Loops of the copy that do
// not fit the two dimensions stay as host loops around the call.
//
// How: the copy is read through the flat row-major indices of both sides
// (constant coefficients per loop). A copy is order-free, so its loops are
// taken by their step in the stage, innermost first: the stage must be
// written densely; the first loops make up an element (16 scalars of inp
// and acc, 256 of wgt) and must be contiguous in DRAM too; the next ones
// that stay contiguous in DRAM form x; the next, at any DRAM stride, y (and
// loops that continue y's stride join it); the rest stay loops. The DRAM
// side must start at an element and move by whole elements. A copy that
// does not fit is an error at the pragma naming the access and the rule.
//
// Where: after BoundInference (the copies have their final regions and
// constant extents) and TensorizeVtaGemm, before FoldUopLoops and
// InjectCoprocSync (which need every instruction in place).
//
//===----------------------------------------------------------------------===//
#include "ir/IRMutator.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "ir/Vta.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <algorithm>

namespace sched {
namespace passes {

using namespace ir;

namespace {

/// One loop of the copy: its extent and how far it moves each side, in
/// scalars (later in elements).
struct Dim {
  const ForNode *Loop;
  int64_t Extent, StepS, StepG;
};

class DmaInjector : public IRMutator {
public:
  DmaInjector(const LoopNest &Nest, std::vector<Diag> &Diags) : Diags(Diags) {
    for (const LoopPragma &P : Nest.Pragmas)
      if (P.Kind == "dma_copy")
        Marks[P.Loop.get()] = &P;
  }

protected:
  Stmt mutateFor(const Stmt &S, const ForNode *N) override {
    auto It = Marks.find(N->LoopVar.get());
    if (It == Marks.end()) {
      // A loop of one iteration around a copy fixes its variable (ko of a
      // k that is one block): offsets are checked with it at its value.
      int64_t Extent;
      bool Unit = getConstInt(N->Extent, Extent) && Extent == 1;
      if (Unit)
        UnitVars[N->LoopVar.get()] = N->Min;
      Stmt Out = IRMutator::mutateFor(S, N);
      UnitVars.erase(N->LoopVar.get());
      return Out;
    }
    Mark = It->second;
    Stmt Dma = lower(N);
    return Dma ? Dma : S;
  }

private:
  std::map<const VarNode *, const LoopPragma *> Marks;
  std::vector<Diag> &Diags;
  const LoopPragma *Mark = nullptr;
  std::map<const VarNode *, Expr> UnitVars; // enclosing loops of one iteration

  Stmt fail(const std::string &Message) {
    Diag D;
    D.Loc = Mark->Loc;
    D.Message = "pragma(" + Mark->Loop->Name + ", dma_copy): " + Message;
    Diags.push_back(D);
    return nullptr;
  }

  Stmt lower(const ForNode *N) {
    StoreNest C = storeNestOf(borrow(N));
    if (C.Other)
      return fail("the copy under '" + N->LoopVar->Name + "' must be one store in loops; it also holds `" +
                  stmtText(C.Other) + "`");
    if (!C.Store)
      return fail("nothing is copied under '" + N->LoopVar->Name + "'");
    const StoreNode *St = C.Store;
    // S: the VTA buffer; G: the global array.
    const LoadNode *Src = as<LoadNode>(St->Value);
    const auto *Narrow = as<CastNode>(St->Value);
    if (!Src && Narrow)
      Src = as<LoadNode>(Narrow->Value);
    if (!Src)
      return fail("`" + stmtText(St) + "` is not a copy");
    bool IsLoad = vtaElementLanes(St->Buf->MemScope) > 0;
    Buffer S = IsLoad ? St->Buf : Src->Buf, G = IsLoad ? Src->Buf : St->Buf;
    std::vector<Expr> IdxS = IsLoad ? St->Indices : Src->Indices;
    std::vector<Expr> IdxG = IsLoad ? Src->Indices : St->Indices;
    for (std::vector<Expr> *Idx : {&IdxS, &IdxG})
      for (Expr &X : *Idx)
        X = simplify(substitute(X, UnitVars));
    if (G->MemScope != Scope::Global || vtaElementLanes(S->MemScope) == 0)
      return fail("`" + stmtText(St) +
                  "` does not move data between a global array and a VTA buffer (vta.inp, "
                  "vta.wgt or vta.acc)");
    if (IsLoad) {
      bool Int8 = S->MemScope != Scope::VtaAcc;
      DType Want = Int8 ? DType::Int8 : DType::Int32;
      if (Narrow || S->Type != Want || G->Type != Want)
        return fail("`" + stmtText(St) + "` loads " + dtypeName(G->Type) + " into " +
                    scopeName(S->MemScope) + "; VTA loads " +
                    (Int8 ? "int8 into vta.inp and vta.wgt" : "int32 into vta.acc"));
    } else {
      if (S->MemScope != Scope::VtaAcc || S->Type != DType::Int32 || !Narrow ||
          (G->Type != DType::Int8 && G->Type != DType::UInt8) || Narrow->Type != G->Type)
        return fail("`" + stmtText(St) +
                    "` is not a store VTA can make: it writes the int32 accumulator (vta.acc) "
                    "truncated to 8 bits, `G[..] = (int8_t)Acc[..]`");
    }
    const int64_t Lanes = vtaElementLanes(S->MemScope);

    std::set<const VarNode *> Vars;
    for (const ForNode *F : C.Loops)
      Vars.insert(F->LoopVar.get());
    LinearIndex FS, FG;
    if (!linearIn(flatIndex(S->Shape, IdxS), Vars, FS))
      return fail("the index of `" + print(makeLoad(S, IdxS)) +
                  "` is not affine in the copy's loops with constant coefficients");
    if (!linearIn(flatIndex(G->Shape, IdxG), Vars, FG))
      return fail("the index of `" + print(makeLoad(G, IdxG)) +
                  "` is not affine in the copy's loops with constant coefficients");
    std::vector<Dim> Dims;
    for (const ForNode *F : C.Loops) {
      int64_t Ext;
      if (!getConstInt(F->Extent, Ext))
        return fail("loop '" + F->LoopVar->Name + "' has no constant extent");
      if (Ext != 1)
        Dims.push_back({F, Ext, FS.coef(F->LoopVar.get()), FG.coef(F->LoopVar.get())});
    }
    // By stage step; loops of equal step (never both > 1 in a dense copy)
    // keep their order.
    std::vector<size_t> Order(Dims.size());
    for (size_t K = 0; K < Order.size(); ++K)
      Order[K] = K;
    std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      return Dims[A].StepS != Dims[B].StepS ? Dims[A].StepS < Dims[B].StepS : A < B;
    });
    std::vector<Dim> Sorted;
    for (size_t K : Order)
      Sorted.push_back(Dims[K]);
    Dims = Sorted;
    // The stage is written densely.
    int64_t Dense = 1;
    for (const Dim &D : Dims) {
      if (D.StepS != Dense)
        return fail("the copy does not fill " + S->Name + " densely (loop '" +
                    D.Loop->LoopVar->Name + "' steps " + std::to_string(D.StepS) +
                    " scalars where " + std::to_string(Dense) + " are next)");
      Dense *= D.Extent;
    }
    if (Dense % Lanes)
      return fail("the copy moves " + std::to_string(Dense) + " scalars of " + S->Name +
                  ", not whole VTA elements of " + std::to_string(Lanes));
    // The first Lanes scalars are one element: contiguous in DRAM as well.
    size_t I = 0;
    int64_t Inner = 1;
    while (Inner < Lanes) {
      Dim &D = Dims[I];
      if (D.StepG != D.StepS)
        return fail("an element of " + S->Name + " (" + std::to_string(Lanes) +
                    " scalars) is not contiguous in `" + print(makeLoad(G, IdxG)) + "` (loop '" +
                    D.Loop->LoopVar->Name + "' steps " + std::to_string(D.StepG) +
                    " there)" + repackHint(S));
      if (Inner * D.Extent <= Lanes) {
        Inner *= D.Extent;
        ++I;
        continue;
      }
      // The loop spans the element's end: its inner part is in the element,
      // its outer part steps by whole elements.
      int64_t Part = Lanes / Inner;
      if (D.Extent % Part)
        return fail("loop '" + D.Loop->LoopVar->Name + "' straddles VTA elements of " + S->Name);
      Dims.insert(Dims.begin() + I + 1, Dim{D.Loop, D.Extent / Part, D.StepS * Part, D.StepG * Part});
      Dims[I].Extent = Part;
      Inner *= Part;
      ++I;
    }
    // The loops beyond the element, in elements.
    std::vector<Dim> Elem(Dims.begin() + I, Dims.end());
    for (Dim &D : Elem) {
      if (D.StepG % Lanes)
        return fail("loop '" + D.Loop->LoopVar->Name + "' moves `" + print(makeLoad(G, IdxG)) +
                    "` by " + std::to_string(D.StepG) + " scalars, not by whole VTA elements of " +
                    std::to_string(Lanes));
      D.StepS /= Lanes;
      D.StepG /= Lanes;
    }
    // x: contiguous in DRAM; y: one more stride; the rest stay loops.
    size_t E = 0;
    int64_t XSize = 1, YSize = 1, XStride = 0;
    const ForNode *SplitLoop = nullptr; // a loop split above: must all be x/y
    while (E < Elem.size() && Elem[E].StepG == XSize) {
      XSize *= Elem[E].Extent;
      ++E;
    }
    if (E < Elem.size()) {
      XStride = Elem[E].StepG;
      YSize = Elem[E].Extent;
      ++E;
      while (E < Elem.size() && Elem[E].StepG == XStride * YSize) {
        YSize *= Elem[E].Extent;
        ++E;
      }
    } else {
      XStride = XSize;
    }
    std::set<const ForNode *> HostLoops;
    for (size_t K = E; K < Elem.size(); ++K)
      HostLoops.insert(Elem[K].Loop);
    for (size_t K = 0; K < I; ++K)
      if (HostLoops.count(Dims[K].Loop))
        SplitLoop = Dims[K].Loop;
    for (size_t K = 0; K < E; ++K)
      if (HostLoops.count(Elem[K].Loop))
        SplitLoop = Elem[K].Loop;
    if (SplitLoop)
      return fail("loop '" + SplitLoop->LoopVar->Name + "' is split between a DMA row and the "
                                                      "loops around it; split it in the schedule");
    // The start of the transfer: the copy's DMA loops at 0.
    std::map<const VarNode *, Expr> Zero;
    for (const ForNode *F : C.Loops)
      if (!HostLoops.count(F))
        Zero[F->LoopVar.get()] = makeInt(0);
    auto Start = [&](const Buffer &B, const std::vector<Expr> &Idx) {
      std::vector<Expr> Out;
      for (const Expr &X : Idx)
        Out.push_back(simplify(substitute(X, Zero)));
      return makeLoad(B, Out);
    };
    Expr StartS = Start(S, IdxS), StartG = Start(G, IdxG);
    if (!provablyMultipleOf(flatIndex(G->Shape, as<LoadNode>(StartG)->Indices), Lanes))
      return fail("`" + print(StartG) + "` does not start a VTA element: its offset must be a "
                  "multiple of " + std::to_string(Lanes) + " scalars of " + G->Name);
    Expr Call =
        IsLoad ? makeCall("vta.load_2d",
                          {StartS, StartG, makeInt(XSize), makeInt(YSize), makeInt(XStride),
                           makeInt(0), makeInt(0), makeInt(0), makeInt(0)},
                          DType::Int32)
               : makeCall("vta.store_2d",
                          {StartG, StartS, makeInt(XSize), makeInt(YSize), makeInt(XStride)},
                          DType::Int32);
    Stmt Out = makeEvaluate(Call);
    for (size_t K = C.Loops.size(); K-- > 0;)
      if (HostLoops.count(C.Loops[K]))
        Out = makeFor(C.Loops[K]->LoopVar, C.Loops[K]->Min, C.Loops[K]->Extent, Out);
    return Out;
  }

  static std::string repackHint(const Buffer &S) {
    return S->MemScope == Scope::VtaWgt
               ? "; VTA reads a weight tile as 256 contiguous bytes, [16 j][16 k]: store the "
                 "weights tile by tile ([N/16][K/16][16][16])"
               : "";
  }
};

} // namespace

ir::LoopNest injectVtaDma(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  LoopNest Out = Nest;
  Out.Body = DmaInjector(Nest, Diags).mutate(Nest.Body);
  return Out;
}

} // namespace passes
} // namespace sched
