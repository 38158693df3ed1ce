//===- CodeGenVTA.h - C++ calling the VTA runtime for a lowered program -*- C++ -*-===//
#ifndef SCHED_CODEGEN_CODEGENVTA_H
#define SCHED_CODEGEN_CODEGENVTA_H

#include "ir/Diag.h"
#include "ir/Kernel.h"
#include <string>
#include <vector>

namespace sched {

/// A self-contained C++ translation unit for a lowered target(vta) program
/// (final form, ir/Vta.h): `extern "C"` declarations of the VTA runtime
/// functions it calls (the published signatures; no TVM header), one
/// `static void *` handle and one `finit` per uop kernel, and
///     extern "C" int <K.Kernel.Name>(<buffers as pointers, scalars>)
/// which does what runtime/vta/VtaLauncher does: allocates and copies in
/// each region, makes the calls, and after VTASynchronize copies the written
/// regions back and frees. It returns 0 on success, 1 when the runtime
/// reports an error (VTASchedLastError, declared weak: a board's runtime
/// lacks sched's extensions, and then nothing is checked). It links against
/// libsched_runtime or a board's VTA runtime. False, with an error Diag, for
/// what it cannot express (a value that is not integer arithmetic).
bool emitVTA(const LoweredKernel &K, std::string &Out, std::vector<Diag> &Diags);

} // namespace sched

#endif
