//===- GuardedUpdatesAsSelects.cpp - if (c) A += X*Y as A += select(c, X*Y, 0) -===//
//
// What: in a VTA nest, an integer multiply-add under a guard of its own,
// `if (c) A = A + X*Y` (padding written as a statement: `if (in) acc +=
// D[..] * K[..]`), becomes `A = A + select(c, X*Y, 0)`: the same values (an
// integer sum adds 0 where c fails), the guard now on the operand.
//
// Why: BoundInference sizes a stage by what the reads under their guards
// touch; under the if, a convolution's input stage stops a column short of
// the padded window (stride 1: the column x + dx = 15 is read only where the
// guard fails), so no LOAD pad can stand for the guard. As a select, the
// read covers the whole window, as when the user writes `in ? D[..] : 0`,
// and PadVtaStages drops the select where the stage's zero padding makes it
// redundant (else tensorize says why the region is no GEMM).
//
// Where: before BoundInference (which reads the guards), after
// NormalizeLoops. Only integer updates of a product: float sums are not
// changed by adding 0.0 either, but VTA has none.
//
//===----------------------------------------------------------------------===//
#include "ir/IRMutator.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

using namespace ir;

namespace {

class GuardedUpdateRewriter : public IRMutator {
protected:
  Stmt mutateIfThenElse(const Stmt &S, const IfThenElseNode *N) override {
    const auto *St = as<StoreNode>(N->Then);
    Expr Term = St && !N->Else && isInt(St->Value->Type) ? updateTerm(St) : nullptr;
    const auto *Prod = Term ? as<BinaryNode>(Term) : nullptr;
    if (!Prod || Prod->Op != BinOp::Mul)
      return IRMutator::mutateIfThenElse(S, N);
    return makeStore(St->Buf, St->Indices,
                     makeLoad(St->Buf, St->Indices) +
                         makeSelect(N->Cond, Term, makeInt(0, Term->Type)));
  }
};

} // namespace

ir::LoopNest guardedUpdatesAsSelects(const ir::LoopNest &Nest) {
  LoopNest Out = Nest;
  Out.Body = GuardedUpdateRewriter().mutate(Nest.Body);
  return Out;
}

const Pass GuardedUpdatesAsSelectsPass = {
    "GuardedUpdatesAsSelects", /*Requires=*/FormAny, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      S.Nest = guardedUpdatesAsSelects(S.Nest);
      return true;
    }};

} // namespace passes
} // namespace sched
