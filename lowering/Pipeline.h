//===- Pipeline.h - From a scheduled nest to a launchable kernel -*- C++ -*-===//
//
// Pipeline.cpp lists every lowering pass in order, per target. Read it first.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PIPELINE_H
#define SCHED_PIPELINE_H

#include "codegen/TargetArch.h"
#include "ir/IR.h"
#include "schedule/Schedule.h"
#include <functional>
#include <string>
#include <vector>

namespace sched {

/// How a kernel is launched: grid and block extents, each an expression over
/// the nest's scalar parameters (1 where the dimension is unused).
struct LaunchGeometry {
  ir::Expr Grid[3];
  ir::Expr Block[3];
};

/// What the launcher must move for one buffer parameter: elements
/// [Min, Min + Extent) of the flattened buffer (both over scalar
/// parameters), and whether the kernel reads and/or writes them.
struct BufferRegion {
  std::string Param;
  /// The region is the flat elements [Min, Min + Extent) of the argument.
  /// Min is null for 0; it is negative where the kernel reads or writes below
  /// the pointer it was given (`x[i + off]` with off < 0: legal C++ for a
  /// pointer into the middle of an array).
  ir::Expr Min;
  ir::Expr Extent;
  bool Read = false, Written = false;
};

struct LoweredKernel {
  ir::LoopNest Kernel;             // flattened, thread loops still as bound Fors
  LaunchGeometry Geometry;
  std::vector<BufferRegion> Regions;
  /// The architecture NVRTC must compile for and the device must have
  /// (PipelineOptions::Arch); unset: the device's own.
  TargetArch Arch;
};

struct PipelineOptions {
  /// Called after every pass with its name when set (print-after-all).
  std::function<void(const std::string &Pass, const ir::LoopNest &)> AfterPass;
  /// Runs the kernel verifier after every pass (a test and debugging aid:
  /// sched-opt --verify-each, the plugin's verify-each); a malformed kernel
  /// is an error naming the pass that made it.
  bool VerifyEach = false;
  /// The target architecture (-fplugin-arg-sched-arch, sched-opt --arch);
  /// unset when none was asked for. Passes read it as L.Opts.Arch (a
  /// choice that needs sm_80+, like mma.sync, checks Arch.Number >= 80);
  /// it reaches LoweredKernel::Arch.
  TargetArch Arch;
};

/// Lowers a scheduled nest. Returns false if the nest cannot be lowered; Diags
/// says why (the frontend then keeps the original loop with a warning).
bool lower(const ir::LoopNest &Scheduled, const PipelineOptions &Opts,
           LoweredKernel &Out, std::vector<Diag> &Diags);

} // namespace sched

#endif
