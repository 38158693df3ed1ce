//===- CodeGenCUDA.h - CUDA C for a lowered kernel -------------*- C++ -*-===//
#ifndef SCHED_CODEGEN_CODEGENCUDA_H
#define SCHED_CODEGEN_CODEGENCUDA_H

#include "Pipeline.h"
#include <string>

namespace sched {

/// A self-contained .cu translation unit holding one `extern "C" __global__`
/// kernel named K.Kernel.Name; nvcc and NVRTC compile it on their own.
std::string emitCUDA(const LoweredKernel &K);

} // namespace sched

#endif
