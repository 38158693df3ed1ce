//===- Pipeline.cpp - The lowering passes, in order ----------------------===//
//
// The first file to read: how a scheduled loop nest becomes a launchable
// kernel. Every pass lives in passes/, one per file, and says there what it
// does and why it runs where it does. Options.AfterPass sees the nest after
// every pass (sched-opt --print-after-all, the plugin's print-after-all).
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

/// The kernel's name becomes a C identifier (CUDA and NVRTC look it up):
/// file stems may hold '-' or '.'.
std::string kernelIdentifier(const std::string &Name) {
  return passes::cIdentifier(Name, "sched_kernel", "k");
}

bool lowerForGPU(ir::LoopNest Nest, const PipelineOptions &Opts, LoweredKernel &Out,
                 std::vector<Diag> &Diags) {
  const size_t FirstDiag = Diags.size();
  // Shows the nest after a pass (even a failed one: that is when it helps),
  // then says whether lowering may go on.
  auto After = [&](const char *Pass) {
    if (Opts.AfterPass)
      Opts.AfterPass(Pass, Nest);
    return !hasErrorsSince(Diags, FirstDiag);
  };
  Nest.Name = kernelIdentifier(Nest.Name);

  Nest = passes::normalizeLoops(Nest);
  if (!After("NormalizeLoops"))
    return false;

  Nest = passes::inferBounds(Nest, Diags);
  if (!After("BoundInference"))
    return false;

  Nest = passes::verifyThreadBindings(Nest, Diags);
  if (!After("VerifyThreadBindings"))
    return false;

  Nest = passes::injectVirtualThread(Nest, Diags);
  if (!After("InjectVirtualThread"))
    return false;

  Nest = passes::distributeOverThreads(Nest, Diags);
  if (!After("DistributeOverThreads"))
    return false;

  LaunchGeometry Geometry;
  passes::computeLaunchGeometry(Nest, Geometry, Diags);
  if (!After("ComputeLaunchGeometry"))
    return false;

  Nest = passes::simplifyNest(Nest);
  if (!After("Simplify"))
    return false;

  Nest = passes::injectThreadSync(Nest, Diags);
  if (!After("InjectThreadSync"))
    return false;

  Nest = passes::storageFlatten(Nest);
  if (!After("StorageFlatten"))
    return false;

  std::vector<BufferRegion> Regions = passes::computeBufferRegions(Nest);
  if (!After("ComputeBufferRegions"))
    return false;

  passes::verifyKernel(Nest, Geometry, Diags);
  if (!After("VerifyKernel"))
    return false;

  Out.Kernel = Nest;
  Out.Geometry = Geometry;
  Out.Regions = Regions;
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
    return lowerForGPU(Scheduled, Opts, Out, Diags);
  if (Scheduled.Target == "vta") {
    Diags.push_back(errorDiag("target(vta) is not supported yet"));
    return false;
  }
  Diags.push_back(errorDiag("unknown target '" + Scheduled.Target + "'"));
  return false;
}

} // namespace sched
