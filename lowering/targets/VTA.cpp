//===- VTA.cpp - target(vta): a program of VTA runtime calls --------------===//
//
// The VTA target: the nest becomes a program of calls to the standard VTA
// runtime API (ir/Vta.h describes its three forms: uops, kernels, the runtime
// API). Its pipeline (below, one line per pass, in order), its verifier
// (passes/vta/VerifyVtaProgram.cpp: verifyVtaForm over the VtaForm of
// passes/Pass.h), the C++ emitter (codegen/CodeGenVTA, for emit-dir= and
// dump=vta: the runtime runs the IR, so the descriptor carries no source),
// and the VTA runner of the runtime (runtime/vta). Its on-chip memories,
// its GEMM intrinsic and its loop pragmas are its own.
//
//===----------------------------------------------------------------------===//
#include "codegen/CodeGenVTA.h"
#include "passes/Pass.h"
#include "passes/Passes.h"
#include "targets/Target.h"

namespace sched {

namespace {

// clang-format off
const char *const VTAPasses[] = {
    "NormalizeLoops",
    "GuardedUpdatesAsSelects",
    "BoundInference",
    "PadVtaStages",
    "TensorizeVtaGemm",
    "InjectVtaAlu",
    "InjectVtaDma",
    "DropUnitLoops",
    "FoldUopLoops",
    "InjectCoprocSync",
    "InjectVtaContexts",
    "VtaStorageFlatten",
    "CombineUopSignatures",
    "VerifyVtaProgram",
};
// clang-format on

bool verifyVTA(passes::LoweringState &S, unsigned Form, std::vector<Diag> &Diags) {
  return passes::verifyVtaForm(S.Nest, Form, Diags);
}

std::string describeVTA(const ir::LoopNest &, const LoweredKernel &K) {
  std::string Buffers;
  for (const BufferRegion &R : K.Regions)
    Buffers += (Buffers.empty() ? "" : ", ") + R.Param + (R.Read && R.Written ? " (rw)"
                                                          : R.Written           ? " (w)"
                                                                                : " (r)");
  return "sched: nest became VTA program '" + K.Kernel.Name + "', buffers: " +
         (Buffers.empty() ? "none" : Buffers);
}

} // namespace

TargetDescription vtaTarget() {
  TargetDescription T;
  T.Name = "vta";
  T.Passes.assign(std::begin(VTAPasses), std::end(VTAPasses));
  T.Verify = verifyVTA;
  T.Emit = emitVTA;
  T.EmitKind = "vta";
  T.Language = "VTA C++";
  T.FileExtension = ".vta.cpp";
  T.SourceInDescriptor = false;
  T.Runner = RunnerKind::VtaProgram;
  T.Describe = describeVTA;
  T.Scopes = {ir::Scope::VtaInp, ir::Scope::VtaWgt, ir::Scope::VtaAcc};
  T.TensorIntrinsics = {"vta.gemm"};
  T.LoopPragmas = {"dma_copy", "alu"};
  return T;
}

} // namespace sched
