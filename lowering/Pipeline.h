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

#include "ir/Diag.h"
#include "ir/IR.h"
#include "ir/Kernel.h"
#include "ir/TargetArch.h"
#include <functional>
#include <string>
#include <vector>

namespace sched {

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
