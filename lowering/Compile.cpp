//===- Compile.cpp - Lower, emit, describe: by the target's description ---===//
//
// compileNest (Compile.h): the sequence the plugin and sched-opt would
// otherwise each repeat, read from the nest's TargetDescription so neither
// knows a target by name. Lowering is the pass driver's (Pipeline.cpp);
// emission and the descriptor's payload and runner are the description's;
// checkLaunchExprs is the promise the runtime relies on (every launch
// expression over scalar parameters), so a failure there is an internal
// error of the compiler.
//
//===----------------------------------------------------------------------===//
#include "Compile.h"
#include "ir/Check.h"
#include "targets/Target.h"

namespace sched {

static bool fail(CompiledNest &Out, CompileStage Stage, const std::string &Message) {
  Diag D;
  D.Message = Message;
  Out.Failure.push_back(D);
  Out.Failed = Stage;
  return false;
}

bool compileNest(const ir::LoopNest &Scheduled, const CompileOptions &Opts, CompiledNest &Out) {
  Out = CompiledNest();
  Out.Target = findTarget(Scheduled.Target);
  // Lowering reports an unknown target itself.
  std::vector<Diag> Diags;
  if (!lower(Scheduled, Opts.Pipeline, Out.Descriptor.Kernel, Diags)) {
    Out.Failure = Diags;
    Out.Failed = CompileStage::Lower;
    return false;
  }
  const TargetDescription &T = *Out.Target;
  Out.Notes = Diags;
  if (T.Lint)
    T.Lint(Scheduled, Out.Lints);
  if (T.Describe)
    Out.Summary = T.Describe(Scheduled, Out.Descriptor.Kernel);
  if (Opts.LowerOnly)
    return true;

  if (T.Emit) {
    std::vector<Diag> EmitDiags;
    bool Emitted = false;
    try {
      Emitted = T.Emit(Out.Descriptor.Kernel, Out.Source, EmitDiags);
    } catch (const InternalError &E) {
      return fail(Out, CompileStage::Emit,
                  "internal error in the " + T.Language + " emitter: " + E.what());
    }
    if (!Emitted) {
      Out.Failure = EmitDiags;
      Out.Failed = CompileStage::Emit;
      return false;
    }
  }

  LaunchDescriptor &D = Out.Descriptor;
  D.Runner = T.Runner;
  if (T.SourceInDescriptor)
    D.Payload = Out.Source;
  if (T.MinCapability)
    D.MinCapability = T.MinCapability(D.Kernel);
  D.Finals = Opts.Finals;
  for (const ir::Param &P : D.Kernel.Kernel.Params)
    D.ArgKinds.push_back(P.Scratch ? LaunchDescriptor::ArgKind::Scratch
                         : P.ParamKind == ir::Param::Kind::Buffer
                             ? LaunchDescriptor::ArgKind::Pointer
                             : LaunchDescriptor::ArgKind::Scalar);
  std::string Error;
  if (!checkLaunchExprs(D.Kernel, Error, D.Finals))
    return fail(Out, CompileStage::Describe, Error);
  return true;
}

std::string compileFailureHeading(const CompiledNest &Out) {
  switch (Out.Failed) {
  case CompileStage::Lower:
    return "cannot lower nest";
  case CompileStage::Emit:
    return "cannot generate " + (Out.Target ? Out.Target->Language : std::string("code"));
  case CompileStage::Describe:
  case CompileStage::Done:
    break;
  }
  return "internal error";
}

} // namespace sched
