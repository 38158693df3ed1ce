//===- EmuBackend.h - Running the emitted CUDA on the CPU -------*- C++ -*-===//
//
// The `emu` backend: a kernel's emitted CUDA source (the descriptor's
// Payload, exactly what NVRTC compiles under `cuda`) is compiled as host
// C++ against sched_cuda_emu.h into a shared object, loaded, and run on the
// fiber scheduler (EmuScheduler.h) with the launch's grid and block. It
// tests the CUDA emitter itself, which the simulator (it runs the IR) never
// sees.
//
// The compiler is $SCHED_EMU_CXX (default clang++-19); the headers come from
// $SCHED_EMU_INCLUDE (default: runtime/emu of the source tree this runtime
// was built from). Objects are cached by a hash of the source, the compiler
// and the headers in $SCHED_EMU_CACHE (default $TMPDIR/sched-emu-<uid>), so
// a kernel is compiled once, not once per run.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_EMU_EMUBACKEND_H
#define SCHED_RUNTIME_EMU_EMUBACKEND_H

#include "EmuScheduler.h"
#include "ir/LaunchPlan.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sched {
namespace emu {

/// A kernel's loaded object, or why there is none.
struct CompiledKernel;

/// The compiled kernel of one launch site, built on its first launch.
struct KernelCache {
  std::mutex Lock;
  std::shared_ptr<CompiledKernel> Kernel;
};

/// Compiles and loads CUDA Source whose kernel is the `extern "C"` function
/// KernelName. Never null; see compileError.
std::shared_ptr<CompiledKernel> compileKernel(const std::string &Source,
                                              const std::string &KernelName);

/// Empty when K loaded, else what failed (the compiler's first lines too).
const std::string &compileError(const CompiledKernel &K);

/// Runs K over the grid with Args as cuLaunchKernel takes them (Args[i]
/// points at parameter i's value; a buffer's value is its host pointer).
/// Regions: see KernelImage.
bool runKernel(const CompiledKernel &K, const unsigned Grid[3], const unsigned Block[3],
               void **Args, EmuStats &Stats, std::string &Error,
               std::vector<std::pair<const char *, const char *>> Regions = {});

/// One launch of D's kernel with ParamData (one data pointer per parameter,
/// as the simulator takes them). False with Error otherwise; Touched says
/// whether the kernel had started on the program's arrays (a compile error
/// comes before: the original loop may still run).
bool launch(const LaunchPlan &D, KernelCache &Cache, const std::vector<void *> &ParamData,
            EmuStats &Stats, std::string &Error, bool &Touched);

} // namespace emu
} // namespace sched

#endif // SCHED_RUNTIME_EMU_EMUBACKEND_H
