//===- GPU.cpp - target(gpu): a CUDA kernel --------------------------------===//
//
// The GPU target: its pipeline (below, one line per pass, top to bottom:
// each pass's file in passes/ says what it does and why it runs where it
// does), its verifier (passes/gpu/VerifyKernel.cpp, over the KernelForm of
// passes/Pass.h), the CUDA emitter (codegen/CodeGenCUDA), whose source the
// launch descriptor carries for NVRTC, and the kernel runner of the runtime
// (cuda, sim or host). The tensor intrinsics of tensorize(x, ...) that name
// the GPU's tensor cores are its own.
//
//===----------------------------------------------------------------------===//
#include "codegen/CodeGenCUDA.h"
#include "ir/IRVisitor.h"
#include "ir/Kernel.h"
#include "ir/LaunchLimits.h"
#include "ir/Printer.h"
#include "passes/Pass.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"
#include "targets/Target.h"

#include <map>

namespace sched {

namespace {

// clang-format off
const char *const GPUPasses[] = {
    "NormalizeLoops",
    "BoundInference",
    "LowerThreadReductions",
    "AutoTensorCore",
    "TensorizeWmma",
    "VerifyThreadBindings",
    "InjectVirtualThread",
    "ComputeLaunchGeometry",
    "WidenThreadLoops",
    "PromoteToShared",
    "DistributeOverThreads",
    "Simplify",
    "InjectThreadSync",
    "PrefetchDoubleBuffers",
    "PipelineStages",
    "LayoutSharedStages",
    "StorageFlatten",
    "ComputeBufferRegions",
    "PartitionLoops",
    "VectorizeLoops",
    "UnrollSmallLoops",
    "VerifyKernel",
};
// clang-format on

/// The kernel verifier, with the kernel context recomputed from the IR when
/// the form promises one and the state has none (a pass run alone).
bool verifyGPU(passes::LoweringState &S, unsigned Form, std::vector<Diag> &Diags) {
  Form &= passes::FormComplete;
  if (Form >= passes::FormGeometryKnown && !S.launchContext())
    return false;
  return passes::verifyKernel(S.Nest, S.Ctx, Form, Diags);
}

/// Whether some loop of S is bound to blockIdx or threadIdx: without one
/// a GPU kernel runs on a single thread.
class GPUBindingFinder : public ir::IRVisitor {
public:
  bool Found = false;

protected:
  void visitFor(const ir::ForNode *L) override {
    Found |= L->LoopKind == ir::ForKind::ThreadBound &&
             (ir::isBlockTag(L->ThreadTag) || ir::isThreadIdxTag(L->ThreadTag));
    ir::IRVisitor::visitFor(L);
  }
};

void lintGPU(const ir::LoopNest &Scheduled, std::vector<Diag> &Diags) {
  GPUBindingFinder Finder;
  Finder.visit(Scheduled.Body);
  if (Finder.Found || !Scheduled.Tensorize.empty())
    return;
  Diag D;
  D.Severity = Diag::Level::Warning;
  D.Flag = "sched-unbound";
  D.Loc = Scheduled.TargetLoc;
  D.Message = "target(gpu) nest binds no loop to blockIdx or threadIdx, so its kernel runs on a "
              "single GPU thread; did you forget to bind?";
  Diags.push_back(D);
}

/// What the remark says about a kernel besides its geometry and shared
/// memory (ir::staticSharedBytes): how many barriers it has, and the scope of
/// each allocation.
class KernelSummary : public ir::IRVisitor {
public:
  unsigned Barriers = 0;
  std::map<std::string, ir::Scope> Scopes; // of each allocation, by name

protected:
  void visitAllocate(const ir::AllocateNode *N) override {
    Scopes[N->Buf->Name] = N->Buf->MemScope;
    ir::IRVisitor::visitAllocate(N);
  }
  void visitEvaluate(const ir::EvaluateNode *N) override {
    if (passes::isBarrierCall(N->Value))
      ++Barriers;
    ir::IRVisitor::visitEvaluate(N);
  }
};

/// `(E0, E1, E2)` of a grid or block.
std::string shapeText(const ir::Expr (&Dims)[3]) {
  std::string Out = "(";
  for (int D = 0; D < 3; ++D)
    Out += (D ? ", " : "") + (Dims[D] ? ir::print(Dims[D]) : std::string("1"));
  return Out + ")";
}

std::string describeGPU(const ir::LoopNest &Scheduled, const LoweredKernel &K) {
  KernelSummary Summary;
  Summary.visit(K.Kernel.Body);
  int64_t SharedBytes = ir::staticSharedBytes(K.Kernel);
  std::string Stages;
  for (const ir::StageRegion &St : Scheduled.Stages) {
    Stages += (Stages.empty() ? "" : ", ") + St.Name;
    auto Scope = Summary.Scopes.find(St.Name);
    if (Scope != Summary.Scopes.end())
      Stages += std::string(" (") + ir::scopeName(Scope->second) + ")";
  }
  return "sched: nest became kernel '" + K.Kernel.Name + "': grid " +
         shapeText(K.Geometry.Grid) + ", block " + shapeText(K.Geometry.Block) + ", " +
         (SharedBytes >= 0 ? std::to_string(SharedBytes) : std::string("run-time")) +
         " bytes of shared memory, stages: " + (Stages.empty() ? "none" : Stages) +
         ", barriers: " + std::to_string(Summary.Barriers);
}

bool emitGPU(const LoweredKernel &K, std::string &Source, std::vector<Diag> &Diags) {
  return emitCUDA(K, Source, Diags);
}

int minCapabilityGPU(const LoweredKernel &K) { return minimumComputeCapability(K.Kernel); }

} // namespace

TargetDescription gpuTarget() {
  TargetDescription T;
  T.Name = "gpu";
  T.Passes.assign(std::begin(GPUPasses), std::end(GPUPasses));
  T.Verify = verifyGPU;
  T.Emit = emitGPU;
  T.EmitKind = "cuda";
  T.Language = "CUDA";
  T.FileExtension = ".cu";
  T.SourceInDescriptor = true;
  T.MinCapability = minCapabilityGPU;
  T.Runner = RunnerKind::Kernel;
  T.Lint = lintGPU;
  T.Describe = describeGPU;
  T.TensorIntrinsics = {"wmma.load", "wmma.mma", "wmma.store",
                        "mma.load",  "mma.m16n8k16", "mma.store"};
  return T;
}

} // namespace sched
