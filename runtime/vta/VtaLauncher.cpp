//===- VtaLauncher.cpp - Runs a lowered VTA program on the VTA runtime ---===//
//
// See VtaLauncher.h. The program was verified at compile time
// (VerifyVtaProgram): here every value is evaluated once more for the
// arguments at hand (ScalarEval), checked to fit a uint32 field, and each
// DMA to stay inside its buffer, which only a launch can check where sizes
// depend on scalar parameters.
//
//===----------------------------------------------------------------------===//
#include "vta/VtaLauncher.h"
#include "ScalarEval.h"
#include "vta/vta_runtime.h"

#include "ir/IRVisitor.h"
#include "ir/Printer.h"

#include <cstring>

namespace sched {
namespace runtime {

namespace {

using namespace ir;

/// What a finit receives: the 4-byte signature first (the runtime reads
/// its key there), then the kernel to record, like TVM's closure.
struct FinitArg {
  int32_t Signature;
  const VtaHandles::PushSite *Site;
  std::string *Error;
};

bool evalArg(const Expr &E, const ScalarEnv &Env, int64_t &Out, std::string &Error) {
  if (!evalInt(E, Env, Out, Error)) {
    Error = "cannot evaluate `" + print(E) + "`: " + Error;
    return false;
  }
  return true;
}

int recordKernel(void *Arg) {
  const auto *A = static_cast<const FinitArg *>(Arg);
  const VtaHandles::PushSite &S = *A->Site;
  const VtaUopKernel &K = S.Kernel;
  ScalarEnv Env;
  if (S.Signature)
    Env.bind(S.Signature, A->Signature, A->Signature);
  std::string &Error = *A->Error;
  int64_t NLoops, Reset = 0, Op = 0, UseImm = 0, Imm = 0;
  if (!evalArg(K.NumLoops, Env, NLoops, Error) ||
      (K.IsGemm ? !evalArg(K.Reset, Env, Reset, Error)
                : !evalArg(K.AluOp, Env, Op, Error) || !evalArg(K.UseImm, Env, UseImm, Error) ||
                      !evalArg(K.Imm, Env, Imm, Error)))
    return 1;
  for (int64_t L = 0; L < NLoops && L < vta::MaxUopLoops; ++L) {
    int64_t E, D, Src, W;
    const VtaUopKernel::Loop &Lp = K.Loops[L];
    if (!evalArg(Lp.Extent, Env, E, Error) || !evalArg(Lp.Dst, Env, D, Error) ||
        !evalArg(Lp.Src, Env, Src, Error) || !evalArg(Lp.Wgt, Env, W, Error))
      return 1;
    VTAUopLoopBegin(uint32_t(E), uint32_t(D), uint32_t(Src), uint32_t(W));
  }
  for (const VtaUopKernel::Uop &U : K.Uops) {
    int64_t D, Src, W;
    if (!evalArg(U.Dst, Env, D, Error) || !evalArg(U.Src, Env, Src, Error) ||
        !evalArg(U.Wgt, Env, W, Error))
      return 1;
    VTAUopPush(K.IsGemm ? 0 : 1, uint32_t(Reset), uint32_t(D), uint32_t(Src), uint32_t(W),
               uint32_t(Op), uint32_t(UseImm), int32_t(Imm));
  }
  for (int64_t L = 0; L < NLoops && L < vta::MaxUopLoops; ++L)
    VTAUopLoopEnd();
  return 0;
}

class Runner {
public:
  Runner(const LoweredKernel &K, VtaHandles &Handles, const std::vector<void *> &Data,
         std::string &Error)
      : K(K), Handles(Handles), Data(Data), Error(Error) {}

