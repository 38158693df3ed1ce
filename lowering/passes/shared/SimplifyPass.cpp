//===- SimplifyPass.cpp - Simplify the whole kernel ----------------------===//
//
// Normalization, virtual-thread injection and cooperative fetch leave index
// arithmetic such as (io*8 + 0) + ii; simplifying here keeps the CUDA readable
// and gives thread sync (which runs next) expressions in canonical form
// (StorageFlatten simplifies the flat indices it builds itself). Lets of
// index arithmetic (the flat thread number `As.f = As.k*64 + ty*8 + tx` of
// a cooperative fetch) are substituted into their uses first, so that the
// simplifier sees the loop variables they are made of and, from their
// ranges, turns `As.f/8` into `As.k*8 + ty` and `As.f % 8` into `tx`: the
// fetch's div and mod cost nothing then. All the work is ir::simplify's: the
// project has one simplifier.
//
//===----------------------------------------------------------------------===//
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Simplify.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

namespace {

/// A let of index arithmetic: an integer computed from variables and
/// constants alone (no load, no call).
bool isIndexArithmetic(const ir::LetStmtNode *N) {
  return ir::isInt(N->Value->Type) && !ir::dependsOnMemory(N->Value);
}

} // namespace

ir::LoopNest simplifyNest(const ir::LoopNest &Nest) {
  ir::LoopNest Out = Nest;
  Out.Body = ir::simplify(ir::inlineLets(Nest.Body, isIndexArithmetic));
  return Out;
}

const Pass SimplifyPass = {
    "Simplify", /*Requires=*/FormAny, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      S.Nest = simplifyNest(S.Nest);
      return true;
    }};

} // namespace passes
} // namespace sched
