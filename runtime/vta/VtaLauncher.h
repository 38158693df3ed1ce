//===- VtaLauncher.h - Runs a lowered VTA program on the VTA runtime -*- C++ -*-===//
//
// The sim (and auto) backend of a target(vta) nest: walks the final-form
// program (lowering/ir/Vta.h, checked by VerifyVtaProgram) and makes its
// calls on the VTA runtime C API (vta_runtime.h), exactly as the C++ that
// codegen/CodeGenVTA emits does: VTABufferAlloc and a host-to-device copy
// for each region, the calls in program order with VTATLSCommandHandle() as
// the command handle, and after vta.synchronize a check of
// VTASchedLastError(), the copy back of the written regions and the frees.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_VTA_VTALAUNCHER_H
#define SCHED_RUNTIME_VTA_VTALAUNCHER_H

#include "ir/Kernel.h"
#include "ir/Vta.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sched {
namespace runtime {

/// The static uop-kernel handles of one launch site (generated code has one
/// `static void *` per Push call): one per Push call of the program, kept
/// for the life of the process, as the VTA runtime caches kernels by handle.
class VtaHandles {
public:
  struct PushSite {
    void *Handle = nullptr; // the runtime's, never freed (process life)
    ir::VtaUopKernel Kernel;
    ir::Var Signature; // the variable the uop indices use; null for none
  };
  std::mutex Lock; // one launch of the site at a time (the handles are shared)
  std::map<const ir::CallNode *, std::unique_ptr<PushSite>> Sites;
};

/// Runs K (a final-form VTA program) with the data pointers of its
/// parameters (paramDataFromArgs). False with Error set when an expression
/// cannot be evaluated, a DMA would leave its buffer, or the VTA runtime
/// reports an error (a violated limit, a token deadlock).
bool runVtaKernel(const LoweredKernel &K, VtaHandles &Handles, const std::vector<void *> &Data,
                  std::string &Error);

} // namespace runtime
} // namespace sched

#endif
