//===- KernelReport.h - What each kernel costs, measured by ptxas -*- C++ -*-===//
//
// -fplugin-arg-sched-report: for each kernel the plugin makes, the registers,
// spills, stack and static shared memory ptxas gives it on each architecture
// the program embeds (EmbedKernels.h: embed-archs=, else arch=, else the
// oldest the kernel runs on), printed as a remark at the nest and written to
// the nest's optimization record under emit-dir. The PTX is the embedded
// image where there is one, else NVRTC's; ptxas is $SCHED_PTXAS, else the
// toolkit's (<cuda home>/bin/ptxas), else the one on PATH.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PLUGIN_KERNELREPORT_H
#define SCHED_PLUGIN_KERNELREPORT_H

#include "PluginOptions.h"
#include "ir/LaunchDescriptor.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sched {

/// What ptxas -v says of one kernel on one architecture.
struct KernelResources {
  std::string Kernel, Arch; // Arch: the real architecture ptxas compiled for (sm_80)
  int Registers = 0;
  int64_t SpillStoreBytes = 0, SpillLoadBytes = 0, StackBytes = 0, SharedBytes = 0;
};

/// The kernels of `ptxas -v` output, in its order (stdout and stderr
/// together); a field ptxas did not print stays 0.
std::vector<KernelResources> parsePtxasVerbose(llvm::StringRef Text);

/// One line of the report: "kernel 'k' for sm_80: 40 registers, ...".
std::string describe(const KernelResources &R);

/// Measures D's kernel on each architecture Opts embeds for. False with
/// Error when there is no NVRTC or ptxas, or ptxas fails; true with nothing
/// when D runs no CUDA kernel.
bool measureKernelResources(const LaunchDescriptor &D, const PluginOptions &Opts,
                            std::vector<KernelResources> &Out, std::string &Error);

} // namespace sched

#endif
