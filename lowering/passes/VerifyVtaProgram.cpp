//===- VerifyVtaProgram.cpp - (target(vta); being written) --------------===//
//
// See Passes.h and ir/Vta.h. A stub until the pass is written.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace sched {
namespace passes {

bool verifyVtaProgram(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  (void)Nest;
  (void)Diags;
  return true;
}

std::vector<BufferRegion> computeVtaBufferRegions(const ir::LoopNest &Nest) {
  (void)Nest;
  return {};
}

} // namespace passes
} // namespace sched
