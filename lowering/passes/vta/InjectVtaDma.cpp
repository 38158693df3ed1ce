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
// written densely (loops past a gap of whole elements stay host loops, a
// DMA per iteration); the first loops make up an element (16 scalars of inp
// and acc, 256 of wgt) and must be contiguous in DRAM too; the next ones
// that stay contiguous in DRAM form x; the next, at any DRAM stride, y (and
// loops that continue y's stride join it); the rest stay loops. The DRAM
// side must start at an element and move by whole elements. A copy that
// does not fit is an error at the pragma naming the access and the rule.
//
// Weights not stored tile by tile: when a weight tile (16 rows of 16
// scalars) is not contiguous in the global array but the array is a 2-D
// W[N][K] with N and K multiples of 16, each tile row 16 contiguous scalars
// of a row and every other loop moving by whole tiles, the copy reads
// W_tiles[N/16][K/16][16][16] instead, W's tiles one after the other, which
// vta.pack_tiles fills on the host before the program (ir/Vta.h; one per W,
// allocated around the whole body). A k-major W[K][N] (each tile row 16 k
// of a column: the stage TensorizeVtaGemm stored transposed) is packed the
// same way with each tile transposed, W_tiles_t[N/16][K/16][16][16]. An
// array of more dimensions is read as 2-D, its first indices the row and
// the others the column (a reshaped W[N][K/16][16] is W[N][K]).
//
// Accumulators initialised from memory: a loop nest that only copies a
// global array into vta.acc - the initial value of an accumulator, a bias
// `acc = Bias[j]` or the output itself of `C[..] += ..`, as cache_write
// stages it - is such a copy without a dma_copy mark (its loops are the
// computation's, split off by the reorder; a zero initialisation becomes a
// GEMM reset without one too): an ACC LOAD, from int32 (acc) or from int8
// sign-extended (`int32(C[..])`, ACC_8BIT). A bias broadcast over the rows
// of the accumulator is a y loop of DRAM stride 0.
//
// Padding: a copy PadVtaStages made `S[..] = select(g, G[..], 0)` (the
// stage's region reaches outside G: a convolution's padding written as a
// guard) is a LOAD with pad fields when g clips the x loop and the y loop,
// each alone, to a window of values that do not change in the copy (a
// conjunction of bounds `v >= lo`, `v < hi`): x_size and y_size are the
// windows, the pads what is around them (expressions over the loops outside
// the copy: a tile at the top edge has a row of padding, the next none), and
// G is read from the windows' start. Any other guard is an error at the
// pragma saying which bound is not such a clip.
//
// Where: after BoundInference (the copies have their final regions and
// constant extents) and TensorizeVtaGemm, before FoldUopLoops and
// InjectCoprocSync (which need every instruction in place).
//
//===----------------------------------------------------------------------===//
#include "ir/Bounds.h"
#include "ir/IRMutator.h"
#include "ir/Printer.h"
#include "ir/Prove.h"
#include "ir/Simplify.h"
#include "ir/Vta.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <algorithm>
#include <tuple>

namespace sched {
namespace passes {

using namespace ir;

namespace {

/// One loop of the copy: its extent and how far it moves each side, in
/// scalars (later in elements); how far it moves each index of the global
/// array (when every index is affine); and, in a 2-D view of that array
/// (repackTiles), its row and column.
struct Dim {
  const ForNode *Loop;
  int64_t Extent, StepS, StepG;
  std::vector<int64_t> StepIdx;
  int64_t StepR = 0, StepC = 0;
};

/// The zero padding of a LOAD whose copy is guarded (PadVtaStages): per DMA
/// dimension (0: x, 1: y) the loop the guard clips (null: none), the window
/// of its values the guard keeps, [max(Lows), Hi), and the pads around it,
/// in elements.
struct Pads {
  const ForNode *Loop[2] = {nullptr, nullptr};
  std::vector<Expr> Lows[2];
  Expr Lo[2], Hi[2];
  Expr Before[2] = {makeInt(0), makeInt(0)}, After[2] = {makeInt(0), makeInt(0)};

