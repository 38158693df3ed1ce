//===- VerifyVtaProgram.cpp - A VTA program in final form, within limits -===//
//
// The last pass of VTAPasses (targets/VTA.cpp): what the launcher (runtime/vta/
// VtaLauncher) and the C++ emitter (codegen/CodeGenVTA) run must be a program
// of the final form of ir/Vta.h, and every instruction it makes must fit the
// hardware of ir/Vta.h's configuration. A violation is an error Diag naming
// the call and the limit; the nest then stays as written. Nothing is left to
// the runtime that the compiler can check: a board's runtime truncates fields
// silently (ours reports them, but only when the program runs).
//
// Final form: For loops (not bound to a thread: cthread is expanded before),
// Seq, LetStmt, IfThenElse and Evaluates of the final-form calls; scalar
// expressions over the nest's scalar parameters and the variables around
// them, without loads; the program ends with vta.synchronize(). Anything
// else (a Store or an Allocate left by a pass that did not apply) is an
// error naming the statement.
//
// Limits, per call (values that depend on host loop variables are bounded
// over the loops' ranges with ir::boundsOf / constantUpperBound):
//   LoadBuffer2D/StoreBuffer2D: sizes, strides and SRAM index bounded by
//     constants; x/y size and x stride fit 16 bits, pads 4 bits; the SRAM
//     range written (LOAD, padding included) or read (STORE) within the
//     depth of its memory; mem_type inp/wgt/acc (LOAD) or out (STORE); the
//     DRAM buffer of the element type of that memory. Where the DRAM range
//     is constant it must lie inside the buffer (otherwise the launchers
//     check it at run time).
//   PushGEMMOp/PushALUOp: constant flags, loop extents and factors; at most
//     2 loops, extents 1..2^14-1, factors within 11/11/10 bits (dst, src,
//     wgt); 1..8192 uops; every uop index plus its loops' reach within the
//     depth of its memory; ALU opcode known, immediate within int16, a SHR
//     amount in [-16, 15]; consecutive uops write different acc elements
//     (dst differs from the previous two: the runtime's rule); uop indices
//     use at most one variable, a host loop's (or let's) with a range in
//     [0, MaxSignature) (the kernel's signature: the runtime builds a kernel
//     once per process and signature).
//   dep_push/dep_pop: constant neighbouring queues.
//
// verifyVtaForm is the VTA target's verifier (targets/VTA.cpp): the pass
// driver runs it on a pass's input with the form the pass requires (passes/
// Pass.h, VtaForm), and under verify-each after every pass; its last form is
// this whole check.
//
// computeVtaBufferRegions gives the launcher one region per buffer parameter
// a DMA touches: the whole buffer (its shape is over scalar parameters:
// checked here).
//
//===----------------------------------------------------------------------===//
#include "ir/Bounds.h"
#include "ir/IRVisitor.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "ir/Vta.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

