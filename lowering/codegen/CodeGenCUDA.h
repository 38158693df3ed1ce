//===- CodeGenCUDA.h - CUDA C for a lowered kernel -------------*- C++ -*-===//
#ifndef SCHED_CODEGEN_CODEGENCUDA_H
#define SCHED_CODEGEN_CODEGENCUDA_H

#include "ir/Diag.h"
#include "ir/Kernel.h"
#include <string>
#include <vector>

namespace sched {

/// A self-contained .cu translation unit holding one `extern "C" __global__`
/// kernel named K.Kernel.Name; nvcc and NVRTC compile it on their own.
/// False, with an error Diag for each, when the kernel holds what CUDA cannot
/// express (a fragment buffer used with two shapes or two layouts, ...).
bool emitCUDA(const LoweredKernel &K, std::string &Out, std::vector<Diag> &Diags);

/// The same, for callers that report nothing themselves: a kernel CUDA
/// cannot express becomes a unit of `#error` lines carrying the Diags, so
/// that compiling it fails with the reason and never runs a guess.
std::string emitCUDA(const LoweredKernel &K);

/// The oldest compute capability (major*10 + minor) the emitted kernel runs
/// on: 70 for half wmma, 72 for 8-bit integer wmma, 0 when nothing in it
/// needs a particular one.
int minimumComputeCapability(const ir::LoopNest &Kernel);

} // namespace sched

#endif
