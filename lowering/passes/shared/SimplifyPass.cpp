//===- SimplifyPass.cpp - Simplify the whole kernel ----------------------===//
//
// Normalization, virtual-thread injection and cooperative fetch leave index
// arithmetic such as (io*8 + 0) + ii; simplifying here keeps the CUDA readable
// and gives thread sync (which runs next) expressions in canonical form
// (StorageFlatten simplifies the flat indices it builds itself). All the
// work is ir::simplify's: the project has one simplifier.
//
//===----------------------------------------------------------------------===//
#include "ir/Simplify.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

ir::LoopNest simplifyNest(const ir::LoopNest &Nest) {
  ir::LoopNest Out = Nest;
  Out.Body = ir::simplify(Nest.Body);
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
