//===- Compile.h - From a scheduled nest to its launch descriptor -*- C++ -*-===//
//
// compileNest is the one driver the plugin and sched-opt share: it reads the
// nest's target description (targets/Target.h) and lowers the nest by its
// pipeline (Pipeline.h), emits it by its emitter, and fills in the launch
// descriptor: the lowered kernel, the target's payload and runner, the
// finals. What a caller adds is its own: the plugin's argument kinds (from
// the program's variables), dumps, files, and the replacement of the nest.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_COMPILE_H
#define SCHED_COMPILE_H

#include "Pipeline.h"
#include "ir/LaunchDescriptor.h"

#include <string>
#include <vector>

namespace sched {

struct TargetDescription;

struct CompileOptions {
  PipelineOptions Pipeline;
  /// Stop after lowering: no source, no descriptor (sched-opt --lower).
  bool LowerOnly = false;
  /// The variables the nest assigns that are declared outside it, with
  /// their final values (the plugin's extractor finds them): they go into
  /// the descriptor, checked like the launch expressions.
  std::vector<LaunchDescriptor::FinalValue> Finals;
};

/// The stages of compileNest, in order.
enum class CompileStage { Lower, Emit, Describe, Done };

struct CompiledNest {
  /// The nest's target; null when it names none that is registered.
  const TargetDescription *Target = nullptr;
  /// The stage that failed, or Done.
  CompileStage Failed = CompileStage::Done;
  /// What the failed stage said: its errors, and whatever else it reported.
  std::vector<Diag> Failure;
  /// What lowering said of a nest that lowered (remarks, warnings).
  std::vector<Diag> Notes;
  /// The target's warnings about the scheduled nest (TargetDescription::
  /// Lint: a GPU kernel that binds no loop), for a compiler's user.
  std::vector<Diag> Lints;
  /// The -Rpass=sched remark of a nest that lowered (Target->Describe).
  std::string Summary;
  /// The lowered kernel (Descriptor.Kernel) once lowering succeeded; the
  /// payload, runner, finals and one argument kind per parameter (pointer
  /// for a buffer, scalar for a scalar: what a caller without the
  /// program's variables can say) once the descriptor stage succeeded.
  LaunchDescriptor Descriptor;
  /// The emitted source (Target->Emit) once emission succeeded.
  std::string Source;
};

/// Lowers, emits and describes Scheduled by its target's description. True
/// when every stage asked for succeeded; otherwise Out.Failed and
/// Out.Failure say where and why (the nest then stays as written).
bool compileNest(const ir::LoopNest &Scheduled, const CompileOptions &Opts, CompiledNest &Out);

/// What failed, for a message: "cannot lower nest", "cannot generate CUDA"
/// (the target's language), "internal error".
std::string compileFailureHeading(const CompiledNest &Out);

} // namespace sched

#endif
