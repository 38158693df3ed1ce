//===- PadVtaStages.cpp - A guarded VTA stage copy holds zeros, not holes -===//
//
// What: the copy-in of a VTA stage (vta.inp, vta.wgt, vta.acc) under a loop
// marked pragma(x, dma_copy) that BoundInference guarded, `if (g) S[i] =
// G[j]` (the consumers read a window reaching outside G: padding written as
// a guard, `in_range ? D[..] : 0`), becomes `S[i] = select(g, G[j], 0)`: the
// stage holds zeros where g fails, which InjectVtaDma makes the zero padding
// of a 2-D LOAD (its pad fields). Then a consumer's read of such a stage
// under its own guard c, `select(c, S[k], 0)` (through a conversion, or of
// a product with such a factor: GuardedUpdatesAsSelects writes `if (c) A +=
// S[k]*W` so), becomes the plain read where g at k implies c: wherever c
// fails, the element read is one of the zeros.
//
// Why: VTA's GEMM has no guard. TVM's convolution tutorial pads in the LOAD
// (topi.nn.pad and the DMA's pad fields); a C++ user pads with a guard.
// With the selects gone the GEMM sees a plain accumulation and tensorizes.
//
// How g at k implies c: every conjunct of c is an integer comparison
// (ir::orderingsOf) that holds over the loops around the read (BoundInference
// left out of g what holds over the copy's loops), or is implied by one
// conjunct of g with the stage index k put for the copy's loop variables:
// both as `e >= 0`, the difference of c's e and g's e folds to a
// non-negative constant. Conservative: what it cannot show keeps the guard
// (and tensorize then says why it fails).
//
// Where: after BoundInference (which writes the guarded copies), before
// TensorizeVtaGemm and InjectVtaDma.
//
//===----------------------------------------------------------------------===//
#include "ir/Bounds.h"
#include "ir/IRMutator.h"
#include "ir/Prove.h"
#include "ir/Simplify.h"
#include "ir/Vta.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

using namespace ir;

namespace {

/// A padded stage: its copy's guard, over the copy's index variables
/// (stage dimension d is indexed by Vars[d], or null when its index is not
/// a plain loop variable: then no consumer is rewritten).
struct PaddedStage {
  Expr Guard;
  std::vector<const VarNode *> Vars;
};

/// Whether every conjunct of Cond is implied by one of Facts (each `e >= 0`)
/// or holds over Ranges (the loops around it).
bool impliedBy(const Expr &Cond, const std::vector<Expr> &Facts, const VarRanges &Ranges) {
  std::vector<Ordering> Conds = orderingsOf({Cond});
  if (Conds.size() != conjunctsOf(Cond).size())
    return false; // a conjunct that is no integer comparison
  for (const Ordering &O : Conds) {
    Expr E = O.slack();
    bool Implied = provablyLessEq(makeInt(0, E->Type), E, Ranges);
    for (const Expr &F : Facts)
      Implied = Implied || provablyLessOrEqual(F, E);
    if (!Implied)
      return false;
  }
  return true;
}

/// Turns the guarded copies under dma_copy marks into selects and records
/// the stages they fill.
class CopyPadder : public IRMutator {
public:
  CopyPadder(const LoopNest &Nest) {
    for (const LoopPragma &P : Nest.Pragmas)
      if (P.Kind == "dma_copy")
        Marks.insert(P.Loop.get());
  }
  std::map<const BufferNode *, PaddedStage> Padded;

protected:
  Stmt mutateFor(const Stmt &S, const ForNode *N) override {
    bool Marked = Marks.count(N->LoopVar.get());
    InCopy += Marked;
    Stmt Out = IRMutator::mutateFor(S, N);
    InCopy -= Marked;
    return Out;
  }

  Stmt mutateIfThenElse(const Stmt &S, const IfThenElseNode *N) override {
    const auto *St = as<StoreNode>(N->Then);
    const auto *Src = St ? as<LoadNode>(St->Value) : nullptr;
    if (!InCopy || N->Else || !Src || vtaElementLanes(St->Buf->MemScope) == 0 ||
        Src->Buf->MemScope != Scope::Global || Padded.count(St->Buf.get()))
      return IRMutator::mutateIfThenElse(S, N);
    PaddedStage &P = Padded[St->Buf.get()];
    P.Guard = N->Cond;
    for (const Expr &I : St->Indices) {
      const auto *V = as<VarNode>(I);
      P.Vars.push_back(V);
    }
    return makeStore(St->Buf, St->Indices,
                     makeSelect(N->Cond, St->Value, makeInt(0, St->Value->Type)));
  }

private:
  std::set<const VarNode *> Marks;
  int InCopy = 0;
};

/// Drops the consumers' guards that a padded stage makes redundant.
class GuardDropper : public LoopRangeMutator {
public:
  explicit GuardDropper(const std::map<const BufferNode *, PaddedStage> &Padded)
      : Padded(Padded) {}

protected:
  Expr mutateSelect(const Expr &E, const SelectNode *N) override {
    int64_t Zero;
    if (getConstInt(N->FalseValue, Zero) && Zero == 0 && zeroWhereFails(N->TrueValue, N->Cond))
      return mutate(N->TrueValue);
    return IRMutator::mutateSelect(E, N);
  }

private:
  const std::map<const BufferNode *, PaddedStage> &Padded;

  /// Whether X, a read of a padded stage (through an integer conversion) or
  /// an integer product with such a factor, is 0 wherever Cond fails: the
  /// copy's guard at the index read implies Cond.
  bool zeroWhereFails(const Expr &X, const Expr &Cond) const {
    if (const auto *M = as<BinaryNode>(X))
      return M->Op == BinOp::Mul && isInt(M->Type) &&
             (zeroWhereFails(M->A, Cond) || zeroWhereFails(M->B, Cond));
    Expr Value = X;
    while (const auto *C = as<CastNode>(Value)) {
      if (!isInt(C->Type) || !isInt(C->Value->Type))
        return false;
      Value = C->Value;
    }
    const auto *L = as<LoadNode>(Value);
    auto It = L ? Padded.find(L->Buf.get()) : Padded.end();
    if (It == Padded.end() || It->second.Vars.size() != L->Indices.size())
      return false;
    std::map<const VarNode *, Expr> At;
    for (size_t D = 0; D < L->Indices.size(); ++D) {
      if (!It->second.Vars[D])
        return false;
      At[It->second.Vars[D]] = L->Indices[D];
    }
    std::vector<Expr> Facts;
    for (const Ordering &O : orderingsOf({substitute(It->second.Guard, At)}))
      Facts.push_back(O.slack());
    return impliedBy(Cond, Facts, Ranges);
  }
};

} // namespace

ir::LoopNest padVtaStages(const ir::LoopNest &Nest) {
  LoopNest Out = Nest;
  CopyPadder Padder(Nest);
  Out.Body = Padder.mutate(Nest.Body);
  if (!Padder.Padded.empty())
    Out.Body = GuardDropper(Padder.Padded).mutate(Out.Body);
  return Out;
}

const Pass PadVtaStagesPass = {
    "PadVtaStages", /*Requires=*/FormAny, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      S.Nest = padVtaStages(S.Nest);
      return true;
    }};

} // namespace passes
} // namespace sched
