//===- Pipeline.cpp - The lowering passes, in order ----------------------===//
//
// The first file to read: how a scheduled loop nest becomes a launchable
// kernel. GPUPasses below is the whole pipeline (VTAPasses for target(vta)), one line per pass, top to
// bottom; every pass lives in passes/, one per file, and says there what it
// does and why it runs where it does. Options.AfterPass sees the nest after
// every pass (sched-opt --print-after-all, the plugin's print-after-all);
// Options.VerifyEach runs the kernel verifier after every pass, checking
// what the passes so far promise (each entry's Establishes).
// A pass that finds a problem appends an error Diag; lowering then stops and
// the frontend keeps the original loop, with a warning that says why.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

namespace sched {

namespace {

Diag errorDiag(const std::string &Message) {
  Diag D;
  D.Message = Message;
  return D;
}

bool hasErrorsSince(const std::vector<Diag> &Diags, size_t First) {
  for (size_t I = First; I < Diags.size(); ++I)
    if (Diags[I].Severity == Diag::Level::Error)
      return true;
  return false;
}

/// What the passes read and write: the nest, the kernel context (filled in
/// once, by ComputeLaunchGeometry), the launcher's regions, and the Diags;
/// and what they may read: the options (the target architecture).
struct Lowering {
  ir::LoopNest Nest;
  passes::KernelContext Ctx;
  std::vector<BufferRegion> Regions;
  std::vector<Diag> &Diags;
  const PipelineOptions &Opts;
};

struct Pass {
  const char *Name;
  void (*Run)(Lowering &L);
  /// What holds of the kernel from this pass on (passes::KernelForm bits).
  unsigned Establishes;
};

// clang-format off
const Pass GPUPasses[] = {
    {"NormalizeLoops",
     [](Lowering &L) { L.Nest = passes::normalizeLoops(L.Nest); },
     passes::FormAny},
    {"BoundInference",
     [](Lowering &L) { L.Nest = passes::inferBounds(L.Nest, L.Diags); },
     passes::FormAny},
    {"AutoTensorCore",
     [](Lowering &L) { L.Nest = passes::autoTensorCore(L.Nest, L.Diags, L.Opts.Arch.Number); },
     passes::FormAny},
    {"TensorizeWmma",
     [](Lowering &L) { L.Nest = passes::tensorizeWmma(L.Nest, L.Diags); },
     passes::FormAny},
    {"VerifyThreadBindings",
     [](Lowering &L) { passes::verifyThreadBindings(L.Nest, L.Diags); },
     passes::FormBindingsVerified},
    {"InjectVirtualThread",
     [](Lowering &L) { L.Nest = passes::injectVirtualThread(L.Nest, L.Diags); },
     passes::FormNoVirtualThreads},
    {"ComputeLaunchGeometry",
     [](Lowering &L) { passes::computeLaunchGeometry(L.Nest, L.Ctx, L.Diags); },
     passes::FormGeometryKnown},
    {"WidenThreadLoops",
     [](Lowering &L) { L.Nest = passes::widenThreadLoops(L.Nest, L.Ctx); },
     passes::FormLaunchLoopsWidened},
    {"PromoteToShared",
     [](Lowering &L) { L.Nest = passes::promoteToShared(L.Nest, L.Ctx, L.Diags); },
     passes::FormAny},
    {"DistributeOverThreads",
     [](Lowering &L) { L.Nest = passes::distributeOverThreads(L.Nest, L.Ctx, L.Diags); },
     passes::FormDistributed},
    {"Simplify",
     [](Lowering &L) { L.Nest = passes::simplifyNest(L.Nest); },
     passes::FormAny},
    {"InjectThreadSync",
     [](Lowering &L) { L.Nest = passes::injectThreadSync(L.Nest, L.Ctx, L.Diags); },
     passes::FormSynchronized},
    {"StorageFlatten",
     [](Lowering &L) { L.Nest = passes::storageFlatten(L.Nest); },
     passes::FormFlattened},
    {"ComputeBufferRegions",
     [](Lowering &L) { L.Regions = passes::computeBufferRegions(L.Nest); },
     passes::FormAny},
    {"VerifyKernel",
     [](Lowering &L) { passes::verifyKernel(L.Nest, L.Ctx, passes::FormComplete, L.Diags); },
     passes::FormFinal},
};

/// target(vta): the nest becomes a program of VTA runtime calls (ir/Vta.h
/// describes its three forms: uops, kernels, the runtime API).
const Pass VTAPasses[] = {
    {"NormalizeLoops",
     [](Lowering &L) { L.Nest = passes::normalizeLoops(L.Nest); },
     passes::FormAny},
    {"BoundInference",
     [](Lowering &L) { L.Nest = passes::inferBounds(L.Nest, L.Diags); },
     passes::FormAny},
    {"TensorizeVtaGemm",
     [](Lowering &L) { L.Nest = passes::tensorizeVtaGemm(L.Nest, L.Diags); },
     passes::FormAny},
    {"InjectVtaAlu",
     [](Lowering &L) { L.Nest = passes::injectVtaAlu(L.Nest, L.Diags); },
     passes::FormAny},
    {"InjectVtaDma",
     [](Lowering &L) { L.Nest = passes::injectVtaDma(L.Nest, L.Diags); },
     passes::FormAny},
    {"DropUnitLoops",
     [](Lowering &L) { L.Nest = passes::dropUnitLoops(L.Nest); },
     passes::FormAny},
    {"FoldUopLoops",
     [](Lowering &L) { L.Nest = passes::foldUopLoops(L.Nest, L.Diags); },
     passes::FormAny},
    {"InjectCoprocSync",
     [](Lowering &L) { L.Nest = passes::injectCoprocSync(L.Nest, L.Diags); },
     passes::FormAny},
    {"InjectVtaContexts",
     [](Lowering &L) { L.Nest = passes::injectVtaContexts(L.Nest, L.Diags); },
     passes::FormAny},
    {"VtaStorageFlatten",
     [](Lowering &L) { L.Nest = passes::vtaStorageFlatten(L.Nest, L.Diags); },
     passes::FormAny},
    {"CombineUopSignatures",
     [](Lowering &L) { L.Nest = passes::combineUopSignatures(L.Nest); },
     passes::FormAny},
    {"VerifyVtaProgram",
     [](Lowering &L) {
       if (passes::verifyVtaProgram(L.Nest, L.Diags))
         L.Regions = passes::computeVtaBufferRegions(L.Nest);
     },
     passes::FormAny},
};
// clang-format on

/// The kernel's name becomes a C identifier (CUDA and NVRTC look it up):
/// file stems may hold '-' or '.'.
std::string kernelIdentifier(const std::string &Name) {
  return passes::cIdentifier(Name, "sched_kernel", "k");
}

template <size_t N>
bool runPasses(const Pass (&Passes)[N], const ir::LoopNest &Scheduled, const PipelineOptions &Opts,
               LoweredKernel &Out, std::vector<Diag> &Diags) {
  const bool IsGPU = Passes == GPUPasses;
  const size_t FirstDiag = Diags.size();
  Lowering L{Scheduled, passes::KernelContext(), {}, Diags, Opts};
  L.Nest.Name = kernelIdentifier(L.Nest.Name);
  unsigned Form = passes::FormAny;
  for (const Pass &P : Passes) {
    P.Run(L);
    bool Failed = hasErrorsSince(Diags, FirstDiag);
    Form |= P.Establishes;
    // A verifier error is a bug in the pass that just ran: name it. (The
    // kernel verifier knows GPU kernels; a VTA program has its own,
    // VerifyVtaProgram, as its last pass.)
    std::vector<Diag> Malformed;
    if (!Failed && IsGPU && Opts.VerifyEach && !passes::verifyKernel(L.Nest, L.Ctx, Form, Malformed))
      for (Diag &D : Malformed) {
        D.Message = "after " + std::string(P.Name) + ": " + D.Message;
        Diags.push_back(D);
      }
    // Shows the nest after a pass (even a failed one: that is when it helps).
    if (Opts.AfterPass)
      Opts.AfterPass(P.Name, L.Nest);
    if (hasErrorsSince(Diags, FirstDiag))
      return false;
  }
  Out.Kernel = L.Nest;
  Out.Geometry = L.Ctx.Geometry;
  Out.Regions = L.Regions;
  Out.Arch = Opts.Arch;
  return true;
}

} // namespace

bool lower(const ir::LoopNest &Scheduled, const PipelineOptions &Opts, LoweredKernel &Out,
           std::vector<Diag> &Diags) {
  if (!Scheduled.Body) {
    Diags.push_back(errorDiag("the nest has no body to lower"));
    return false;
  }
  if (Scheduled.Target == "gpu")
    return runPasses(GPUPasses, Scheduled, Opts, Out, Diags);
  if (Scheduled.Target == "vta")
    return runPasses(VTAPasses, Scheduled, Opts, Out, Diags);
  Diags.push_back(errorDiag("unknown target '" + Scheduled.Target + "'"));
  return false;
}

} // namespace sched