namespace {

using namespace ir;

const char *memName(int64_t Mem) {
  switch (Mem) {
  case VtaMemUop: return "uop";
  case VtaMemWgt: return "wgt";
  case VtaMemInp: return "inp";
  case VtaMemAcc: return "acc";
  case VtaMemOut: return "out";
  case VtaMemAcc8: return "acc_8bit";
  }
  return "?";
}

int64_t memDepth(int64_t Mem) {
  switch (Mem) {
  case VtaMemUop: return vta::UopDepth;
  case VtaMemWgt: return vta::WgtDepth;
  case VtaMemInp: return vta::InpDepth;
  case VtaMemAcc:
  case VtaMemAcc8:
  case VtaMemOut: return vta::AccDepth; // out is indexed like acc
  }
  return 0;
}

/// The DRAM element type of a memory: int8 except the int32 accumulators.
DType memDramType(int64_t Mem) { return Mem == VtaMemAcc ? DType::Int32 : DType::Int8; }

/// The buffer parameter a DMA's DRAM operand (a Load of all-zero indices of
/// a global buffer) names; null when it is not one.
const BufferNode *dramBuffer(const Expr &E) {
  const auto *L = as<LoadNode>(E);
  if (!L || L->Buf->MemScope != Scope::Global)
    return nullptr;
  for (const Expr &I : L->Indices) {
    int64_t V;
    if (!getConstInt(simplify(I), V) || V != 0)
      return nullptr;
  }
  return L->Buf.get();
}

bool isFinalFormCall(const std::string &Name) {
  return Name == "vta.LoadBuffer2D" || Name == "vta.StoreBuffer2D" || Name == "vta.PushGEMMOp" ||
         Name == "vta.PushALUOp" || Name == "vta.dep_push" || Name == "vta.dep_pop" ||
         Name == "vta.synchronize" || Name == "vta.PackTiles";
}

/// Whether S's last statement (inside the allocations around the program)
/// is vta.synchronize().
bool endsWithSynchronize(const Stmt &S) {
  if (const auto *A = as<AllocateNode>(S))
    return endsWithSynchronize(A->Body);
  if (const auto *Seq = as<SeqNode>(S))
    return !Seq->Stmts.empty() && endsWithSynchronize(Seq->Stmts.back());
  const auto *E = as<EvaluateNode>(S);
  const auto *C = E ? as<CallNode>(E->Value) : nullptr;
  return C && C->Name == "vta.synchronize";
}

class Verifier {
public:
  Verifier(const LoopNest &Nest, std::vector<Diag> &Diags) : Nest(Nest), Diags(Diags) {
    for (const Param &P : Nest.Params)
      if (P.ParamKind == Param::Kind::Buffer)
        BufferParams.insert(P.Buf.get());
    Params = scalarParams(Nest);
  }

  bool run() {
    size_t First = Diags.size();
    stmt(Nest.Body);
    if (!endsWithSynchronize(Nest.Body))
      error("the VTA program does not end with vta.synchronize() (the launcher copies its "
            "results back after it)");
    for (size_t I = First; I < Diags.size(); ++I)
      if (Diags[I].Severity == Diag::Level::Error)
        return false;
    return true;
  }

private:
  const LoopNest &Nest;
  std::vector<Diag> &Diags;
  std::set<const BufferNode *> BufferParams;
  std::set<const BufferNode *> Packed, Filled; // packed weights in scope; filled so far
  std::set<const VarNode *> Params;
  VarRanges Ranges; // the host loops and lets around the statement
  std::string Call; // the call being checked, as messages quote it

  void error(const std::string &Message) {
    Diag D;
    D.Message = Message;
    Diags.push_back(D);
  }
  void callError(const std::string &Message) { error("`" + Call + "`: " + Message); }

  /// E is a scalar expression the launcher can evaluate where it stands.
  bool scalarExpr(const Expr &E, const std::string &What) {
    if (!E || dependsOnMemory(E)) {
      error("the " + What + " `" + (E ? print(E) : std::string("<null>")) +
            "` of a VTA program reads memory");
      return false;
    }
    for (const VarNode *V : varsOf(E))
      if (!Params.count(V) && !Ranges.count(V)) {
        error("the " + What + " `" + print(E) + "` uses `" + V->Name +
              "`, which is no scalar parameter nor host loop variable");
        return false;
      }
    return true;
  }

  void enter(const Var &V, const Expr &Min, const Expr &Max) {
    Interval Lo = boundsOf(Min, Ranges), Hi = boundsOf(Max, Ranges);
    Ranges[V.get()] = {Lo.Min, Hi.Max};
  }

