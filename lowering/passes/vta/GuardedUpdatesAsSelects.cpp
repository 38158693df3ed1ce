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
// Only where the update still writes the same elements: for every value of
// the loops its element depends on, some value of the others (the
// reduction: dy, dx of a convolution) satisfies c. Else the accumulator's
// write-back would grow to elements the nest never wrote (`if (i < 60)` of
// a split that does not divide). Each conjunct of c must bound one of those
// other loops (or none, and hold), and the bounds on each must meet for all
// values of the rest (every lower bound <= every upper bound).
//
// Where: before BoundInference (which reads the guards), after
// NormalizeLoops. Only integer updates of a product (VTA's GEMM).
//
//===----------------------------------------------------------------------===//
#include "ir/Bounds.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Prove.h"
#include "ir/Simplify.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

using namespace ir;

namespace {

/// Whether, for every value of the variables in Ranges but not in Free,
/// some value of those in Free (each in its range) satisfies Cond: each
/// conjunct an integer comparison that bounds one free variable (coefficient
/// 1 or -1) or none (then it holds over Ranges), and every lower bound of a
/// free variable, its range's start included, at most every upper bound.
bool holdsForSomeFreeValue(const Expr &Cond, const std::set<const VarNode *> &Free,
                           const VarRanges &Ranges) {
  std::vector<Ordering> Bounds = orderingsOf({Cond});
  if (Bounds.size() != conjunctsOf(Cond).size())
    return false;
  std::map<const VarNode *, std::vector<Expr>> Lows, Highs;
  for (const VarNode *V : Free) {
    Lows[V].push_back(Ranges.at(V).Min);
    Highs[V].push_back(Ranges.at(V).Max);
  }
  for (const Ordering &O : Bounds) {
    Expr E = O.slack(); // E >= 0
    LinearIndex LI;
    if (!linearIn(E, Free, LI))
      return false;
    if (LI.Coef.empty()) {
      if (!provablyLessEq(makeInt(0, E->Type), E, Ranges))
        return false;
      continue;
    }
    if (LI.Coef.size() != 1)
      return false;
    const auto &[V, Coef] = *LI.Coef.begin();
    if (Coef == 1)
      Lows[V].push_back(simplify(makeInt(0, E->Type) - LI.Rest)); // V >= -Rest
    else if (Coef == -1)
      Highs[V].push_back(LI.Rest); // V <= Rest
    else
      return false;
  }
  for (const VarNode *V : Free)
    for (const Expr &Low : Lows[V])
      for (const Expr &High : Highs[V])
        if (!provablyLessEq(Low, High, Ranges))
          return false;
  return true;
}

class GuardedUpdateRewriter : public LoopRangeMutator {
protected:
  Stmt mutateAllocate(const Stmt &S, const AllocateNode *N) override {
    std::set<const VarNode *> &Outside = LoopsOutside[N->Buf.get()];
    for (const auto &Entry : Ranges)
      Outside.insert(Entry.first);
    return IRMutator::mutateAllocate(S, N);
  }

  Stmt mutateIfThenElse(const Stmt &S, const IfThenElseNode *N) override {
    const auto *St = as<StoreNode>(N->Then);
    Expr Term = St && !N->Else && isInt(St->Value->Type) ? updateTerm(St) : nullptr;
    const auto *Prod = Term ? as<BinaryNode>(Term) : nullptr;
    if (!Prod || Prod->Op != BinOp::Mul)
      return IRMutator::mutateIfThenElse(S, N);
    // The loops the element written does not depend on: inside the
    // buffer's allocation (a fresh one per iteration of the loops outside
    // it), not in its indices.
    std::set<const VarNode *> Written, Free;
    for (const Expr &I : St->Indices)
      for (const VarNode *V : varsOf(I))
        Written.insert(V);
    auto Outside = LoopsOutside.find(St->Buf.get());
    for (const auto &Entry : Ranges)
      if (!Written.count(Entry.first) &&
          (Outside == LoopsOutside.end() || !Outside->second.count(Entry.first)))
        Free.insert(Entry.first);
    if (!holdsForSomeFreeValue(N->Cond, Free, Ranges))
      return IRMutator::mutateIfThenElse(S, N);
    return makeStore(St->Buf, St->Indices,
                     makeLoad(St->Buf, St->Indices) +
                         makeSelect(N->Cond, Term, makeInt(0, Term->Type)));
  }

private:
  std::map<const BufferNode *, std::set<const VarNode *>> LoopsOutside; // of each allocation
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
