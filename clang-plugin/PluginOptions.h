//===- PluginOptions.h - Options of the sched Clang plugin -----*- C++ -*-===//
//
// What `-fplugin-arg-sched-<opt>` asked for. Plugin.cpp parses the arguments
// into this struct; the consumer reads it to decide what to dump and where to
// write generated files. Kept separate so neither needs the other's header.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PLUGIN_PLUGINOPTIONS_H
#define SCHED_PLUGIN_PLUGINOPTIONS_H

#include "codegen/TargetArch.h"

#include <string>

namespace sched {

struct PluginOptions {
  bool DumpIR = false;        // dump=ir: the nest as extracted
  bool DumpScheduled = false; // dump=scheduled: after the schedule
  bool DumpLowered = false;   // dump=lowered: after the lowering pipeline
  bool DumpCUDA = false;      // dump=cuda: the generated kernel source
  bool DumpVTA = false;       // dump=vta: the C++ calling the VTA runtime (target(vta))
  bool PrintAfterAll = false; // print-after-all: after every stage and pass
  bool VerifyEach = false;    // verify-each: the kernel verifier after every pass
  std::string EmitDir;        // emit-dir=DIR: write <DIR>/<nest>.cu (.vta.cpp)/.desc
  TargetArch Arch;            // arch=sm_XY: what NVRTC compiles for (unset: the device)
};

} // namespace sched

#endif