  void stmt(const Stmt &S) {
    if (!S)
      return;
    switch (S->Kind) {
    case StmtKind::Seq:
      for (const Stmt &C : as<SeqNode>(S)->Stmts)
        stmt(C);
      return;
    case StmtKind::For: {
      const auto *F = as<ForNode>(S);
      if (!F->ThreadTag.empty()) {
        error("the loop `" + F->LoopVar->Name + "` of a VTA program is bound to " +
              F->ThreadTag + " (contexts are expanded before the final form)");
        return;
      }
      if (!scalarExpr(F->Min, "loop start") || !scalarExpr(F->Extent, "loop extent"))
        return;
      enter(F->LoopVar, F->Min, simplify(F->Min + F->Extent - makeInt(1)));
      stmt(F->Body);
      Ranges.erase(F->LoopVar.get());
      return;
    }
    case StmtKind::LetStmt: {
      const auto *L = as<LetStmtNode>(S);
      if (!scalarExpr(L->Value, "let value"))
        return;
      enter(L->LetVar, L->Value, L->Value);
      stmt(L->Body);
      Ranges.erase(L->LetVar.get());
      return;
    }
    case StmtKind::IfThenElse: {
      const auto *I = as<IfThenElseNode>(S);
      if (!scalarExpr(I->Cond, "condition"))
        return;
      stmt(I->Then);
      stmt(I->Else);
      return;
    }
    case StmtKind::Evaluate: {
      const auto *C = as<CallNode>(as<EvaluateNode>(S)->Value);
      if (C && isFinalFormCall(C->Name)) {
        Call = stmtText(S.get());
        call(C);
        return;
      }
      if (C && isVtaIntrinsic(C->Name)) {
        error("the statement `" + stmtText(S.get()) +
              "` is a VTA call of an earlier form than the runtime API (ir/Vta.h): a pass "
              "before VerifyVtaProgram left it");
        return;
      }
      break;
    }
    case StmtKind::Allocate: {
      const auto *A = as<AllocateNode>(S);
      if (A->Buf->MemScope == Scope::Global && A->Buf->Type == DType::Int8 &&
          A->Buf->Shape.size() == 4) {
        Packed.insert(A->Buf.get());
        stmt(A->Body);
        Packed.erase(A->Buf.get());
        return;
      }
      // VtaStorageFlatten leaves a stage buffer allocated around what no
      // pass lowered: that statement is the error to report.
      if (vtaElementLanes(A->Buf->MemScope) > 0) {
        size_t Before = Diags.size();
        stmt(A->Body);
        if (Diags.size() > Before)
          return;
      }
      break;
    }
    case StmtKind::Store:
      break;
    }
    error("the statement `" + stmtText(S.get()) +
          "` is not a VTA operation (give its loop pragma(x, alu) or pragma(x, dma_copy), or "
          "tensorize it with vta.gemm)");
  }

  //===--- Values ----------------------------------------------------------===//

  /// The constant value of E; an error naming What otherwise.
  bool constant(const Expr &E, const std::string &What, int64_t &Out) {
    if (getConstInt(simplify(E), Out))
      return true;
    callError("the " + What + " `" + print(E) + "` is not a constant");
    return false;
  }

  /// Constant bounds [Lo, Hi] of E over the host loops; an error naming What
  /// when there are none.
  bool bounded(const Expr &E, const std::string &What, int64_t &Lo, int64_t &Hi) {
    Interval I = boundsOf(E, Ranges);
    if ((I.Max && getConstInt(I.Max, Hi)) || constantUpperBound(E, Ranges, Hi))
      if (I.Min && getConstInt(I.Min, Lo))
        return true;
    callError("cannot bound the " + What + " `" + print(E) +
              "` by constants over the host loops");
    return false;
  }

  /// Lo <= E <= Hi over the host loops, with Limit naming the hardware's
  /// rule in the message. Gives E's maximum in Max.
  bool within(const Expr &E, const std::string &What, int64_t Lo, int64_t Hi,
              const std::string &Limit, int64_t *Max = nullptr) {
    int64_t Min, Top;
    if (!bounded(E, What, Min, Top))
      return false;
    if (Min < Lo || Top > Hi) {
      std::string Range = Min == Top ? std::to_string(Min)
                                     : "in [" + std::to_string(Min) + ", " + std::to_string(Top) + "]";
      callError("the " + What + " " + Range + " is outside " + Limit);
      return false;
    }
    if (Max)
      *Max = Top;
    return true;
  }

  bool field(const Expr &E, const std::string &What, int Bits, int64_t *Max = nullptr) {
    return within(E, What, 0, (int64_t(1) << Bits) - 1,
                  "the " + std::to_string(Bits) + "-bit field [0, " +
                      std::to_string((int64_t(1) << Bits) - 1) + "]",
                  Max);
  }

  //===--- Calls -----------------------------------------------------------===//

