//===- TargetArch.h - The GPU architecture a kernel is built for -*- C++ -*-===//
//
// `-fplugin-arg-sched-arch=sm_XY` (sched-opt --arch=sm_XY) names the GPU
// architecture the kernels of a translation unit are built for. It travels
// from the option through PipelineOptions (what a pass may read, e.g. to pick
// mma.sync on sm_80+) into LoweredKernel, the launch descriptor and the
// emitted .cu, and at run time NVRTC compiles for exactly it and the device is
// checked against it (runtime/cuda/CudaApi.h). Unset (the default) keeps the
// old behaviour: NVRTC compiles for whatever device it finds.
//
// Only the architectures with tensor cores the backends know are accepted;
// an `a` suffix (sm_90a) is an architecture-specific target whose code runs
// on that exact compute capability only.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_TARGETARCH_H
#define SCHED_IR_TARGETARCH_H

#include <string>

namespace sched {

struct TargetArch {
  /// Compute capability as major*10 + minor (80 for sm_80); 0 when unset.
  int Number = 0;
  /// The `a` suffix: architecture-specific features (wgmma, setmaxnreg),
  /// code that runs on exactly this compute capability.
  bool Specific = false;

  bool isSet() const { return Number != 0; }
  /// "sm_90a"; "" when unset.
  std::string name() const;
};

/// The accepted names, for messages: "sm_75|sm_80|sm_86|sm_89|sm_90|sm_90a".
std::string targetArchNames();

/// Parses one of targetArchNames(); false (Out untouched) for anything else.
bool parseTargetArch(const std::string &Name, TargetArch &Out);

} // namespace sched

#endif
