//===- PassRegistry.cpp - Every pass, by name -----------------------------===//
//
// The passes a target's pipeline (targets/) and sched-opt --passes name. The
// built-in ones are listed here once (each is defined at the end of its own
// file, with the forms it requires and establishes); registerPass adds
// others (a test's, a target's own). Registration happens before lowering (a
// tool's or test's set-up), so no lock guards it.
//
//===----------------------------------------------------------------------===//
#include "passes/Pass.h"
#include "passes/Passes.h"

#include <algorithm>
#include <list>

namespace sched {
namespace passes {

namespace {

const Pass *const BuiltinPasses[] = {
    // shared/
    &NormalizeLoopsPass, &BoundInferencePass, &SimplifyPass,
    // gpu/
    &LowerThreadReductionsPass, &AutoTensorCorePass, &TensorizeWmmaPass, &VerifyThreadBindingsPass, &InjectVirtualThreadPass,
    &ComputeLaunchGeometryPass, &WidenThreadLoopsPass, &PromoteToSharedPass,
    &DistributeOverThreadsPass, &InjectThreadSyncPass, &PrefetchDoubleBuffersPass, &PipelineStagesPass, &LayoutSharedStagesPass,
    &StorageFlattenPass, &ComputeBufferRegionsPass, &PartitionLoopsPass, &VectorizeLoopsPass,
    &UnrollSmallLoopsPass, &VerifyKernelPass,
    // vta/
    &GuardedUpdatesAsSelectsPass, &PadVtaStagesPass, &TensorizeVtaGemmPass, &InjectVtaAluPass, &InjectVtaDmaPass, &DropUnitLoopsPass,
    &FoldUopLoopsPass, &InjectCoprocSyncPass, &InjectVtaContextsPass, &VtaStorageFlattenPass,
    &CombineUopSignaturesPass, &VerifyVtaProgramPass};

/// The passes registerPass added (a list: pointers to them stay valid).
std::list<Pass> &addedPasses() {
  static std::list<Pass> Added;
  return Added;
}

} // namespace

bool registerPass(const Pass &P) {
  if (!P.Name || !*P.Name || !P.Run || findPass(P.Name))
    return false;
  addedPasses().push_back(P);
  return true;
}

bool unregisterPass(const std::string &Name) {
  std::list<Pass> &Added = addedPasses();
  for (auto It = Added.begin(); It != Added.end(); ++It)
    if (Name == It->Name) {
      Added.erase(It);
      return true;
    }
  return false;
}

const Pass *findPass(const std::string &Name) {
  for (const Pass *P : BuiltinPasses)
    if (Name == P->Name)
      return P;
  for (const Pass &P : addedPasses())
    if (Name == P.Name)
      return &P;
  return nullptr;
}

std::vector<std::string> registeredPassNames() {
  std::vector<std::string> Names;
  for (const Pass *P : BuiltinPasses)
    Names.push_back(P->Name);
  for (const Pass &P : addedPasses())
    Names.push_back(P.Name);
  std::sort(Names.begin(), Names.end());
  return Names;
}

const KernelContext *LoweringState::launchContext() {
  if (!Ctx.Known && !computeLaunchGeometry(Nest, Ctx, Diags))
    return nullptr;
  return &Ctx;
}

bool LoweringState::error(const std::string &Message, int Loc) {
  Diag D;
  D.Message = Message;
  D.Loc = Loc;
  Diags.push_back(D);
  return false;
}

bool LoweringState::failedSince(size_t First) const {
  for (size_t I = First; I < Diags.size(); ++I)
    if (Diags[I].Severity == Diag::Level::Error)
      return true;
  return false;
}

} // namespace passes
} // namespace sched