  void call(const CallNode *C) {
    if (C->Name == "vta.LoadBuffer2D" || C->Name == "vta.StoreBuffer2D")
      return dma(C, C->Name == "vta.LoadBuffer2D");
    if (C->Name == "vta.PushGEMMOp" || C->Name == "vta.PushALUOp")
      return push(C);
    if (C->Name == "vta.PackTiles")
      return packTiles(C);
    if (C->Name == "vta.synchronize") {
      if (!C->Args.empty())
        callError("vta.synchronize takes no arguments");
      return;
    }
    // dep_push / dep_pop
    int64_t From, To;
    if (C->Args.size() != 2) {
      callError("a token call takes 2 arguments (from, to)");
      return;
    }
    if (!constant(C->Args[0], "source queue", From) || !constant(C->Args[1], "target queue", To))
      return;
    if (From < VtaQueueLoad || From > VtaQueueStore || To < VtaQueueLoad || To > VtaQueueStore ||
        (From - To != 1 && To - From != 1))
      callError("tokens pass only between neighbouring queues (1 load, 2 compute, 3 store)");
  }

  void dma(const CallNode *C, bool IsLoad) {
    const size_t Args = IsLoad ? VtaLoadArgs : VtaStoreArgs;
    if (C->Args.size() != Args) {
      callError("expected " + std::to_string(Args) + " arguments (ir/Vta.h)");
      return;
    }
    const Expr &Dram = C->Args[IsLoad ? VtaLoadDram : VtaStoreDram];
    const BufferNode *Buf = dramBuffer(Dram);
    if (!Buf || (!BufferParams.count(Buf) && !(IsLoad && Packed.count(Buf)))) {
      callError("the DRAM operand `" + print(Dram) +
                "` is not a buffer parameter's base (a load of all-zero indices)" +
                (IsLoad ? " nor an allocated packed weight array's" : ""));
      return;
    }
    if (Packed.count(Buf) && !Filled.count(Buf)) {
      callError("it reads '" + Buf->Name + "' before vta.PackTiles fills it");
      return;
    }
    for (const Expr &S : Buf->Shape)
      if (!isLaunchExpr(S, Nest)) {
        callError("the shape of '" + Buf->Name +
                  "' is not known before the launch (an expression over scalar parameters)");
        return;
      }
    for (size_t I = 0; I < C->Args.size(); ++I)
      if (I != size_t(IsLoad ? VtaLoadDram : VtaStoreDram) && !scalarExpr(C->Args[I], "argument"))
        return;
    int64_t Mem;
    if (!constant(C->Args[IsLoad ? VtaLoadMem : VtaStoreMem], "memory type", Mem))
      return;
    if (IsLoad ? Mem != VtaMemInp && Mem != VtaMemWgt && Mem != VtaMemAcc && Mem != VtaMemAcc8
               : Mem != VtaMemOut) {
      callError("memory type " + std::to_string(Mem) + " is not one a " +
                (IsLoad ? "LOAD may fill (inp 2, wgt 1, acc 3, acc_8bit 5)"
                        : "STORE may read (out 4)"));
      return;
    }
    if (Buf->Type != memDramType(Mem)) {
      callError("the " + std::string(memName(Mem)) + " memory moves " +
                dtypeName(memDramType(Mem)) + " data, but '" + Buf->Name + "' holds " +
                dtypeName(Buf->Type));
      return;
    }
    const Expr *A = C->Args.data();
    Expr XSize = A[IsLoad ? VtaLoadXSize : VtaStoreXSize];
    Expr YSize = A[IsLoad ? VtaLoadYSize : VtaStoreYSize];
    Expr XStride = A[IsLoad ? VtaLoadXStride : VtaStoreXStride];
    Expr Sram = A[IsLoad ? VtaLoadSram : VtaStoreSram];
    Expr Offset = A[IsLoad ? VtaLoadOffset : VtaStoreOffset];
    int64_t X, Y, Stride, SramMax;
    bool Ok = field(XSize, "x_size", vta::MemSizeBits, &X);
    Ok = field(YSize, "y_size", vta::MemSizeBits, &Y) && Ok;
    Ok = field(XStride, "x_stride", vta::MemStrideBits, &Stride) && Ok;
    Ok = field(Sram, "SRAM index", vta::MemSramBits, &SramMax) && Ok;
    int64_t Pad[4] = {0, 0, 0, 0};
    if (IsLoad) {
      static const char *const PadNames[] = {"x_pad_before", "y_pad_before", "x_pad_after",
                                             "y_pad_after"};
      for (int P = 0; P < 4; ++P)
        Ok = field(A[VtaLoadXPad0 + P], PadNames[P], vta::MemPadBits, &Pad[P]) && Ok;
    }
    Interval Off = boundsOf(Offset, Ranges);
    int64_t OffMin;
    if (Off.Min && getConstInt(Off.Min, OffMin) && OffMin < 0) {
      callError("the DRAM offset `" + print(Offset) + "` may be negative (" +
                std::to_string(OffMin) + ")");
      Ok = false;
    }
    if (!Ok)
      return;
    // The SRAM elements written (LOAD, padding included, densely) or read.
    int64_t Depth = memDepth(Mem);
    int64_t Elements = (Pad[0] + X + Pad[2]) * (Pad[1] + Y + Pad[3]);
    if (SramMax + Elements > Depth) {
      callError(std::string(IsLoad ? "writes " : "reads ") + memName(Mem) + " elements up to " +
                std::to_string(SramMax + Elements - 1) + ", past the " + memName(Mem) +
                " buffer's depth " + std::to_string(Depth) +
                (IsLoad ? " (SRAM index + (x_pad_before + x_size + x_pad_after) * (y_pad_before + "
                          "y_size + y_pad_after) <= depth)"
                        : " (SRAM index + x_size * y_size <= depth)"));
      return;
    }
    // The DRAM elements, where everything is constant.
    int64_t Total = 1;
    bool ConstShape = true;
    for (const Expr &S : Buf->Shape) {
      int64_t D;
      ConstShape &= getConstInt(simplify(S), D);
      Total *= ConstShape ? D : 1;
    }
    // The end of the last row, bounded as one expression: a padded LOAD's
    // offset and sizes move together with the loops around it (the window
    // of the last tile starts lower and has fewer rows), which bounds of
    // each alone do not see. Its max arms are bounded one by one.
    int64_t End = 0;
    bool Bounded = ConstShape && X > 0 && Y > 0;
    Expr Last = simplify(Offset + (YSize - makeInt(1)) * XStride + XSize);
    for (const Expr &Arm : minMaxArms(Last, BinOp::Max)) {
      int64_t ArmEnd;
      Bounded = Bounded && constantUpperBound(Arm, Ranges, ArmEnd);
      End = Bounded ? std::max(End, ArmEnd) : End;
    }
    if (Bounded) {
      int64_t Capacity = Total * dtypeBytes(Buf->Type) / vtaDramElementBytes(Mem);
      if (End > Capacity)
        callError(std::string(IsLoad ? "reads " : "writes ") + memName(Mem) + " elements up to " +
                  std::to_string(End - 1) + " of '" + Buf->Name + "', which holds " +
                  std::to_string(Capacity) +
                  " (elem_offset + (y_size - 1) * x_stride + x_size <= its elements)");
    }
  }