  bool run() {
    Env.bindParams(K.Kernel, Data);
    VTASchedClearError(); // a failed launch before may have left a queue
    Cmd = VTATLSCommandHandle();
    bool Ok = allocate() && stmt(K.Kernel.Body);
    if (!Ok)
      VTASchedClearError(); // drops what this launch queued
    if (Ok)
      for (Device &D : Devices)
        if (D.Region && D.Region->Written)
          VTABufferCopy(D.Handle, 0, D.Host, 0, D.Bytes, VTA_MEMCPY_D2H);
    for (Device &D : Devices)
      VTABufferFree(D.Handle);
    return Ok;
  }

private:
  const LoweredKernel &K;
  VtaHandles &Handles;
  const std::vector<void *> &Data;
  std::string &Error;
  ScalarEnv Env;
  VTACommandHandle Cmd = nullptr;
  struct Device {
    const BufferRegion *Region; // null for a buffer the program allocates
    std::string Name;
    void *Host, *Handle;
    uint64_t Bytes;
    const BufferNode *Allocated; // the program's allocation, when Region is null
  };
  std::vector<Device> Devices;

  bool fail(const std::string &Message) {
    Error = Message;
    return false;
  }

  /// One device buffer per region, holding the whole buffer. A written one
  /// is copied in too: a store may cover part of it, and all of it comes back.
  bool allocate() {
    for (const BufferRegion &R : K.Regions) {
      size_t P = 0;
      while (P < K.Kernel.Params.size() && K.Kernel.Params[P].name() != R.Param)
        ++P;
      if (P == K.Kernel.Params.size() || K.Kernel.Params[P].ParamKind != Param::Kind::Buffer)
        return fail("the region of '" + R.Param + "' names no buffer parameter");
      int64_t Extent;
      if (!evalArg(R.Extent, Env, Extent, Error))
        return false;
      if (Extent < 0)
        return fail("the buffer '" + R.Param + "' has " + std::to_string(Extent) + " elements");
      uint64_t Bytes = uint64_t(Extent) * dtypeBytes(K.Kernel.Params[P].Buf->Type);
      if (Bytes && !Data[P])
        return fail("null pointer for the buffer '" + R.Param + "'");
      void *Handle = VTABufferAlloc(Bytes);
      if (!Handle)
        return fail("VTABufferAlloc of " + std::to_string(Bytes) + " bytes failed");
      Devices.push_back({&R, R.Param, Data[P], Handle, Bytes, nullptr});
      if (Bytes)
        VTABufferCopy(Data[P], 0, Handle, 0, Bytes, VTA_MEMCPY_H2D);
    }
    return true;
  }

  const Device *deviceOf(const Expr &Dram) {
    const auto *L = as<LoadNode>(Dram);
    if (L)
      for (const Device &D : Devices)
        if (D.Region ? D.Name == L->Buf->Name : D.Allocated == L->Buf.get())
          return &D;
    fail("the DRAM operand `" + (Dram ? print(Dram) : std::string()) +
         "` is no buffer of the launch");
    return nullptr;
  }

  /// The call's arguments From.. as uint32 field values.
  bool fields(const CallNode *C, size_t Skip, std::vector<uint32_t> &Out) {
    Out.assign(C->Args.size(), 0);
    for (size_t I = 0; I < C->Args.size(); ++I) {
      if (I == Skip)
        continue;
      int64_t V;
      if (!evalArg(C->Args[I], Env, V, Error))
        return false;
      if (V < 0 || V > int64_t(UINT32_MAX))
        return fail("`" + print(borrowCall(C)) + "`: argument " + std::to_string(I) + " is " +
                    std::to_string(V) + ", outside a uint32 field");
      Out[I] = uint32_t(V);
    }
    return true;
  }

  static Expr borrowCall(const CallNode *C) { return Expr(Expr(), C); }

  bool inside(const CallNode *C, const Device &D, uint64_t Offset, uint64_t X, uint64_t Y,
              uint64_t Stride, int64_t Mem) {
    if (!X || !Y)
      return true;
    uint64_t End = (Offset + (Y - 1) * Stride + X) * uint64_t(vtaDramElementBytes(Mem));
    if (End <= D.Bytes)
      return true;
    return fail("`" + print(borrowCall(C)) + "` reaches byte " + std::to_string(End) + " of '" +
                D.Name + "', which has " + std::to_string(D.Bytes));
  }

