//===- Vta.cpp - The VTA hardware and the intrinsics of target(vta) -------===//
//
// See Vta.h: the configuration, and the declarations of every call of the
// three forms of a VTA program.
//
//===----------------------------------------------------------------------===//
#include "Vta.h"

namespace sched {
namespace ir {

const char *vtaAluOpName(int64_t Op) {
  switch (Op) {
  case VtaAluMin: return "min";
  case VtaAluMax: return "max";
  case VtaAluAdd: return "add";
  case VtaAluShr: return "shr";
  case VtaAluMul: return "mul";
  }
  return "?";
}

int64_t vtaElementLanes(Scope S) {
  switch (S) {
  case Scope::VtaInp: return vta::InpLanes;
  case Scope::VtaWgt: return vta::WgtLanes;
  case Scope::VtaAcc: return vta::AccLanes;
  default: return 0;
  }
}

int64_t vtaMemId(Scope S) {
  switch (S) {
  case Scope::VtaInp: return VtaMemInp;
  case Scope::VtaWgt: return VtaMemWgt;
  case Scope::VtaAcc: return VtaMemAcc;
  default: return -1;
  }
}

int64_t vtaLoadMemId(Scope S, DType T) {
  return S == Scope::VtaAcc && T == DType::Int8 ? VtaMemAcc8 : vtaMemId(S);
}

int64_t vtaDepth(Scope S) {
  switch (S) {
  case Scope::VtaInp: return vta::InpDepth;
  case Scope::VtaWgt: return vta::WgtDepth;
  case Scope::VtaAcc: return vta::AccDepth;
  default: return 0;
  }
}

namespace {

int64_t constArg(const CallNode *Call, size_t I) {
  if (I >= Call->Args.size())
    return -1;
  const auto *Imm = as<IntImmNode>(Call->Args[I]);
  return Imm ? Imm->Value : -1;
}

/// The scope of the buffer a Load operand reads; Global otherwise.
Scope operandScope(const CallNode *Call, size_t I) {
  if (I >= Call->Args.size())
    return Scope::Global;
  const auto *L = as<LoadNode>(Call->Args[I]);
  return L ? L->Buf->MemScope : Scope::Global;
}

IntrinsicInfo declare(const std::string &Name, std::vector<OperandRole> Operands) {
  IntrinsicInfo Info;
  Info.Name = Name;
  Info.Operands = std::move(Operands);
  return Info;
}

} // namespace

int64_t vtaQueueOf(const CallNode *Call) {
  const std::string &N = Call->Name;
  if (N == "vta.load_2d") {
    Scope S = operandScope(Call, 0);
    return S == Scope::VtaInp || S == Scope::VtaWgt ? VtaQueueLoad : VtaQueueCompute;
  }
  if (N == "vta.LoadBuffer2D") {
    int64_t Mem = constArg(Call, VtaLoadMem);
    return Mem == VtaMemInp || Mem == VtaMemWgt ? VtaQueueLoad : VtaQueueCompute;
  }
  if (N == "vta.store_2d" || N == "vta.StoreBuffer2D")
    return VtaQueueStore;
  if (N == "vta.uop_gemm" || N == "vta.uop_gemm_reset" || N == "vta.uop_alu" ||
      N == "vta.push_gemm" || N == "vta.push_alu" || N == "vta.PushGEMMOp" ||
      N == "vta.PushALUOp")
    return VtaQueueCompute;
  return 0;
}

bool isVtaIntrinsic(const std::string &Name) {
  return Name.compare(0, 4, "vta.") == 0 && lookupIntrinsic(Name) != nullptr;
}

bool decodeVtaUopKernel(const CallNode *Call, VtaUopKernel &Out) {
  Out = VtaUopKernel();
  const std::vector<Expr> &A = Call->Args;
  Out.IsGemm = Call->Name == "vta.PushGEMMOp";
  if (!Out.IsGemm && Call->Name != "vta.PushALUOp")
    return false;
  // GEMM: reset, nloops, 2 x (extent, dst, src, wgt), uops of 3;
  // ALU: op, use_imm, imm, nloops, 2 x (extent, dst, src), uops of 2.
  const size_t Fixed = VtaPushFixedArgs, PerUop = vtaUopOperands(Out.IsGemm);
  if (A.size() < Fixed || (A.size() - Fixed) % PerUop != 0)
    return false;
  Expr Zero = makeInt(0);
  size_t I = 0;
  if (Out.IsGemm) {
    Out.Reset = A[I++];
  } else {
    Out.AluOp = A[I++];
    Out.UseImm = A[I++];
    Out.Imm = A[I++];
  }
  Out.NumLoops = A[I++];
  for (VtaUopKernel::Loop &L : Out.Loops) {
    L.Extent = A[I++];
    L.Dst = A[I++];
    L.Src = A[I++];
    L.Wgt = Out.IsGemm ? A[I++] : Zero;
  }
  for (; I < A.size(); I += PerUop)
    Out.Uops.push_back({A[I], A[I + 1], Out.IsGemm ? A[I + 2] : Zero});
  return true;
}

int64_t vtaDramElementBytes(int64_t MemId) {
  switch (MemId) {
  case VtaMemInp: return vta::InpLanes;
  case VtaMemWgt: return vta::WgtLanes;
  case VtaMemAcc: return vta::AccLanes * 4;
  case VtaMemOut: return vta::OutLanes;
  case VtaMemAcc8: return vta::AccLanes;
  default: return 0;
  }
}

void vtaPackTiles(int8_t *Dst, const int8_t *Src, int64_t Rows, int64_t Cols, bool Transposed) {
  // Src[R][C] is the tiles' (j, k) element, or their (k, j) element.
  const int64_t KTiles = (Transposed ? Rows : Cols) / vta::BlockIn;
  for (int64_t R = 0; R < Rows; ++R)
    for (int64_t C = 0; C < Cols; ++C) {
      int64_t J = Transposed ? C : R, K = Transposed ? R : C;
      Dst[((J / vta::BlockOut * KTiles + K / vta::BlockIn) * vta::BlockOut + J % vta::BlockOut) *
              vta::BlockIn +
          K % vta::BlockIn] = Src[R * Cols + C];
    }
}

std::vector<IntrinsicInfo> vtaIntrinsicDeclarations() {
  using R = OperandRole;
  const R V = R::Value;
  std::vector<IntrinsicInfo> Out;
  // Uop form.
  Out.push_back(declare("vta.uop_gemm", {R::ReadWriteBuffer, R::ReadBuffer, R::ReadBuffer}));
  Out.push_back(declare("vta.uop_gemm_reset", {R::WriteBuffer}));
  Out.push_back(declare("vta.uop_alu", {V, R::ReadWriteBuffer, R::ReadBuffer, V, V}));
  Out.push_back(declare("vta.load_2d", {R::WriteBuffer, R::ReadBuffer, V, V, V, V, V, V, V}));
  Out.push_back(declare("vta.store_2d", {R::WriteBuffer, R::ReadBuffer, V, V, V}));
  Out.push_back(declare("vta.pack_tiles", {R::WriteBuffer, R::ReadBuffer, V, V, V}));
  // Kernel form: the uops' operands are variadic (every pass that looks at
  // them decodes the call); the fixed part is values.
  Out.push_back(declare("vta.push_gemm", std::vector<R>(VtaPushFixedArgs, V)));
  Out.push_back(declare("vta.push_alu", std::vector<R>(VtaPushFixedArgs, V)));
  Out.push_back(declare("vta.dep_push", {V, V}));
  Out.push_back(declare("vta.dep_pop", {V, V}));
  Out.push_back(declare("vta.synchronize", {}));
  // Final form: the runtime API.
  Out.push_back(declare("vta.LoadBuffer2D", {R::ReadBuffer, V, V, V, V, V, V, V, V, V, V}));
  Out.push_back(declare("vta.StoreBuffer2D", {V, V, R::WriteBuffer, V, V, V, V}));
  Out.push_back(declare("vta.PushGEMMOp", std::vector<R>(VtaPushFixedArgs, V)));
  Out.push_back(declare("vta.PushALUOp", std::vector<R>(VtaPushFixedArgs, V)));
  Out.push_back(declare("vta.PackTiles", {R::WriteBuffer, R::ReadBuffer, V, V, V}));
  return Out;
}

} // namespace ir
} // namespace sched