  /// vta.PackTiles(P, W, rows, cols, transposed): P, allocated around the
  /// program, is W[rows][cols] (a buffer parameter) tile by tile,
  /// [rows/16][cols/16][16][16] ([cols/16][rows/16][16][16] transposed).
  void packTiles(const CallNode *C) {
    if (C->Args.size() != 5) {
      callError("expected 5 arguments (packed, weights, rows, cols, transposed: ir/Vta.h)");
      return;
    }
    const BufferNode *P = dramBuffer(C->Args[0]), *W = dramBuffer(C->Args[1]);
    if (!P || !Packed.count(P)) {
      callError("`" + print(C->Args[0]) + "` is not the base of a packed weight array allocated "
                "around the program");
      return;
    }
    if (!W || !BufferParams.count(W) || W->Type != DType::Int8) {
      callError("`" + print(C->Args[1]) + "` is not the base of an int8 buffer parameter");
      return;
    }
    if (!Ranges.empty()) {
      callError("it must run once, before the program's loops");
      return;
    }
    int64_t Rows, Cols, Size = 1, D;
    int64_t Transposed;
    if (!constant(C->Args[2], "row count", Rows) || !constant(C->Args[3], "column count", Cols) ||
        !constant(C->Args[4], "transposed flag", Transposed))
      return;
    for (const Expr &S : W->Shape)
      Size = getConstInt(simplify(S), D) ? Size * D : -1;
    const int64_t Want[4] = {(Transposed ? Cols : Rows) / vta::BlockOut,
                             (Transposed ? Rows : Cols) / vta::BlockIn, vta::BlockOut,
                             vta::BlockIn};
    bool Fits = Rows > 0 && Cols > 0 && Rows % vta::BlockOut == 0 && Cols % vta::BlockIn == 0;
    for (int I = 0; I < 4; ++I)
      Fits = Fits && getConstInt(simplify(P->Shape[I]), D) && D == Want[I];
    if (!Fits || Size != Rows * Cols) {
      callError("the weights must be " + std::to_string(Rows) + "x" + std::to_string(Cols) +
                " (multiples of 16, all of '" + W->Name + "') and '" + P->Name + "' [" +
                std::to_string(Want[0]) + ", " + std::to_string(Want[1]) + ", 16, 16]");
      return;
    }
    Filled.insert(P);
  }

