//===- Pipeline.cpp - The pass driver -------------------------------------===//
//
// The first file to read: how a scheduled loop nest becomes a launchable
// kernel.
//
//   1. The nest names its target (`target(gpu)`, `target(vta)`). A target is
//      a description, targets/GPU.cpp and targets/VTA.cpp: its pipeline (the
//      list of its passes, in order, one line each: read it top to bottom),
//      its verifier, its emitter and the runner of the runtime that runs it.
//   2. Every pass has one shape (passes/Pass.h): it takes the LoweringState
//      (the nest, the kernel context, the launcher's regions, one error
//      sink), returns success or failure, and declares the form of the nest
//      it requires and the form it establishes. Passes are registered by
//      name (passes/PassRegistry.cpp) and live in passes/shared/, gpu/ and
//      vta/, by where they apply; each pass's file says what it does and why
//      it runs where it does.
//   3. This driver runs a target's passes one at a time (lower) or any
//      registered passes alone (runPasses: sched-opt --passes=a,b): before a
//      pass it checks the pass's required form with the target's verifier,
//      in every build, so a pass given IR in an earlier form is an error
//      naming the pass, never a crash; an internal check that fails inside a
//      pass (SCHED_CHECK, ir/Check.h) is one too. Options.AfterPass sees the
//      nest after every pass, and whether the pass changed it (print-after-
//      all says "(unchanged)"); Options.VerifyEach runs the verifier after
//      every pass on what the passes so far established.
//   4. compileNest (Compile.cpp), shared by the plugin and sched-opt, goes on
//      by the same description: lowers, emits, and fills in the launch
//      descriptor (ir/LaunchDescriptor.h), which is all the runtime reads:
//      the launcher its plan (ir/LaunchPlan.h, plain data), the simulator
//      the kernel's IR.
//   5. The vocabulary every stage shares is in ir/: the IR and its table of
//      node kinds (NodeKinds.def), Diag, the kernel types (Kernel.h), and the
//      IR-generic helpers a pass builds on (Scope.h, Rewrite.h, Prove.h,
//      Names.h). passes/PassUtil.h holds only what passes ask of threads,
//      barriers and VTA elements; codegen and the runtime never include it.
// A pass that finds a problem appends an error Diag; lowering then stops and
// the frontend keeps the original loop, with a warning that says why.
//
// Adding a pass: its file in passes/shared, gpu or vta, ending with its Pass
// (name, required and established form, entry); a line in PassRegistry.cpp
// and in its target's pipeline; a lit test that starts from its input form
// (`sched-opt --print-after=<the pass before it>` prints that form) and runs
// `sched-opt --passes=<it>`. Adding a target: a TargetDescription in
// targets/ (built in through Target.cpp, or registerTarget); the drivers do
// not change.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"
#include "ir/Check.h"
#include "passes/Pass.h"
#include "ir/Names.h"
#include "targets/Target.h"

namespace sched {

namespace {

using passes::LoweringState;
using passes::Pass;

Diag errorDiag(const std::string &Message) {
  Diag D;
  D.Message = Message;
  return D;
}

/// The kernel's name becomes a C identifier (CUDA and NVRTC look it up):
/// file stems may hold '-' or '.'.
std::string kernelIdentifier(const std::string &Name) {
  return ir::cIdentifier(Name, "sched_kernel", "k");
}

/// Whether a pass gave back the nest it was given: passes keep what they do
/// not change (the mutator returns the same node), so it is a comparison of
/// pointers.
bool sameNest(const ir::LoopNest &A, const ir::LoopNest &B) {
  if (A.Body != B.Body || A.Name != B.Name || A.Target != B.Target ||
      A.Params.size() != B.Params.size() || A.Assumptions != B.Assumptions ||
      A.Stages.size() != B.Stages.size() || A.Tensorize.size() != B.Tensorize.size() ||
      A.Pragmas.size() != B.Pragmas.size() || A.TensorCoreAuto != B.TensorCoreAuto ||
      A.AtomicUpdates != B.AtomicUpdates)
    return false;
  for (size_t I = 0; I < A.Params.size(); ++I)
    if (A.Params[I].Buf != B.Params[I].Buf || A.Params[I].Scalar != B.Params[I].Scalar ||
        A.Params[I].Scratch != B.Params[I].Scratch)
      return false;
  return true;
}

/// Runs a list of passes over one nest for one target, keeping the form the
/// passes so far established.
class PassRunner {
public:
  PassRunner(const TargetDescription &Target, LoweringState &State)
      : Target(Target), State(State) {}

