//===- Target.h - A target, described in one place -------------*- C++ -*-===//
//
// A target (what `target(...)` names) is a description, not a set of edits
// across the compiler (Exo's platforms/): one TargetDescription per target
// says which passes lower it, which verifier checks its forms, how it is
// emitted and into which file, what its launch descriptor carries and which
// runner of the runtime runs it, and which of the schedule's vocabulary
// (memory scopes, tensor intrinsics, loop pragmas) belongs to it alone.
// The drivers read it: the pass driver (Pipeline.cpp) and compileNest
// (Compile.h), which the plugin and sched-opt share; the schedule asks it
// whether a directive fits the nest's target. Nothing else knows a target's
// name.
//
// The built-in targets are gpu (GPU.cpp) and vta (VTA.cpp); registerTarget
// adds another without touching a driver (test/unit/TargetRegistryTest.cpp
// registers a throwaway one).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_TARGETS_TARGET_H
#define SCHED_TARGETS_TARGET_H

#include "Pipeline.h"
#include "ir/IR.h"
#include "ir/Diag.h"

#include <string>
#include <vector>

namespace sched {
namespace passes {
struct LoweringState;
} // namespace passes

struct TargetDescription {
  /// What `target(...)` takes and the textual IR's `target=` holds.
  std::string Name;

  /// The pipeline: registered pass names (passes/Pass.h), in order.
  std::vector<std::string> Passes;

  /// The verifier: appends to Diags what does not hold of State.Nest in
  /// Form (bits of this target's forms; each form includes those before it)
  /// and returns false then. It may fill in what the forms promise besides
  /// the IR (the GPU's kernel context) from the IR. The pass driver runs it
  /// on a pass's input with the form the pass requires, and after every pass
  /// under verify-each.
  bool (*Verify)(passes::LoweringState &State, unsigned Form, std::vector<Diag> &Diags) = nullptr;

  /// The emitter: the lowered nest as source text in Language ("CUDA"),
  /// shown by `dump=<EmitKind>` and `sched-opt --emit=<EmitKind>`, written
  /// by `emit-dir=` as <nest><FileExtension>.
  bool (*Emit)(const LoweredKernel &K, std::string &Source, std::vector<Diag> &Diags) = nullptr;
  std::string EmitKind;
  std::string Language;
  std::string FileExtension;

  /// The launch descriptor's payload: whether the emitted source travels in
  /// it (LaunchDescriptor::Payload; the cuda backend compiles it with
  /// NVRTC). Otherwise the runner reads the lowered IR alone.
  bool SourceInDescriptor = false;
  /// The least compute capability the payload needs (LaunchDescriptor::
  /// MinCapability: the runtime checks the device against it without
  /// reading the IR); null when the target has no such requirement.
  int (*MinCapability)(const LoweredKernel &K) = nullptr;
  /// Which runner of the runtime runs the nest (LaunchDescriptor::Runner).
  RunnerKind Runner = RunnerKind::Kernel;

  /// Warnings about a nest that lowered (GPU: a kernel that binds no loop
  /// to the GPU's threads); null when the target has none.
  void (*Lint)(const ir::LoopNest &Scheduled, std::vector<Diag> &Diags) = nullptr;
  /// The -Rpass=sched remark of a nest that lowered: what it became.
  std::string (*Describe)(const ir::LoopNest &Scheduled, const LoweredKernel &K) = nullptr;

  /// What of the schedule's vocabulary only this target has: memory scopes
  /// a stage may be cached in, tensor intrinsics tensorize takes, loop
  /// pragmas. The schedule refuses them under another target, saying which
  /// target they need.
  std::vector<ir::Scope> Scopes;
  std::vector<std::string> TensorIntrinsics;
  std::vector<std::string> LoopPragmas;
};

/// Adds T to the targets (after gpu and vta); false (nothing added) when a
/// target of that name, or of that EmitKind, exists already.
bool registerTarget(const TargetDescription &T);

/// Removes a target registerTarget added (a test's throwaway target, so it
/// leaves no trace in the messages of later tests); false for a built-in or
/// unknown one.
bool unregisterTarget(const std::string &Name);

/// The target named Name, or null; the default target for an empty Name
/// (a nest that names none: ir::LoopNest::Target empty).
const TargetDescription *findTarget(const std::string &Name);

/// The target of a nest without `target(...)`: the first built-in one (gpu).
/// The plugin's extractor names it in every nest it makes.
const TargetDescription &defaultTarget();

/// Every target, in registration order (gpu, vta, then registered ones).
std::vector<const TargetDescription *> registeredTargets();

/// "gpu or vta": the target names for a message.
std::string targetNameList();

/// Every target's tensor intrinsics, and loop pragmas, in registration
/// order: what tensorize(x, ...) and pragma(x, ...) take at all.
std::vector<std::string> allTensorIntrinsics();
std::vector<std::string> allLoopPragmas();

/// "a, b or c".
std::string orList(const std::vector<std::string> &Items);

/// The target whose vocabulary has the scope, tensor intrinsic, loop pragma
/// or emit kind; null when none does (a scope every target has).
const TargetDescription *targetWithScope(ir::Scope S);
const TargetDescription *targetWithTensorIntrinsic(const std::string &Name);
const TargetDescription *targetWithLoopPragma(const std::string &Name);
const TargetDescription *targetWithEmitKind(const std::string &Kind);

/// The built-in descriptions (GPU.cpp, VTA.cpp).
TargetDescription gpuTarget();
TargetDescription vtaTarget();

} // namespace sched

#endif