  void push(const CallNode *C) {
    VtaUopKernel K;
    if (!decodeVtaUopKernel(C, K)) {
      callError("malformed: expected the fixed arguments and whole uops of ir/Vta.h");
      return;
    }
    int64_t NLoops, Reset = 0, Op = 0, UseImm = 0, Imm = 0;
    bool Ok = constant(K.NumLoops, "number of uop loops", NLoops);
    if (K.IsGemm) {
      Ok = constant(K.Reset, "reset flag", Reset) && Ok;
    } else {
      Ok = constant(K.AluOp, "ALU opcode", Op) && Ok;
      Ok = constant(K.UseImm, "use_imm flag", UseImm) && Ok;
      Ok = constant(K.Imm, "immediate", Imm) && Ok;
    }
    if (!Ok)
      return;
    if (NLoops < 0 || NLoops > vta::MaxUopLoops) {
      callError(std::to_string(NLoops) + " uop loops (a kernel has at most " +
                std::to_string(vta::MaxUopLoops) + ")");
      return;
    }
    if ((K.IsGemm && Reset != 0 && Reset != 1) || UseImm < 0 || UseImm > 1) {
      callError("a flag is not 0 or 1");
      return;
    }
    if (!K.IsGemm) {
      if (Op < VtaAluMin || Op > VtaAluMul) {
        callError("unknown ALU opcode " + std::to_string(Op));
        return;
      }
      const int64_t ImmMax = (int64_t(1) << (vta::AluImmBits - 1)) - 1;
      if (UseImm && (Imm < -ImmMax - 1 || Imm > ImmMax)) {
        callError("the immediate " + std::to_string(Imm) + " does not fit int16 (the ALU's " +
                  std::to_string(vta::AluImmBits) + "-bit immediate)");
        return;
      }
      const int64_t ShrMax = (int64_t(1) << (vta::ShrArgBits - 1)) - 1;
      if (UseImm && Op == VtaAluShr && (Imm < -ShrMax - 1 || Imm > ShrMax)) {
        callError("the shift amount " + std::to_string(Imm) + " is outside [" +
                  std::to_string(-ShrMax - 1) + ", " + std::to_string(ShrMax) +
                  "] (the hardware reads its low " + std::to_string(vta::ShrArgBits) + " bits)");
        return;
      }
    }
    // Loops: constant; the used ones within the fields, the others 0.
    int64_t Reach[3] = {0, 0, 0}; // dst, src, wgt: how far the loops move an index
    static const char *const Which[] = {"outer", "inner"};
    for (int L = 0; L < vta::MaxUopLoops; ++L) {
      const VtaUopKernel::Loop &Lp = K.Loops[L];
      std::string Name = std::string(Which[L]) + " uop loop's ";
      int64_t E, F[3];
      if (!constant(Lp.Extent, Name + "extent", E) || !constant(Lp.Dst, Name + "dst factor", F[0]) ||
          !constant(Lp.Src, Name + "src factor", F[1]) ||
          !constant(Lp.Wgt, Name + "wgt factor", F[2]))
        return;
      if (L >= NLoops) {
        if (E || F[0] || F[1] || F[2]) {
          callError("the " + std::string(Which[L]) + " uop loop is unused (nloops " +
                    std::to_string(NLoops) + ") but not all 0");
          return;
        }
        continue;
      }
      Expr Const[4] = {makeInt(E), makeInt(F[0]), makeInt(F[1]), makeInt(F[2])};
      const int FactorBits[3] = {vta::AccFactorBits, vta::InpFactorBits, vta::WgtFactorBits};
      static const char *const FactorNames[] = {"dst factor", "src factor", "wgt factor"};
      if (!within(Const[0], Name + "extent", 1, (int64_t(1) << vta::LoopIterBits) - 1,
                  "[1, 2^" + std::to_string(vta::LoopIterBits) + ")"))
        return;
      for (int I = 0; I < 3; ++I)
        if (!field(Const[I + 1], Name + FactorNames[I], FactorBits[I]))
          return;
      for (int I = 0; I < 3; ++I)
        Reach[I] += (E - 1) * F[I];
    }
    // Uops.
    if (K.Uops.empty() || int64_t(K.Uops.size()) > vta::UopDepth) {
      callError(std::to_string(K.Uops.size()) + " uops (a kernel has 1 to " +
                std::to_string(vta::UopDepth) + ", the uop buffer's depth)");
      return;
    }
    std::set<const VarNode *> Vars;
    for (const VtaUopKernel::Uop &U : K.Uops)
      for (const Expr &E : {U.Dst, U.Src, U.Wgt}) {
        if (!scalarExpr(E, "uop index"))
          return;
        for (const VarNode *V : varsOf(E))
          Vars.insert(V);
      }
    if (Vars.size() > 1) {
      callError("its uop indices use " + std::to_string(Vars.size()) +
                " variables (a kernel's signature is one host loop variable)");
      return;
    }
    if (!Vars.empty()) {
      const VarNode *V = *Vars.begin();
      if (!Ranges.count(V)) {
        callError("its uop indices use the scalar parameter `" + V->Name +
                  "` (a uop kernel is built once per process: only a host loop variable may "
                  "select it, as its signature)");
        return;
      }
      if (!within(borrow(V), "signature `" + V->Name + "`", 0, vta::MaxSignature - 1,
                  "[0, " + std::to_string(vta::MaxSignature) + ") (the runtime caches " +
                      std::to_string(vta::MaxSignature) + " signatures per kernel)"))
        return;
    }
    const int64_t Mems[3] = {VtaMemAcc, K.IsGemm ? VtaMemInp : VtaMemAcc, VtaMemWgt};
    static const char *const Operand[] = {"dst", "src", "wgt"};
    for (size_t N = 0; N < K.Uops.size(); ++N) {
      const VtaUopKernel::Uop &U = K.Uops[N];
      const Expr Index[3] = {U.Dst, U.Src, U.Wgt};
      for (int I = 0; I < int(vtaUopOperands(K.IsGemm)); ++I) {
        int64_t Depth = memDepth(Mems[I]);
        std::string What = std::string(Operand[I]) + " index of uop " + std::to_string(N);
        if (!within(Index[I], What, 0, Depth - 1 - Reach[I],
                    std::string("the ") + memName(Mems[I]) + " buffer (depth " +
                        std::to_string(Depth) + ", with the uop loops moving it up to " +
                        std::to_string(Reach[I]) + " further)"))
          return;
      }
      for (size_t Back = 1; Back <= vta::UopHazardWindow && Back <= N; ++Back) {
        int64_t Diff;
        if (!getConstInt(simplify(U.Dst - K.Uops[N - Back].Dst), Diff) || Diff == 0) {
          callError("uops " + std::to_string(N - Back) + " and " + std::to_string(N) +
                    " may write the same acc element (" + print(U.Dst) +
                    "): the GEMM pipeline needs the dst of a uop to differ from the previous "
                    "two");
          return;
        }
      }
    }
  }
};

} // namespace

