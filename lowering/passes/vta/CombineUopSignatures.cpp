//===- CombineUopSignatures.cpp - One signature for a kernel of several loops -===//
//
// What: a uop kernel (vta.PushGEMMOp / vta.PushALUOp) whose uop indices use
// several host loop variables (an accumulator staged whole, indexed by two
// loops outside the k loop: dst = i*4 + jo) gets one signature that
// combines them, `let sched_sig = i*4 + jo`, and its uops read each
// variable back from it (i = sched_sig / 4, jo = sched_sig % 4).
// Why: the runtime selects a cached kernel by one 4-byte signature (ir/Vta.h);
// without this such a nest falls back to the original loop. Only where the
// loops start at 0 with constant extents whose product stays below
// vta::MaxSignature (the runtime caches 99 variants per kernel); otherwise the
// kernel is left as it is and VerifyVtaProgram says why.
// Where: after VtaStorageFlatten (uop operands are element indices), before
// VerifyVtaProgram, which checks the signature's range.
//
//===----------------------------------------------------------------------===//
#include "ir/IRVisitor.h"
#include "ir/IRMutator.h"
#include "ir/Simplify.h"
#include "ir/Vta.h"
#include "passes/Passes.h"

#include <set>

namespace sched {
namespace passes {

using namespace ir;

namespace {

class Combiner : public IRMutator {
protected:
  Stmt mutateFor(const Stmt &S, const ForNode *N) override {
    Loops.push_back(N);
    Stmt Out = IRMutator::mutateFor(S, N);
    Loops.pop_back();
    return Out;
  }

  Stmt mutateEvaluate(const Stmt &S, const EvaluateNode *N) override {
    const auto *C = as<CallNode>(N->Value);
    if (!C || (C->Name != "vta.PushGEMMOp" && C->Name != "vta.PushALUOp") ||
        C->Args.size() <= VtaPushFixedArgs)
      return S;
    std::set<const VarNode *> Vars;
    for (size_t I = VtaPushFixedArgs; I < C->Args.size(); ++I)
      for (const VarNode *V : varsOf(C->Args[I]))
        Vars.insert(V);
    if (Vars.size() < 2)
      return S;
    // The digits of the signature, outermost loop first.
    std::vector<std::pair<Var, int64_t>> Digits;
    int64_t Product = 1;
    for (const ForNode *L : Loops) {
      if (!Vars.count(L->LoopVar.get()))
        continue;
      int64_t Min, Extent;
      if (!getConstInt(L->Min, Min) || Min != 0 || !getConstInt(L->Extent, Extent) || Extent < 1)
        return S;
      Digits.push_back({L->LoopVar, Extent});
      Product *= Extent;
      if (Product >= vta::MaxSignature)
        return S;
    }
    if (Digits.size() != Vars.size())
      return S; // a scalar parameter in a uop: VerifyVtaProgram refuses it
    Var Sig = makeVar("sched_sig_" + std::to_string(Count++));
    Expr Value = makeInt(0), Radix = makeInt(1);
    std::map<const VarNode *, Expr> Decode;
    for (size_t I = Digits.size(); I-- > 0;) {
      const auto &[V, Extent] = Digits[I];
      Decode[V.get()] = (Expr(Sig) / Radix) % makeInt(Extent);
      Radix = Radix * makeInt(Extent);
    }
    for (const auto &[V, Extent] : Digits)
      Value = Value * makeInt(Extent) + Expr(V);
    std::vector<Expr> Args(C->Args.begin(), C->Args.begin() + VtaPushFixedArgs);
    for (size_t I = VtaPushFixedArgs; I < C->Args.size(); ++I)
      Args.push_back(simplify(substitute(C->Args[I], Decode)));
    return makeLet(Sig, simplify(Value), makeEvaluate(makeCall(C->Name, Args, C->Type)));
  }

private:
  std::vector<const ForNode *> Loops; // the host loops around the statement
  unsigned Count = 0;
};

} // namespace

ir::LoopNest combineUopSignatures(const ir::LoopNest &Nest) {
  LoopNest Out = Nest;
  Out.Body = Combiner().mutate(Nest.Body);
  return Out;
}

const Pass CombineUopSignaturesPass = {
    "CombineUopSignatures", /*Requires=*/VtaFormFinal, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      S.Nest = combineUopSignatures(S.Nest);
      return true;
    }};

} // namespace passes
} // namespace sched
