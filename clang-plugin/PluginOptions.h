//===- PluginOptions.h - Options of the sched Clang plugin -----*- C++ -*-===//
//
// What `-fplugin-arg-sched-<opt>` asked for. Plugin.cpp parses the arguments
// into this struct; the consumer reads it to decide what to dump and where to
// write generated files. Kept separate so neither needs the other's header.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PLUGIN_PLUGINOPTIONS_H
#define SCHED_PLUGIN_PLUGINOPTIONS_H

#include "ir/TargetArch.h"

#include <set>
#include <vector>
#include <string>

namespace sched {

struct PluginOptions {
  bool DumpIR = false;        // dump=ir: the nest as extracted
  bool DumpScheduled = false; // dump=scheduled: after the schedule
  bool DumpLowered = false;   // dump=lowered: after the lowering pipeline
  /// dump=<emit kind>: the source a target's emitter made (cuda: the kernel;
  /// vta: the C++ calling the VTA runtime), by TargetDescription::EmitKind.
  std::set<std::string> DumpEmitted;
  bool PrintAfterAll = false; // print-after-all: after every stage and pass
  bool VerifyEach = false;    // verify-each: the target's verifier after every pass
  std::string EmitDir;        // emit-dir=DIR: write <DIR>/<nest><target's extension>, <nest>.desc
  TargetArch Arch;            // arch=sm_XY: what NVRTC compiles for (unset: the device)
  /// embed=0|1: compile each kernel to PTX now, where NVRTC loads, and put it
  /// in the program (EmbedKernels.h); on by default.
  bool Embed = true;
  /// embed-archs=sm_80,sm_90a: the architectures of the embedded PTX.
  std::vector<TargetArch> EmbedArchs;
  /// report: each kernel's registers, spills, stack and shared memory on
  /// those architectures, by ptxas (KernelReport.h).
  bool Report = false;
};

} // namespace sched

#endif