bool verifyVtaProgram(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  return Verifier(Nest, Diags).run();
}

namespace {
/// What verifyVtaForm checks besides verifyVtaProgram: the calls and
/// statements a form rules out.
class FormChecker : public IRVisitor {
public:
  FormChecker(unsigned Form, std::vector<Diag> &Diags) : Form(Form), Diags(Diags) {}
  bool Failed = false;

protected:
  void visitCall(const CallNode *N) override {
    bool Uop = N->Name == "vta.uop_gemm" || N->Name == "vta.uop_gemm_reset" ||
               N->Name == "vta.uop_alu";
    bool Kernel = N->Name == "vta.push_gemm" || N->Name == "vta.push_alu" ||
                  N->Name == "vta.load_2d" || N->Name == "vta.store_2d" ||
                  N->Name == "vta.pack_tiles";
    if ((Form & VtaFormFolded) && Uop)
      error("`" + print(borrow(N)) + "` is a uop outside a vta.push_*");
    else if ((Form & VtaFormFinal) && (Uop || Kernel))
      error("`" + print(borrow(N)) + "` is not in the final (runtime API) form");
    IRVisitor::visitCall(N);
  }
  void visitFor(const ForNode *N) override {
    if ((Form & VtaFormNoContexts) && N->LoopKind == ForKind::ThreadBound)
      error("loop '" + N->LoopVar->Name + "' is still bound to " + N->ThreadTag);
    IRVisitor::visitFor(N);
  }

private:
  const unsigned Form;
  std::vector<Diag> &Diags;