  bool call(const CallNode *C) {
    std::vector<uint32_t> F;
    const std::string &N = C->Name;
    if (N == "vta.LoadBuffer2D") {
      const Device *D = deviceOf(C->Args[VtaLoadDram]);
      if (!D || !fields(C, VtaLoadDram, F) ||
          !inside(C, *D, F[VtaLoadOffset], F[VtaLoadXSize], F[VtaLoadYSize], F[VtaLoadXStride],
                  F[VtaLoadMem]))
        return false;
      VTALoadBuffer2D(Cmd, D->Handle, F[VtaLoadOffset], F[VtaLoadXSize], F[VtaLoadYSize],
                      F[VtaLoadXStride], F[VtaLoadXPad0], F[VtaLoadYPad0], F[VtaLoadXPad1],
                      F[VtaLoadYPad1], F[VtaLoadSram], F[VtaLoadMem]);
      return true;
    }
    if (N == "vta.StoreBuffer2D") {
      const Device *D = deviceOf(C->Args[VtaStoreDram]);
      if (!D || !fields(C, VtaStoreDram, F) ||
          !inside(C, *D, F[VtaStoreOffset], F[VtaStoreXSize], F[VtaStoreYSize],
                  F[VtaStoreXStride], VtaMemOut))
        return false;
      VTAStoreBuffer2D(Cmd, F[VtaStoreSram], F[VtaStoreMem], D->Handle, F[VtaStoreOffset],
                       F[VtaStoreXSize], F[VtaStoreYSize], F[VtaStoreXStride]);
      return true;
    }
    if (N == "vta.PushGEMMOp" || N == "vta.PushALUOp")
      return push(C);
    if (N == "vta.PackTiles")
      return packTiles(C);
    if (N == "vta.dep_push" || N == "vta.dep_pop") {
      if (!fields(C, size_t(-1), F) || F.size() != 2)
        return fail("malformed token call `" + print(borrowCall(C)) + "`");
      (N == "vta.dep_push" ? VTADepPush : VTADepPop)(Cmd, int(F[0]), int(F[1]));
      return true;
    }
    if (N == "vta.synchronize") {
      VTASynchronize(Cmd, 1u << 31);
      if (const char *E = VTASchedLastError())
        return fail(std::string("the VTA runtime reports: ") + E);
      return true;
    }
    return fail("`" + print(borrowCall(C)) + "` is not a call of a final-form VTA program");
  }

  /// Fills the packed copy of the weights on the CPU, from their device copy.
  bool packTiles(const CallNode *C) {
    if (C->Args.size() != 5)
      return fail("malformed `" + print(borrowCall(C)) + "`");
    const Device *P = deviceOf(C->Args[0]), *W = P ? deviceOf(C->Args[1]) : nullptr;
    int64_t Rows, Cols, Transposed;
    if (!W || !evalArg(C->Args[2], Env, Rows, Error) || !evalArg(C->Args[3], Env, Cols, Error) ||
        !evalArg(C->Args[4], Env, Transposed, Error))
      return false;
    if (Rows <= 0 || Cols <= 0 || Rows % vta::BlockOut || Cols % vta::BlockIn ||
        uint64_t(Rows * Cols) > W->Bytes || uint64_t(Rows * Cols) > P->Bytes)
      return fail("`" + print(borrowCall(C)) + "` does not fit its buffers");
    vtaPackTiles(static_cast<int8_t *>(VTABufferCPUPtr(Cmd, P->Handle)),
                 static_cast<const int8_t *>(VTABufferCPUPtr(Cmd, W->Handle)), Rows, Cols,
                 Transposed != 0);
    return true;
  }

