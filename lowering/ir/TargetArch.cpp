//===- TargetArch.cpp - Names of the GPU architectures sched targets ------===//
//
// One table of the accepted names, so the plugin, sched-opt, the launch
// descriptor and the runtime agree on what `sm_XY` means.
//
//===----------------------------------------------------------------------===//
#include "ir/TargetArch.h"

namespace sched {

namespace {

struct KnownArch {
  const char *Name;
  TargetArch Arch;
};

// Turing and newer: every architecture with the wmma shapes the lowering
// emits (fp16 from sm_70, int8 from sm_72) that current NVRTCs still compile.
const KnownArch Known[] = {
    {"sm_75", {75, false}}, {"sm_80", {80, false}}, {"sm_86", {86, false}},
    {"sm_89", {89, false}}, {"sm_90", {90, false}}, {"sm_90a", {90, true}},
};

} // namespace

std::string targetArchNames() {
  std::string Names;
  for (const KnownArch &K : Known)
    Names += (Names.empty() ? "" : "|") + std::string(K.Name);
  return Names;
}

std::string TargetArch::name() const {
  if (!isSet())
    return "";
  return "sm_" + std::to_string(Number) + (Specific ? "a" : "");
}

bool parseTargetArch(const std::string &Name, TargetArch &Out) {
  for (const KnownArch &K : Known)
    if (Name == K.Name) {
      Out = K.Arch;
      return true;
    }
  return false;
}

} // namespace sched
