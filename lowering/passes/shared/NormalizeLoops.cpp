//===- NormalizeLoops.cpp - Make every loop start at zero ----------------===//
//
// Later passes and codegen assume `for (v, 0, extent)`: a thread-bound loop's
// variable is then exactly threadIdx/blockIdx, launch extents are the loop
// extents, and CUDA loops are `for (int v = 0; v < e; ++v)`. A loop
// `for (v, m, e)` with m != 0 gets a fresh variable v' (same name) and its
// body reads v' + m wherever it read v. Schedule primitives already produce
// zero-based loops, so this usually changes only loops the user wrote with a
// non-zero start.
//
//===----------------------------------------------------------------------===//
#include "ir/IRMutator.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

namespace {

class LoopNormalizer : public ir::IRMutator {
protected:
  ir::Stmt mutateFor(const ir::Stmt &S, const ir::ForNode *N) override {
    ir::Stmt Body = mutate(N->Body);
    int64_t MinValue;
    if (ir::getConstInt(N->Min, MinValue) && MinValue == 0) {
      if (Body == N->Body)
        return S;
      return ir::withBody(N, Body);
    }
    ir::Var Shifted = ir::makeVar(N->LoopVar->Name, N->LoopVar->Type);
    std::map<const ir::VarNode *, ir::Expr> Map;
    Map[N->LoopVar.get()] = ir::simplify(ir::Expr(Shifted) + N->Min);
    ir::Stmt NewBody = ir::substitute(Body, Map);
    return ir::withVar(N, Shifted, ir::makeInt(0, N->LoopVar->Type), N->Extent, NewBody);
  }
};

} // namespace

ir::LoopNest normalizeLoops(const ir::LoopNest &Nest) {
  ir::LoopNest Out = Nest;
  Out.Body = LoopNormalizer().mutate(Nest.Body);
  return Out;
}

const Pass NormalizeLoopsPass = {
    "NormalizeLoops", /*Requires=*/FormAny, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      S.Nest = normalizeLoops(S.Nest);
      return true;
    }};

} // namespace passes
} // namespace sched