  bool push(const CallNode *C) {
    std::unique_ptr<VtaHandles::PushSite> &Slot = Handles.Sites[C];
    if (!Slot) {
      auto Site = std::make_unique<VtaHandles::PushSite>();
      if (!decodeVtaUopKernel(C, Site->Kernel))
        return fail("malformed uop kernel `" + print(borrowCall(C)) + "`");
      for (const VtaUopKernel::Uop &U : Site->Kernel.Uops)
        for (const Expr &E : {U.Dst, U.Src, U.Wgt})
          for (const VarNode *V : varsOf(E))
            Site->Signature = Var(Var(), V);
      Slot = std::move(Site);
    }
    FinitArg Arg{0, Slot.get(), &Error};
    if (Slot->Signature) {
      int64_t Sig;
      if (!evalArg(Slot->Signature, Env, Sig, Error))
        return false;
      Arg.Signature = int32_t(Sig);
    }
    int NBytes = Slot->Signature ? int(sizeof(int32_t)) : 0;
    Error.clear();
    (Slot->Kernel.IsGemm ? VTAPushGEMMOp : VTAPushALUOp)(&Slot->Handle, recordKernel, &Arg,
                                                         NBytes);
    if (!Error.empty())
      return false; // finit could not evaluate a uop
    if (const char *E = VTASchedLastError())
      return fail(std::string("the VTA runtime reports: ") + E);
    return true;
  }

  bool stmt(const Stmt &S) {
    if (!S)
      return true;
    switch (S->Kind) {
    case StmtKind::Seq:
      for (const Stmt &C : as<SeqNode>(S)->Stmts)
        if (!stmt(C))
          return false;
      return true;
    case StmtKind::For: {
      const auto *F = as<ForNode>(S);
      int64_t Min, Extent;
      if (!evalArg(F->Min, Env, Min, Error) || !evalArg(F->Extent, Env, Extent, Error))
        return false;
      for (int64_t I = Min; I < Min + Extent; ++I) {
        Env.bind(F->LoopVar, I, double(I));
        if (!stmt(F->Body))
          return false;
      }
      return true;
    }
    case StmtKind::LetStmt: {
      const auto *L = as<LetStmtNode>(S);
      int64_t V;
      if (!evalArg(L->Value, Env, V, Error))
        return false;
      Env.bind(L->LetVar, V, double(V));
      return stmt(L->Body);
    }
    case StmtKind::IfThenElse: {
      const auto *I = as<IfThenElseNode>(S);
      int64_t Cond;
      if (!evalArg(I->Cond, Env, Cond, Error))
        return false;
      return stmt(Cond ? I->Then : I->Else);
    }
    case StmtKind::Evaluate:
      if (const auto *C = as<CallNode>(as<EvaluateNode>(S)->Value))
        return call(C);
      break;
    case StmtKind::Allocate: {
      // A DRAM buffer of the program (packed weights), freed with the others.
      const auto *A = as<AllocateNode>(S);
      if (A->Buf->MemScope != Scope::Global)
        break;
      int64_t Elements = 1, Extent;
      for (const Expr &E : A->Buf->Shape) {
        if (!evalArg(E, Env, Extent, Error))
          return false;
        Elements *= Extent;
      }
      uint64_t Bytes = uint64_t(Elements) * dtypeBytes(A->Buf->Type);
      void *Handle = VTABufferAlloc(Bytes);
      if (!Handle)
        return fail("VTABufferAlloc of " + std::to_string(Bytes) + " bytes failed");
      Devices.push_back({nullptr, A->Buf->Name, nullptr, Handle, Bytes, A->Buf.get()});
      return stmt(A->Body);
    }
    case StmtKind::Store:
      break;
    }
    return fail("the statement `" + print(S) + "` is not part of a final-form VTA program");
  }
};

} // namespace

bool runVtaKernel(const LoweredKernel &K, VtaHandles &Handles, const std::vector<void *> &Data,
                  std::string &Error) {
  std::lock_guard<std::mutex> Guard(Handles.Lock);
  return Runner(K, Handles, Data, Error).run();
}

} // namespace runtime
} // namespace sched
