//===- EmbedKernels.cpp - Kernels compiled when the program is built ------===//
//
// See EmbedKernels.h. The compiler is the runtime's (cuda/Nvrtc.h): the same
// NVRTC options and the same on-disk cache, so a kernel built here is the
// one the runtime would compile.
//
//===----------------------------------------------------------------------===//
#include "EmbedKernels.h"

#include "cuda/Nvrtc.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace sched {

std::vector<TargetArch> buildTimeArchs(const LaunchDescriptor &D, const PluginOptions &Opts) {
  std::vector<TargetArch> Archs = Opts.EmbedArchs;
  if (Archs.empty()) {
    TargetArch Oldest;
    Oldest.Number = std::max(75, D.MinCapability);
    Archs.push_back(D.Kernel.Arch.isSet() ? D.Kernel.Arch : Oldest);
  }
  Archs.erase(std::remove_if(Archs.begin(), Archs.end(),
                             [&](const TargetArch &A) { return A.Number < D.MinCapability; }),
              Archs.end()); // the kernel cannot run there
  return Archs;
}

std::string virtualArch(const TargetArch &Arch) { return "compute_" + Arch.name().substr(3); }

bool compileKernelToPtx(const LaunchDescriptor &D, const std::string &Virtual, std::string &Ptx,
                        std::string &Error) {
  cuda::CompiledImage Image;
  if (!cuda::compileForArch(D.Payload, D.Kernel.Kernel.Name, Virtual, Image, Error))
    return false;
  // PTX is text: the image ends at its terminating NUL.
  Ptx.assign(Image.Image.data(), ::strnlen(Image.Image.data(), Image.Image.size()));
  return true;
}

bool embedKernelImages(LaunchDescriptor &D, const PluginOptions &Opts, std::string &Error) {
  if (!Opts.Embed || D.Runner != RunnerKind::Kernel || D.Payload.empty())
    return true;
  std::string NoNvrtc;
  if (!cuda::nvrtc(NoNvrtc))
    return true; // no toolkit here: the program compiles its kernels when they run
  for (const TargetArch &Arch : buildTimeArchs(D, Opts)) {
    std::string Virtual = virtualArch(Arch), Ptx;
    if (!compileKernelToPtx(D, Virtual, Ptx, Error)) {
      Error = "cannot compile the kernel for " + Virtual + " now (it is compiled when it "
              "first runs): " + Error;
      return false;
    }
    D.Images.push_back({Virtual, std::move(Ptx)});
  }
  return true;
}

} // namespace sched
