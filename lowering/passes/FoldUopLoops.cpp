//===- FoldUopLoops.cpp - (target(vta); being written) ----------------------------===//
//
// See Passes.h and ir/Vta.h. A stub that returns its input until the pass
// is written.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace sched {
namespace passes {

ir::LoopNest foldUopLoops(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  (void)Diags;
  return Nest;
}

} // namespace passes
} // namespace sched
