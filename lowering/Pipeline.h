//===- Pipeline.h - From a scheduled nest to a launchable kernel -*- C++ -*-===//
//
// Pipeline.cpp is the pass driver: how a scheduled nest is lowered by its
// target's passes (targets/), one pass at a time. Read it first. The driver
// that goes on to emit the kernel and its launch descriptor is compileNest
// (Compile.h).
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

/// Which runner of the runtime runs a lowered nest (TargetDescription::Runner,
/// carried by LaunchDescriptor::Runner): a kernel, launched over its
/// geometry with its buffer regions moved (cuda, sim or host), or a VTA
/// program, run by the VTA runtime.
enum class RunnerKind : uint8_t { Kernel, VtaProgram };

struct LoweredKernel {
  ir::LoopNest Kernel;             // flattened, thread loops still as bound Fors
  LaunchGeometry Geometry;
  std::vector<BufferRegion> Regions;
  /// The architecture NVRTC must compile for and the device must have
  /// (PipelineOptions::Arch); unset: the device's own.
  TargetArch Arch;
};

struct PipelineOptions {
  /// Called after every pass with its name when set (print-after-all);
  /// Changed is false when the pass returned the nest it was given (the
  /// mutator keeps a subtree it did not change: one pointer comparison).
  std::function<void(const std::string &Pass, const ir::LoopNest &, bool Changed)> AfterPass;
  /// Runs the target's verifier after every pass with the form the passes
  /// so far established (a test and debugging aid: sched-opt --verify-each,
  /// the plugin's verify-each); a malformed nest is an error naming the pass
  /// that made it. A pass's required form is checked before it runs in
  /// every case.
  bool VerifyEach = false;
  /// The target architecture (-fplugin-arg-sched-arch, sched-opt --arch);
  /// unset when none was asked for. Passes read it as L.Opts.Arch (a
  /// choice that needs sm_80+, like mma.sync, checks Arch.Number >= 80);
  /// it reaches LoweredKernel::Arch.
  TargetArch Arch;
};

/// Lowers a scheduled nest by its target's pipeline. Returns false if the
/// nest cannot be lowered; Diags says why (the frontend then keeps the
/// original loop with a warning).
bool lower(const ir::LoopNest &Scheduled, const PipelineOptions &Opts,
           LoweredKernel &Out, std::vector<Diag> &Diags);

/// Runs exactly the registered passes named in Passes, in order, on Nest
/// (sched-opt --passes): each from the form it requires (checked first), the
/// kernel context recomputed from the IR where a pass reads it. Out.Kernel is
/// the nest after the last pass that ran; Out.Geometry the launch geometry
/// when a pass computed it (null extents otherwise), Out.Regions the regions
/// a pass computed. False, with Diags saying why, when a name is unknown
/// (the error lists the registered ones), a pass's input is not in its
/// required form, or a pass fails.
bool runPasses(const ir::LoopNest &Nest, const std::vector<std::string> &Passes,
               const PipelineOptions &Opts, LoweredKernel &Out, std::vector<Diag> &Diags);

} // namespace sched

#endif