  /// Runs P; false when it failed (State.Diags says why).
  bool run(const Pass &P) {
    const size_t First = State.Diags.size();
    bool Ok = false;
    ir::LoopNest Before = State.Nest;
    Form |= P.Requires | P.Establishes;
    try {
      Ok = checkRequires(P) && P.Run(State);
      if (Ok && State.failedSince(First))
        Ok = false;
      else if (!Ok && !State.failedSince(First))
        State.error(std::string(P.Name) + " failed without saying why");
      // A verifier error is a bug in the pass that just ran: name it.
      if (Ok && State.Opts.VerifyEach)
        Ok = verify(Form, "after " + std::string(P.Name) + ": ");
    } catch (const InternalError &E) {
      State.error(std::string("internal error in ") + P.Name + ": " + E.what());
      Ok = false;
    }
    // Shows the nest after a pass (even a failed one: that is when it helps).
    if (State.Opts.AfterPass)
      State.Opts.AfterPass(P.Name, State.Nest, !sameNest(Before, State.Nest));
    return Ok;
  }

private:
  const TargetDescription &Target;
  LoweringState &State;
  unsigned Form = 0; // what the passes so far established

  /// The pass's input must be in the form it requires: checked in every
  /// build, so a pass never runs on IR it does not expect.
  bool checkRequires(const Pass &P) {
    if (!P.Requires)
      return true;
    return verify(P.Requires, "the input of " + std::string(P.Name) +
                                  " is not in the form it requires: ");
  }

  /// Runs the target's verifier for Form; its errors go to the Diags with
  /// Prefix in front.
  bool verify(unsigned Form, const std::string &Prefix) {
    if (!Target.Verify)
      return true;
    std::vector<Diag> Malformed;
    if (Target.Verify(State, Form, Malformed))
      return true;
    for (Diag &D : Malformed) {
      D.Message = Prefix + D.Message;
      State.Diags.push_back(D);
    }
    return false;
  }
};

/// The passes named, or null with an error naming the first unknown one
/// and listing the registered ones.
bool lookUpPasses(const std::vector<std::string> &Names, std::vector<const Pass *> &Out,
                  std::vector<Diag> &Diags) {
  for (const std::string &Name : Names) {
    const Pass *P = passes::findPass(Name);
    if (!P) {
      std::string Known;
      for (const std::string &K : passes::registeredPassNames())
        Known += (Known.empty() ? "" : ", ") + K;
      Diags.push_back(errorDiag("unknown pass '" + Name + "'; registered passes: " + Known));
      return false;
    }
    Out.push_back(P);
  }
  return true;
}

const TargetDescription *targetOf(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  const TargetDescription *T = findTarget(Nest.Target);
  if (!T)
    Diags.push_back(errorDiag("unknown target '" + Nest.Target + "'"));
  return T;
}

} // namespace

bool lower(const ir::LoopNest &Scheduled, const PipelineOptions &Opts, LoweredKernel &Out,
           std::vector<Diag> &Diags) {
  if (!Scheduled.Body) {
    Diags.push_back(errorDiag("the nest has no body to lower"));
    return false;
  }
  const TargetDescription *T = targetOf(Scheduled, Diags);
  std::vector<const Pass *> Passes;
  if (!T || !lookUpPasses(T->Passes, Passes, Diags))
    return false;
  LoweringState State(Scheduled, Diags, Opts);
  State.Nest.Name = kernelIdentifier(State.Nest.Name);
  PassRunner Runner(*T, State);
  for (const Pass *P : Passes)
    if (!Runner.run(*P))
      return false;
  Out.Kernel = State.Nest;
  Out.Geometry = State.Ctx.Geometry;
  Out.Regions = State.Regions;
  Out.Arch = Opts.Arch;
  return true;
}

bool runPasses(const ir::LoopNest &Nest, const std::vector<std::string> &Names,
               const PipelineOptions &Opts, LoweredKernel &Out, std::vector<Diag> &Diags) {
  const TargetDescription *T = targetOf(Nest, Diags);
  std::vector<const Pass *> Passes;
  if (!T || !lookUpPasses(Names, Passes, Diags))
    return false;
  LoweringState State(Nest, Diags, Opts);
  State.Nest.Name = kernelIdentifier(State.Nest.Name);
  PassRunner Runner(*T, State);
  bool Ok = true;
  for (const Pass *P : Passes)
    if (!(Ok = Runner.run(*P)))
      break;
  Out.Kernel = State.Nest;
  if (State.Ctx.Known)
    Out.Geometry = State.Ctx.Geometry;
  Out.Regions = State.Regions;
  Out.Arch = Opts.Arch;
  return Ok;
}

} // namespace sched
