//===- Nvrtc.h - NVRTC, loaded at run time, and its kernel cache -*- C++ -*-===//
//
// Compiling an emitted CUDA kernel with NVRTC, resolved with dlopen/dlsym
// (no toolkit at build time, none needed at run time unless a kernel must be
// compiled). Two users: the cuda backend (a kernel without an image built for
// the device) and the plugin (-fplugin-arg-sched-embed: the PTX it embeds in
// the launch descriptor when the toolkit is present at compile time). Both
// go through one on-disk cache of compiled kernels (compileWithNvrtc).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_CUDA_NVRTC_H
#define SCHED_RUNTIME_CUDA_NVRTC_H

#include "ir/TargetArch.h"

#include <cstddef>
#include <string>
#include <vector>

namespace sched {
namespace cuda {

// NVRTC types.
using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram *;
constexpr nvrtcResult NVRTC_SUCCESS = 0;

struct NvrtcApi {
  nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *, const char *, const char *, int,
                                    const char *const *, const char *const *);
  nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char *const *);
  nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram, size_t *);
  nvrtcResult (*nvrtcGetPTX)(nvrtcProgram, char *);
  nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, size_t *); // may be null (old NVRTC)
  nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char *);       // may be null
  nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, size_t *);
  nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char *);
  nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *);
  const char *(*nvrtcGetErrorString)(nvrtcResult);
  nvrtcResult (*nvrtcGetNumSupportedArchs)(int *); // may be null
  nvrtcResult (*nvrtcGetSupportedArchs)(int *);    // may be null
  nvrtcResult (*nvrtcVersion)(int *, int *);       // may be null
};

/// NVRTC, loaded once (libnvrtc.so, libnvrtc.so.13, libnvrtc.so.12, then
/// <cuda home>/lib64/libnvrtc.so). Null with Error set when none loads.
const NvrtcApi *nvrtc(std::string &Error);

/// The CUDA toolkit root: $SCHED_CUDA_HOME, else the configured one.
std::string cudaHome();

/// The result of compiling one CUDA source with NVRTC: a cubin for a real
/// architecture or PTX for the driver to JIT.
struct CompiledImage {
  std::vector<char> Image;
  bool IsCubin = false;
  std::string Arch; // the --gpu-architecture value used
  /// Where it came from: "NVRTC" (compiled now) or "cache" (the on-disk
  /// kernel cache, kernelCacheDir).
  std::string Origin;
};

/// The directory compiled kernels are kept in across processes:
/// $XDG_CACHE_HOME/sched/kernels, else $HOME/.cache/sched/kernels; empty
/// (no cache) when SCHED_CACHE is 0, off, false or no, or neither variable
/// is set. An entry is named by a hash of everything the compilation reads
/// (NVRTC's version, the architecture and options, the kernel's name and
/// source), holds a header that says what it is and how long, and is
/// written to a temporary file and renamed into place, so processes that
/// compile the same kernel at once never read half an entry; an entry that
/// does not read back whole is compiled again.
std::string kernelCacheDir();

/// Compiles Source (a self-contained .cu) named Name for exactly the
/// --gpu-architecture Arch (sm_XY or sm_90a: a cubin; compute_XY: PTX),
/// through the kernel cache. False with Error (holding NVRTC's log) on
/// failure.
bool compileForArch(const std::string &Source, const std::string &Name, const std::string &Arch,
                    CompiledImage &Out, std::string &Error);

/// The --gpu-architecture NVRTC is given for one kernel on one device.
struct ArchChoice {
  std::string Arch;   // sm_XY / sm_90a (a cubin) or compute_XY (PTX the driver JITs)
  bool Exact = false; // a real architecture: NVRTC can give a cubin
};

/// Decides what to compile Kernel for, and whether it may run at all; pure,
/// so tests give it fake devices and NVRTCs. DeviceArch: the device's
/// compute capability (major*10 + minor). Requested: the descriptor's target
/// architecture (-fplugin-arg-sched-arch), possibly unset. MinArch: the
/// oldest architecture the kernel's instructions exist on
/// (minimumComputeCapability). Supported: what NVRTC lists (empty when it
/// cannot say: every architecture is assumed known).
///
/// Unset: the device's architecture, or PTX for the newest one NVRTC knows
/// below it. Set: exactly that architecture, and an error naming the kernel
/// and both architectures when the device is older, when an sm_XYa target
/// meets any other device than sm_XY, or when NVRTC cannot compile it; a
/// device of a newer major version gets the target's PTX (a cubin runs only
/// within its major version). Any architecture older than MinArch is an
/// error. False with Error otherwise.
bool chooseArch(const std::string &Kernel, int DeviceArch, const TargetArch &Requested,
                int MinArch, const std::vector<int> &Supported, ArchChoice &Out,
                std::string &Error);

/// Compiles Source (a self-contained .cu) named Name for a device of compute
/// capability Major.Minor, with the architecture chooseArch picks (MinArch
/// and Requested as there). False with Error (holding NVRTC's log) on
/// failure.
bool compileWithNvrtc(const std::string &Source, const std::string &Name, int Major, int Minor,
                      CompiledImage &Out, std::string &Error, int MinArch = 0,
                      const TargetArch &Requested = TargetArch());

} // namespace cuda
} // namespace sched

#endif // SCHED_RUNTIME_CUDA_NVRTC_H