  void error(const std::string &Message) {
    Diag D;
    D.Message = "malformed VTA program: " + Message;
    Diags.push_back(D);
    Failed = true;
  }
};
} // namespace

bool verifyVtaForm(const ir::LoopNest &Nest, unsigned Form, std::vector<Diag> &Diags) {
  // Each form includes those the pipeline establishes before it; bits of
  // other targets' forms (KernelForm) are not this verifier's.
  Form &= VtaFormComplete;
  unsigned Reached = 0;
  for (unsigned Bit = VtaFormFolded; Bit && Bit <= Form; Bit <<= 1)
    Reached |= Bit;
  // Variables and buffers defined where used, one index per dimension: the
  // kernel verifier's checks that hold of every form of every target.
  bool Ok = verifyKernel(Nest, KernelContext(), FormAny, Diags);
  FormChecker Checker(Reached, Diags);
  Checker.visit(Nest.Body);
  Ok &= !Checker.Failed;
  if ((Reached & VtaFormSynchronized) && !endsWithSynchronize(Nest.Body)) {
    Diag D;
    D.Message = "malformed VTA program: it does not end with vta.synchronize()";
    Diags.push_back(D);
    Ok = false;
  }
  if (Reached & VtaFormVerified)
    Ok &= verifyVtaProgram(Nest, Diags);
  return Ok;
}

namespace {
class DmaBuffers : public ir::IRVisitor {
public:
  std::map<const ir::BufferNode *, std::pair<bool, bool>> ReadWritten;

protected:
  void visitCall(const ir::CallNode *N) override {
    bool Load = N->Name == "vta.LoadBuffer2D" || N->Name == "vta.PackTiles",
         Store = N->Name == "vta.StoreBuffer2D";
    size_t Arg = N->Name == "vta.PackTiles" ? 1 : Load ? ir::VtaLoadDram : ir::VtaStoreDram;
    if ((Load || Store) && Arg < N->Args.size())
      if (const ir::BufferNode *B = dramBuffer(N->Args[Arg]))
        (Load ? ReadWritten[B].first : ReadWritten[B].second) = true;
    ir::IRVisitor::visitCall(N);
  }
};
} // namespace

std::vector<BufferRegion> computeVtaBufferRegions(const ir::LoopNest &Nest) {
  DmaBuffers Scan;
  Scan.visit(Nest.Body);
  std::vector<BufferRegion> Regions;
  for (const ir::Param &P : Nest.Params) {
    if (P.ParamKind != ir::Param::Kind::Buffer)
      continue;
    auto It = Scan.ReadWritten.find(P.Buf.get());
    if (It == Scan.ReadWritten.end())
      continue;
    BufferRegion R;
    R.Param = P.Buf->Name;
    R.Extent = ir::makeInt(1);
    for (const ir::Expr &S : P.Buf->Shape)
      R.Extent = R.Extent * S;
    R.Extent = ir::simplify(R.Extent);
    R.Read = It->second.first;
    R.Written = It->second.second;
    Regions.push_back(R);
  }
  return Regions;
}

const Pass VerifyVtaProgramPass = {
    "VerifyVtaProgram", /*Requires=*/FormAny, /*Establishes=*/VtaFormVerified,
    [](LoweringState &S) {
      if (!verifyVtaProgram(S.Nest, S.Diags))
        return false;
      S.Regions = computeVtaBufferRegions(S.Nest);
      return true;
    }};

} // namespace passes
} // namespace sched