  /// The LOAD's x (D = 0) or y size: the window, or Full without a clip.
  Expr size(int D, int64_t Full) const {
    return Loop[D] ? simplify(Hi[D] - Lo[D]) : makeInt(Full);
  }

  /// X, an index of the global array affine in the copy's loops, at the
  /// first element the LOAD reads: each clipped loop at its window's start,
  /// the other DMA loops at 0 (Zero). The start is a max of lower bounds,
  /// and X moves one way with each loop, so X there is the max (or min) of
  /// X at each bound: an expression whose bounds stay exact (`max(yo*7 - 1,
  /// 0)`, never below 0, where `yo*7 - 1 + max(0, 1 - yo*7)` is not known
  /// to be).
  Expr startOf(const Expr &X, const std::map<const VarNode *, Expr> &Zero) const {
    Expr E = X;
    for (int D = 0; D < 2; ++D) {
      if (!Loop[D])
        continue;
      const VarNode *V = Loop[D]->LoopVar.get();
      LinearIndex LI;
      if (!linearIn(X, {V}, LI) || LI.coef(V) == 0)
        continue;
      Expr Out;
      for (const Expr &L : Lows[D]) {
        Expr At = substitute(E, {{V, L}});
        Out = Out ? makeBinary(LI.coef(V) > 0 ? BinOp::Max : BinOp::Min, Out, At) : At;
      }
      E = Out;
    }
    return simplify(substitute(E, Zero));
  }
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
    if (It == Marks.end() && initialisesAccumulator(N)) {
      Mark = nullptr;
      Stmt Dma = lower(N);
      return Dma ? Dma : S;
    }
    if (It == Marks.end()) {
      // A loop of one iteration around a copy fixes its variable (ko of a
      // k that is one block): offsets are checked with it at its value.
      int64_t Extent;
      bool Unit = getConstInt(N->Extent, Extent) && Extent == 1;
      if (Unit)
        UnitVars[N->LoopVar.get()] = N->Min;
      Ranges[N->LoopVar.get()] = loopRange(N);
      Stmt Out = IRMutator::mutateFor(S, N);
      UnitVars.erase(N->LoopVar.get());
      Ranges.erase(N->LoopVar.get());
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
  VarRanges Ranges;                          // enclosing loops

  Stmt fail(const std::string &Message) {
    Diag D;
    if (Mark) {
      D.Loc = Mark->Loc;
      D.Message = "pragma(" + Mark->Loop->Name + ", dma_copy): " + Message;
    } else {
      D.Message = "the load of an accumulator's initial value into vta.acc: " + Message;
    }
    Diags.push_back(D);
    return nullptr;
  }

  /// The loop nest under N only copies global memory into vta.acc, with no
  /// dma_copy mark: an accumulator initialised from memory (a bias, or the
  /// output itself of `C += ...`), which becomes an ACC LOAD as a zero
  /// initialisation becomes a GEMM reset. The outermost such loop is met
  /// first, so the whole nest is one DMA (its other loops host loops).
  static bool initialisesAccumulator(const ForNode *N) {
    StoreNest C = storeNestOf(borrow(N));
    if (C.Other || !C.Store || C.Store->Buf->MemScope != Scope::VtaAcc)
      return false;
    Expr V = C.Store->Value;
    if (const auto *Widen = as<CastNode>(V))
      V = Widen->Value;
    const auto *L = as<LoadNode>(V);
    return L && L->Buf->MemScope == Scope::Global;
  }

  Stmt lower(const ForNode *N) {
    StoreNest C = storeNestOf(borrow(N));
    if (C.Other)
      return fail("the copy under '" + N->LoopVar->Name + "' must be one store in loops; it also holds `" +
                  stmtText(C.Other) + "`");
    if (!C.Store)
      return fail("nothing is copied under '" + N->LoopVar->Name + "'");
    const StoreNode *St = C.Store;
    // A padded copy (PadVtaStages): S[..] = select(g, G[..], 0).
    Expr Value = St->Value, Guard;
    int64_t Else;
    if (const auto *Sel = as<SelectNode>(Value))
      if (getConstInt(Sel->FalseValue, Else) && Else == 0) {
        Guard = Sel->Cond;
        Value = Sel->TrueValue;
      }
    // S: the VTA buffer; G: the global array.
    const LoadNode *Src = as<LoadNode>(Value);
    const auto *Narrow = as<CastNode>(Value);
    if (!Src && Narrow)
      Src = as<LoadNode>(Narrow->Value);
    if (!Src)
      return fail("`" + stmtText(St) + "` is not a copy");
    bool IsLoad = vtaElementLanes(St->Buf->MemScope) > 0;
    if (Guard && !IsLoad)
      return fail("`" + stmtText(St) + "` is not a copy");
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
      // int32(G) of an int8 G into vta.acc: ACC_8BIT sign-extends each byte.
      // (A stage that starts from C's values copies C[..] into it as it is.)
      bool Acc8 = !Int8 && G->Type == DType::Int8 && S->Type == DType::Int32 &&
                  (!Narrow || Narrow->Type == DType::Int32);
      if (!Acc8 && (Narrow || S->Type != Want || G->Type != Want))
        return fail("`" + stmtText(St) + "` loads " + dtypeName(G->Type) + " into " +
                    scopeName(S->MemScope) + "; VTA loads " +
                    (Int8 ? "int8 into vta.inp and vta.wgt"
                          : "int32, or int8 sign-extended, into vta.acc"));
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
    std::vector<LinearIndex> FIdx(IdxG.size()); // each index of G, when all are affine
    bool Affine = true;
    for (size_t D = 0; D < IdxG.size(); ++D)
      Affine = Affine && linearIn(IdxG[D], Vars, FIdx[D]);
    std::vector<Dim> Dims;
    for (const ForNode *F : C.Loops) {
      int64_t Ext;
      if (!getConstInt(F->Extent, Ext))
        return fail("loop '" + F->LoopVar->Name + "' has no constant extent");
      const VarNode *V = F->LoopVar.get();
      std::vector<int64_t> StepIdx;
      for (size_t D = 0; Affine && D < IdxG.size(); ++D)
        StepIdx.push_back(FIdx[D].coef(V));
      if (Ext != 1)
        Dims.push_back({F, Ext, FS.coef(V), FG.coef(V), StepIdx});
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
    // The stage is written densely: the DMA's loops are the dense ones;
    // loops past a gap (a copy of a block of the stage's columns for each of
    // its rows) stay host loops, a DMA per iteration, when each step is
    // whole elements past the dense block.
    int64_t Dense = 1;
    std::vector<const ForNode *> Sparse;
    for (const Dim &D : Dims) {
      if (D.StepS != Dense && Sparse.empty() &&
          (Dense % Lanes || D.StepS % Lanes || D.StepS < Dense))
        return fail("the copy does not fill " + S->Name + " densely (loop '" +
                    D.Loop->LoopVar->Name + "' steps " + std::to_string(D.StepS) +
                    " scalars where " + std::to_string(Dense) + " are next)");
      if (D.StepS != Dense || !Sparse.empty()) {
        Sparse.push_back(D.Loop);
        continue;
      }
      Dense *= D.Extent;
    }
    Dims.resize(Dims.size() - Sparse.size());
    if (Dense % Lanes)
      return fail("the copy moves " + std::to_string(Dense) + " scalars of " + S->Name +
                  ", not whole VTA elements of " + std::to_string(Lanes));
    // Loops that span an element's end are split there: their inner part is
    // in the element, their outer part steps by whole elements.
    size_t I = 0;
    for (int64_t Inner = 1; Inner < Lanes; ++I) {
      Dim &D = Dims[I];
      if (Inner * D.Extent <= Lanes) {
        Inner *= D.Extent;
        continue;
      }
      int64_t Part = Lanes / Inner;
      if (D.Extent % Part)
        return fail("loop '" + D.Loop->LoopVar->Name + "' straddles VTA elements of " + S->Name);
      std::vector<int64_t> StepIdx = D.StepIdx;
      for (int64_t &X : StepIdx)
        X *= Part;
      Dims.insert(Dims.begin() + I + 1,
                  Dim{D.Loop, D.Extent / Part, D.StepS * Part, D.StepG * Part, StepIdx});
      Dims[I].Extent = Part;
      Inner *= Part;
    }
    // The first I loops make up one element: contiguous in DRAM as well, or
    // a weight tile the launcher repacks (G becomes the packed copy).
    Buffer Packed; // the launcher's tile-by-tile copy of G, when it repacks G
    bool PackedTransposed = false; // G holds the tiles transposed (k-major)
    size_t PackedView = 0;         // G's indices before it are the view's row
    for (size_t K = 0; K < I; ++K) {
      const Dim &D = Dims[K];
      if (D.StepG == D.StepS)
        continue;
      std::string NotContiguous = "an element of " + S->Name + " (" + std::to_string(Lanes) +
                                  " scalars) is not contiguous in `" + print(makeLoad(G, IdxG)) +
                                  "` (loop '" + D.Loop->LoopVar->Name + "' steps " +
                                  std::to_string(D.StepG) + " there)";
      if (S->MemScope != Scope::VtaWgt)
        return fail(NotContiguous);
      Packed = repackTiles(G, Dims, I, NotContiguous, PackedTransposed, PackedView);
      if (!Packed)
        return nullptr;
      break;
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
    const size_t XEnd = E; // Elem[0, XEnd) make up x, Elem[XEnd, E) y
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
    std::set<const ForNode *> HostLoops(Sparse.begin(), Sparse.end());
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
    // A padded copy: the guard clips x and y to windows, the rest is the
    // LOAD's zero padding.
    Pads P;
    if (Guard) {
      Guard = simplify(substitute(Guard, UnitVars));
      std::vector<const ForNode *> XLoops, YLoops;
      for (size_t K = 0; K < E; ++K)
        (K < XEnd ? XLoops : YLoops).push_back(Elem[K].Loop);
      std::vector<const ForNode *> InElement;
      for (size_t K = 0; K < I; ++K)
        InElement.push_back(Dims[K].Loop);
      if (!clipWindows(Guard, C.Loops, XLoops, YLoops, InElement, HostLoops, P))
        return nullptr;
    }
    // The start of the transfer: the copy's DMA loops at 0.
    // A padded copy starts reading G at the windows' first row and column
    // (S at 0: its padding comes first).
    std::map<const VarNode *, Expr> Zero;
    for (const ForNode *F : C.Loops)
      if (!HostLoops.count(F))
        Zero[F->LoopVar.get()] = makeInt(0);
    auto Start = [&](const Buffer &B, const std::vector<Expr> &Idx, const Pads *Clipped) {
      std::vector<Expr> Out;
      for (const Expr &X : Idx)
        Out.push_back(Clipped ? Clipped->startOf(X, Zero) : simplify(substitute(X, Zero)));
      return makeLoad(B, Out);
    };
    Expr StartS = Start(S, IdxS, nullptr), StartG = Start(G, IdxG, Guard ? &P : nullptr);
    if (Packed) {
      // Tile (row / 16, col / 16) of G's 2-D view, at its first scalar.
      const auto *L = as<LoadNode>(StartG);
      auto Part = [&](size_t From, size_t To) {
        return flatIndex(std::vector<Expr>(G->Shape.begin() + From, G->Shape.begin() + To),
                         std::vector<Expr>(L->Indices.begin() + From, L->Indices.begin() + To));
      };
      Expr Row = divideExactly(simplify(Part(0, PackedView)), vta::BlockOut);
      Expr Col = divideExactly(simplify(Part(PackedView, G->Shape.size())), vta::BlockIn);
      if (!Row || !Col)
        return fail("`" + print(StartG) + "` does not start a 16x16 tile of " + G->Name +
                    ": its row and column must be multiples of 16");
      StartG = PackedTransposed ? makeLoad(Packed, {Col, Row, makeInt(0), makeInt(0)})
                                : makeLoad(Packed, {Row, Col, makeInt(0), makeInt(0)});
    } else if (!provablyMultipleOf(flatIndex(G->Shape, as<LoadNode>(StartG)->Indices), Lanes)) {
      return fail("`" + print(StartG) + "` does not start a VTA element: its offset must be a "
                  "multiple of " + std::to_string(Lanes) + " scalars of " + G->Name);
    }
    Expr Call =
        IsLoad ? makeCall("vta.load_2d",
                          {StartS, StartG, P.size(0, XSize), P.size(1, YSize), makeInt(XStride),
                           P.Before[0], P.Before[1], P.After[0], P.After[1]},
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

  /// The windows of a padded copy's guard (PadVtaStages made it `S[..] =
  /// select(Guard, G[..], 0)`): every conjunct must bound one loop of the
  /// copy, the DMA's x loop or its y loop alone, by what does not vary in
  /// the copy; the LOAD copies the window and pads the rest with zeros.
  /// False (and an error) otherwise.
  bool clipWindows(const Expr &Guard, const std::vector<const ForNode *> &Loops,
                   const std::vector<const ForNode *> &XLoops,
                   const std::vector<const ForNode *> &YLoops,
                   const std::vector<const ForNode *> &InElement,
                   const std::set<const ForNode *> &HostLoops, Pads &P) {
    const std::string Rule =
        ": VTA pads a 2-D load with whole columns (x) and rows (y), so the guard of a padded "
        "copy must bound its x loop and its y loop, each alone, by values that do not change "
        "in the copy";
    auto Fail = [&](const std::string &Why) {
      fail("the guard `" + print(Guard) + "` of the copy is not a rectangular clip: " + Why + Rule);
      return false;
    };
    std::vector<Ordering> Bounds = orderingsOf({Guard});
    if (Bounds.size() != conjunctsOf(Guard).size())
      return Fail("it is not a conjunction of integer comparisons (<, <=, >, >=)");
    std::set<const VarNode *> Vars;
    for (const ForNode *F : Loops)
      Vars.insert(F->LoopVar.get());
    auto Has = [](const std::vector<const ForNode *> &List, const ForNode *F) {
      return std::find(List.begin(), List.end(), F) != List.end();
    };
    std::vector<Expr> Highs[2];
    for (const Ordering &O : Bounds) {
      // O as E >= 0, E = c*v + Rest.
      Expr E = O.slack();
      std::string Cond = "`" + print(O.Lo) + (O.Strict ? " < " : " <= ") + print(O.Hi) + "`";
      LinearIndex LI;
      if (!linearIn(E, Vars, LI))
        return Fail(Cond + " is not affine in the copy's loops");
      if (LI.Coef.size() != 1)
        return Fail(Cond + (LI.Coef.empty() ? " bounds none of the copy's loops"
                                            : " bounds several of the copy's loops together"));
      const auto &[V, Coef] = *LI.Coef.begin();
      const ForNode *L = nullptr;
      for (const ForNode *F : Loops)
        if (F->LoopVar.get() == V)
          L = F;
      const std::string Loop = "loop '" + V->Name + "'";
      if (Coef != 1 && Coef != -1)
        return Fail(Cond + " bounds " + std::to_string(Coef) + " times " + Loop);
      if (Has(InElement, L))
        return Fail(Cond + " clips " + Loop + " inside a VTA element");
      if (HostLoops.count(L))
        return Fail(Cond + " clips " + Loop + ", which stays a loop around the DMA");
      int D = Has(XLoops, L) ? 0 : Has(YLoops, L) ? 1 : -1;
      if (D < 0)
        return Fail(Cond + " clips " + Loop + ", which is no dimension of the DMA");
      if ((D == 0 ? XLoops : YLoops).size() != 1)
        return Fail(Cond + " clips " + Loop + ", one of the loops that make up the DMA's " +
                    (D == 0 ? "x" : "y"));
      P.Loop[D] = L;
      // v >= -Rest, or v <= Rest.
      (Coef > 0 ? P.Lows[D] : Highs[D]).push_back(simplify(Coef > 0 ? makeInt(0) - LI.Rest
                                                                       : LI.Rest));
    }
    for (int D = 0; D < 2; ++D) {
      const ForNode *L = P.Loop[D];
      if (!L)
        continue;
      Expr End = simplify(L->Min + L->Extent); // one past the loop's last value
      P.Lows[D].insert(P.Lows[D].begin(), L->Min);
      Expr Lo = P.Lows[D][0], Hi = End;
      for (size_t K = 1; K < P.Lows[D].size(); ++K)
        Lo = makeBinary(BinOp::Max, Lo, P.Lows[D][K]);
      for (const Expr &H : Highs[D])
        Hi = makeBinary(BinOp::Min, Hi, H + makeInt(1, H->Type));
      P.Lo[D] = simplify(Lo);
      P.Hi[D] = simplify(Hi);
      P.Before[D] = simplify(P.Lo[D] - L->Min);
      P.After[D] = simplify(End - P.Hi[D]);
      // A LOAD of no element is a no-op that leaves its padding unwritten.
      Interval Size = boundsOf(P.Hi[D] - P.Lo[D], Ranges);
      int64_t Min;
      if (!Size.Min || !getConstInt(Size.Min, Min) || Min < 1) {
        fail("the guard `" + print(Guard) + "` of the copy may keep no value of loop '" +
             L->LoopVar->Name + "' (" + print(P.Lo[D]) + " to " + print(P.Hi[D]) +
             "); VTA pads only a load that copies something");
        return false;
      }
    }
    return true;
  }

  /// G's tile-by-tile copy for a weight copy whose element (a 16x16 tile,
  /// the first NElem of Dims) is not contiguous in G: in a 2-D view of G,
  /// G[Rows][Cols] (its indices before View the row, the others the column;
  /// a 3-D W[N][K/16][16] is W[N][K]), both multiples of 16, each tile row
  /// must be 16 contiguous scalars of a row (or, transposed, of a column),
  /// and every loop beyond the element must move by whole tiles. Dims' DRAM
  /// steps become steps in the copy, which vta.pack_tiles fills before the
  /// program runs (ir/Vta.h); null (and an error) otherwise.
  Buffer repackTiles(const Buffer &G, std::vector<Dim> &Dims, size_t NElem,
                     const std::string &NotContiguous, bool &Transposed, size_t &View) {
    const std::string Rule =
        "; VTA reads a weight tile as 256 contiguous bytes, [16 j][16 k]: the launcher repacks "
        "a weight array whose rows and columns are multiples of 16 (its first indices the row, "
        "the others the column), W[N][K] when each tile row is 16 contiguous k of one row, or "
        "k-major W[K][N] when it is 16 k of one column (transposing the tiles); store other "
        "weights tile by tile ([N/16][K/16][16][16])";
    std::vector<int64_t> Shape;
    for (const Expr &E : G->Shape) {
      int64_t X;
      Shape.push_back(getConstInt(simplify(E), X) && X > 0 ? X : 0);
    }
    bool Known = std::find(Shape.begin(), Shape.end(), 0) == Shape.end() &&
                 !Dims.empty() && Dims[0].StepIdx.size() == Shape.size();
    // The first view whose tiles fit, by its row's last index.
    std::vector<Dim> Viewed;
    int64_t Rows = 0, Cols = 0;
    Transposed = false;
    std::string Why = NotContiguous + Rule;
    for (View = 1; Known && View < Shape.size(); ++View) {
      Rows = Cols = 1;
      for (size_t D = 0; D < Shape.size(); ++D)
        (D < View ? Rows : Cols) *= Shape[D];
      if (Rows % vta::BlockOut || Cols % vta::BlockIn)
        continue;
      Viewed = Dims;
      for (Dim &D : Viewed) {
        D.StepR = D.StepC = 0;
        int64_t Stride = 1;
        for (size_t X = Shape.size(); X-- > 0;) {
          if (X + 1 == View)
            Stride = 1;
          (X < View ? D.StepR : D.StepC) += D.StepIdx[X] * Stride;
          Stride *= Shape[X];
        }
      }
      if (!tileOf(Viewed, NElem, false) && !tileOf(Viewed, NElem, true))
        continue;
      Transposed = !tileOf(Viewed, NElem, false);
      const Dim *Partial = nullptr;
      for (size_t K = NElem; K < Viewed.size(); ++K)
        if (Viewed[K].StepR % vta::BlockOut || Viewed[K].StepC % vta::BlockIn)
          Partial = &Viewed[K];
      if (!Partial)
        break;
      Why = "loop '" + Partial->Loop->LoopVar->Name + "' moves `" + G->Name + "` by " +
            std::to_string(Partial->StepR) + " rows and " + std::to_string(Partial->StepC) +
            " columns, not by whole 16x16 tiles" + Rule;
    }
    if (!Known || View >= Shape.size()) {
      fail(Why);
      return nullptr;
    }
    Dims = Viewed;
    // The packed copy's tiles: (j tile, k tile), W's (row, column) tiles or
    // (column, row) tiles.
    const int64_t KTiles = (Transposed ? Rows : Cols) / vta::BlockIn;
    for (size_t K = 0; K < Dims.size(); ++K) {
      Dim &D = Dims[K];
      int64_t JTile = (Transposed ? D.StepC : D.StepR) / vta::BlockOut;
      int64_t KTile = (Transposed ? D.StepR : D.StepC) / vta::BlockIn;
      D.StepG = K < NElem ? D.StepS : (JTile * KTiles + KTile) * vta::WgtLanes;
    }
    Buffer &P = Packs[{G.get(), Transposed, View}];
    if (!P) {
      int64_t JTiles = (Transposed ? Cols : Rows) / vta::BlockOut;
      P = makeBuffer(G->Name + (Transposed ? "_tiles_t" : "_tiles"), G->Type,
                     {makeInt(JTiles), makeInt(KTiles), makeInt(vta::BlockOut),
                      makeInt(vta::BlockIn)},
                     Scope::Global);
      PackOrder.push_back({G, P, Transposed, Rows, Cols});
    }
    return P;
  }

  /// Whether the first NElem loops of Dims make a weight tile of the 2-D
  /// view (StepR, StepC): each along k (within a tile row) or j; W[N][K]
  /// holds a tile row in a row, k along its columns, a k-major W[K][N] in a
  /// column.
  static bool tileOf(const std::vector<Dim> &Dims, size_t NElem, bool KMajor) {
    for (size_t K = 0; K < NElem; ++K) {
      const Dim &D = Dims[K];
      int64_t AlongK = KMajor ? D.StepR : D.StepC, AlongJ = KMajor ? D.StepC : D.StepR;
      bool InRow = D.StepS < vta::BlockIn;
      if (InRow ? AlongJ != 0 || AlongK != D.StepS
                : AlongK != 0 || AlongJ * vta::BlockIn != D.StepS)
        return false;
    }
    return true;
  }

public:
  /// The packed copies the copies read: allocated around the whole
  /// program, each filled first.
  Stmt wrapPacks(Stmt Body) const {
    std::vector<Stmt> Fills;
    for (const Pack &K : PackOrder)
      Fills.push_back(makeEvaluate(makeCall(
          "vta.pack_tiles",
          {makeLoad(K.Packed, std::vector<Expr>(4, makeInt(0))),
           makeLoad(K.G, std::vector<Expr>(K.G->Shape.size(), makeInt(0))), makeInt(K.Rows),
           makeInt(K.Cols), makeInt(K.Transposed ? 1 : 0)},
          DType::Int32)));
    if (Fills.empty())
      return Body;
    Fills.push_back(Body);
    Body = makeSeq(Fills);
    for (size_t K = PackOrder.size(); K-- > 0;)
      Body = makeAllocate(PackOrder[K].Packed, Body);
    return Body;
  }

private:
  struct Pack {
    Buffer G, Packed;
    bool Transposed;
    int64_t Rows, Cols; // G's 2-D view
  };
  std::map<std::tuple<const BufferNode *, bool, size_t>, Buffer> Packs;
  std::vector<Pack> PackOrder;
};

} // namespace

ir::LoopNest injectVtaDma(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  LoopNest Out = Nest;
  DmaInjector Injector(Nest, Diags);
  Out.Body = Injector.wrapPacks(Injector.mutate(Nest.Body));
  return Out;
}

const Pass InjectVtaDmaPass = {
    "InjectVtaDma", /*Requires=*/FormAny, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      S.Nest = injectVtaDma(S.Nest, S.Diags);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
