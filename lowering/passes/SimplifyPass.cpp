//===- SimplifyPass.cpp - Simplify the whole kernel ----------------------===//
//
// Normalization and flattening leave index arithmetic such as
// ((io*8 + 0) + ii)*K + k; simplifying here keeps the CUDA readable and gives
// the region analysis (which runs next) expressions in canonical form. All the
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

} // namespace passes
} // namespace sched
