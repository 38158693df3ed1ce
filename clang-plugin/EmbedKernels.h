//===- EmbedKernels.h - Kernels compiled when the program is built -*- C++ -*-===//
//
// Where the CUDA toolkit's NVRTC loads at compile time, the plugin compiles
// each kernel's CUDA payload to PTX and puts it in the launch descriptor
// (LaunchPlan::Images), so the program loads it with the driver and never
// starts NVRTC (runtime/cuda/CudaBackend.cpp). Options: embed=0 turns it off;
// embed-archs=sm_80,sm_90a gives the architectures (default: the arch=
// option's, else the oldest the kernel runs on, at least sm_75).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PLUGIN_EMBEDKERNELS_H
#define SCHED_PLUGIN_EMBEDKERNELS_H

#include "PluginOptions.h"
#include "ir/LaunchDescriptor.h"

#include <string>
#include <vector>

namespace sched {

/// The architectures D's kernel is compiled for at build time under Opts
/// (those it cannot run on left out).
std::vector<TargetArch> buildTimeArchs(const LaunchDescriptor &D, const PluginOptions &Opts);

/// The virtual architecture of Arch's PTX (sm_90a: compute_90a).
std::string virtualArch(const TargetArch &Arch);

/// D's kernel compiled to PTX for the virtual architecture Virtual
/// (compute_80) by the runtime's NVRTC, which the caller has checked loads
/// (cuda::nvrtc). False with NVRTC's log in Error when it does not compile.
/// The one compile the embedded images and the kernel report share.
bool compileKernelToPtx(const LaunchDescriptor &D, const std::string &Virtual, std::string &Ptx,
                        std::string &Error);

/// Adds D's images for Opts. False with Error when NVRTC loaded but could
/// not compile the kernel for one of them (the kernel is then compiled when
/// it first runs, where that fails the same way); true, with no image, when
/// embedding is off, D's runner compiles no payload, or there is no NVRTC.
bool embedKernelImages(LaunchDescriptor &D, const PluginOptions &Opts, std::string &Error);

} // namespace sched

#endif
