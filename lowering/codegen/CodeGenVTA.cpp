//===- CodeGenVTA.cpp - C++ calling the VTA runtime for a lowered program -===//
//
// See CodeGenVTA.h. The program is in final form (VerifyVtaProgram ran):
// each call prints as its runtime function with `cmd` (the thread's
// VTATLSCommandHandle) in front where the API takes one, so the body reads
// like the lowered programs of the VTA tutorials (../research/vta.md 4):
//
//   static void *sched_uop_0 = nullptr;
//   static int sched_finit_0(void *signature) {
//     VTAUopLoopBegin(16, 1, 0, 0);
//     VTAUopPush(0, 1, 0, 0, 0, 0, 0, 0);
//     VTAUopLoopEnd();
//     return 0;
//   }
//   static int sched_run(VTACommandHandle cmd, void *A, void *B, void *C) {
//     VTAPushGEMMOp(&sched_uop_0, sched_finit_0, nullptr, 0);
//     VTADepPush(cmd, 2, 1);
//     for (int32_t ko = 0; ko < 16; ++ko) { ... }
//     ...
//     VTASynchronize(cmd, 1u << 31);
//     if (VTASchedLastError && VTASchedLastError()) return 1;
//     return 0;
//   }
//   extern "C" int gemm(int8_t *A, int8_t *B, int8_t *C) { alloc, copy, run, copy back, free }
//
// Inside sched_run a buffer parameter's name is its device handle. A uop
// kernel whose indices use a host variable takes it as its 4-byte signature
// and reads it back in its finit.
//
//===----------------------------------------------------------------------===//
#include "codegen/CodeGenVTA.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "ir/Vta.h"
#include "ir/IRVisitor.h"
#include "ir/Names.h"
#include "ir/Rewrite.h"

#include <map>
#include <set>
#include <sstream>

namespace sched {

namespace {

using namespace ir;

/// The <cstdint> name of an integer type ("" for another type).
const char *cType(DType T) {
  switch (T) {
  case DType::Bool: return "bool";
  case DType::Int8: return "int8_t";
  case DType::UInt8: return "uint8_t";
  case DType::Int16: return "int16_t";
  case DType::UInt16: return "uint16_t";
  case DType::Int32: return "int32_t";
  case DType::UInt32: return "uint32_t";
  case DType::Int64: return "int64_t";
  case DType::UInt64: return "uint64_t";
  case DType::Float32: return "float";
  case DType::Float64: return "double";
  default: return "";
  }
}

/// The runtime functions, with their published signatures (vta_runtime.h).
const std::pair<const char *, const char *> ApiDeclarations[] = {
    {"VTABufferAlloc", "void *VTABufferAlloc(size_t size);"},
    {"VTABufferFree", "void VTABufferFree(void *buffer);"},
    {"VTABufferCopy", "void VTABufferCopy(const void *from, size_t from_offset, void *to, "
                      "size_t to_offset, size_t size, int kind_mask);"},
    {"VTABufferCPUPtr", "void *VTABufferCPUPtr(VTACommandHandle cmd, void *buffer);"},
    {"VTATLSCommandHandle", "VTACommandHandle VTATLSCommandHandle(void);"},
    {"VTALoadBuffer2D",
     "void VTALoadBuffer2D(VTACommandHandle cmd, void *src_dram_addr, uint32_t src_elem_offset, "
     "uint32_t x_size, uint32_t y_size, uint32_t x_stride, uint32_t x_pad_before, uint32_t "
     "y_pad_before, uint32_t x_pad_after, uint32_t y_pad_after, uint32_t dst_sram_index, "
     "uint32_t dst_memory_type);"},
    {"VTAStoreBuffer2D",
     "void VTAStoreBuffer2D(VTACommandHandle cmd, uint32_t src_sram_index, uint32_t "
     "src_memory_type, void *dst_dram_addr, uint32_t dst_elem_offset, uint32_t x_size, uint32_t "
     "y_size, uint32_t x_stride);"},
    {"VTAUopLoopBegin", "void VTAUopLoopBegin(uint32_t extent, uint32_t dst_factor, uint32_t "
                        "src_factor, uint32_t wgt_factor);"},
    {"VTAUopLoopEnd", "void VTAUopLoopEnd(void);"},
    {"VTAUopPush", "void VTAUopPush(uint32_t mode, uint32_t reset_out, uint32_t dst_index, "
                   "uint32_t src_index, uint32_t wgt_index, uint32_t opcode, uint32_t use_imm, "
                   "int32_t imm_val);"},
    {"VTAPushGEMMOp",
     "int VTAPushGEMMOp(void **uop_handle, int (*finit)(void *), void *signature, int nbytes);"},
    {"VTAPushALUOp",
     "int VTAPushALUOp(void **uop_handle, int (*finit)(void *), void *signature, int nbytes);"},
    {"VTADepPush", "int VTADepPush(VTACommandHandle cmd, int from_qid, int to_qid);"},
    {"VTADepPop", "int VTADepPop(VTACommandHandle cmd, int from_qid, int to_qid);"},
    {"VTASynchronize", "void VTASynchronize(VTACommandHandle cmd, uint32_t wait_cycles);"},
    // sched's extensions: weak, so that a board's runtime without them links.
    {"VTASchedClearError", "void VTASchedClearError(void) __attribute__((weak));"},
    {"VTASchedLastError", "const char *VTASchedLastError(void) __attribute__((weak));"},
};

class VTAEmitter {
public:
  VTAEmitter(const LoweredKernel &K, std::vector<Diag> &Diags) : K(K), Diags(Diags) {
    for (const char *Word : {"cmd", "signature", "sched_run", "int", "for", "if", "else", "return",
                             "const", "void", "auto", "char", "long", "short", "signed",
                             "unsigned", "float", "double", "bool", "true", "false", "new",
                             "delete", "class", "struct", "static", "do", "while", "case",
                             "default", "switch", "break", "continue", "goto", "this"})
      Names.reserve(Word);
    Names.reserve(K.Kernel.Name);
  }

  bool emit(std::string &Out) {
    size_t FirstDiag = Diags.size();
    // Parameters first: their names are fixed by the signature.
    for (const Param &P : K.Kernel.Params)
      name(P.ParamKind == Param::Kind::Buffer ? static_cast<const void *>(P.Buf.get())
                                              : P.Scalar.get(),
           P.name());
    use("VTATLSCommandHandle");
    use("VTABufferAlloc");
    use("VTABufferCopy");
    use("VTABufferFree");
    use("VTASchedClearError");
    stmt(K.Kernel.Body, 1);
    for (size_t I = FirstDiag; I < Diags.size(); ++I)
      if (Diags[I].Severity == Diag::Level::Error)
        return false;

    std::ostringstream OS;
    OS << "// Generated by sched (target(vta)) from " << source()
       << ". Do not edit.\n"
          "// Links against a VTA runtime: sched's (libsched_runtime, over its simulator)\n"
          "// or a board's.\n"
          "#include <cstddef>\n#include <cstdint>\n\nextern \"C\" {\n"
          "typedef void *VTACommandHandle;\n";
    for (const auto &D : ApiDeclarations)
      if (UsedApi.count(D.first))
        OS << D.second << "\n";
    OS << "}\n";
    if (UsesMinMax)
      OS << "\nstatic inline int64_t sched_min(int64_t a, int64_t b) { return a < b ? a : b; }\n"
            "static inline int64_t sched_max(int64_t a, int64_t b) { return a > b ? a : b; }\n";
    OS << Kernels.str();
    OS << "\nstatic int sched_run(VTACommandHandle cmd" << runParams(true) << ") {\n"
       << Body.str() << "  return 0;\n}\n";
    OS << launcher();
    Out = OS.str();
    return true;
  }

private:
  const LoweredKernel &K;
  std::vector<Diag> &Diags;
  ir::UniqueNames Names;
  std::set<std::string> UsedApi;
  std::ostringstream Kernels, Body;
  int NumKernels = 0;
  bool UsesMinMax = false;
  /// The program's own DRAM buffers (packed weights): the launcher
  /// allocates them beside the parameters' and passes them to sched_run.
  std::vector<std::pair<std::string, int64_t>> ProgramBuffers; // name, bytes

  void error(const std::string &Message) {
    Diag D;
    D.Message = "cannot generate VTA C++: " + Message;
    Diags.push_back(D);
  }

  void use(const char *Api) { UsedApi.insert(Api); }

  std::string source() const {
    if (K.Kernel.SourceFile.empty())
      return "a loop nest";
    return K.Kernel.SourceFile +
           (K.Kernel.SourceLine ? ":" + std::to_string(K.Kernel.SourceLine) : std::string());
  }

  /// A distinct C identifier per IR object.
  const std::string &name(const void *Object, const std::string &IRName) {
    std::string Base = ir::cIdentifier(IRName, "v", "v");
    if (Base.compare(0, 6, "sched_") == 0 || Base.compare(0, 3, "VTA") == 0)
      Base = "v_" + Base;
    return Names.nameOf(Object, Base);
  }
  const std::string &var(const VarNode *V) { return name(V, V->Name); }

  static std::string indent(int Depth) { return std::string(2 * Depth, ' '); }

  //===--- Expressions ---------------------------------------------------===//

  std::string expr(const Expr &E) {
    switch (E->Kind) {
    case ExprKind::IntImm: {
      const auto *N = as<IntImmNode>(E);
      std::string V = std::to_string(N->Value);
      if (N->Type == DType::Int64 || N->Type == DType::UInt64)
        V += "LL";
      return N->Value < 0 ? "(" + V + ")" : V;
    }
    case ExprKind::Var: return var(as<VarNode>(E));
    case ExprKind::Binary: {
      const auto *N = as<BinaryNode>(E);
      if (N->Op == BinOp::Min || N->Op == BinOp::Max) {
        UsesMinMax = true;
        return std::string(N->Op == BinOp::Min ? "sched_min(" : "sched_max(") + expr(N->A) +
               ", " + expr(N->B) + ")";
      }
      const char *Op = N->Op == BinOp::And ? "&&" : N->Op == BinOp::Or ? "||" : binOpSymbol(N->Op);
      return "(" + expr(N->A) + " " + Op + " " + expr(N->B) + ")";
    }
    case ExprKind::Unary: {
      const auto *N = as<UnaryNode>(E);
      return std::string(N->Op == UnOp::Neg ? "(-" : N->Op == UnOp::Not ? "(!" : "(~") +
             expr(N->A) + ")";
    }
    case ExprKind::Select: {
      const auto *N = as<SelectNode>(E);
      return "(" + expr(N->Cond) + " ? " + expr(N->TrueValue) + " : " + expr(N->FalseValue) + ")";
    }
    case ExprKind::Cast: {
      const auto *N = as<CastNode>(E);
      if (isInt(N->Type) || N->Type == DType::Bool)
        return "((" + std::string(cType(N->Type)) + ")" + expr(N->Value) + ")";
      break;
    }
    case ExprKind::FloatImm:
    case ExprKind::Load:
    case ExprKind::Call:
      break;
    }
    error("the value `" + print(E) + "` is not integer arithmetic");
    return "0";
  }

  /// An argument: without the outer parentheses every binary carries.
  std::string arg(const Expr &E) {
    std::string S = expr(E);
    if (S.size() >= 2 && S.front() == '(' && S.back() == ')') {
      int Depth = 0;
      for (size_t I = 0; I < S.size(); ++I) {
        Depth += S[I] == '(' ? 1 : S[I] == ')' ? -1 : 0;
        if (Depth == 0 && I + 1 < S.size())
          return S;
      }
      return S.substr(1, S.size() - 2);
    }
    return S;
  }

  std::string args(const std::vector<Expr> &A, size_t Begin, size_t End) {
    std::string S;
    for (size_t I = Begin; I < End; ++I)
      S += (I == Begin ? "" : ", ") + arg(A[I]);
    return S;
  }

  //===--- Statements ----------------------------------------------------===//

  void stmt(const Stmt &S, int Depth) {
    if (!S)
      return;
    std::string In = indent(Depth);
    switch (S->Kind) {
    case StmtKind::Seq:
      for (const Stmt &C : as<SeqNode>(S)->Stmts)
        stmt(C, Depth);
      return;
    case StmtKind::For: {
      const auto *F = as<ForNode>(S);
      const std::string &V = var(F->LoopVar.get());
      int64_t Min;
      std::string End = getConstInt(F->Min, Min) && Min == 0
                            ? arg(F->Extent)
                            : arg(simplify(F->Min + F->Extent));
      Body << In << "for (" << cType(F->LoopVar->Type) << " " << V << " = " << arg(F->Min) << "; "
           << V << " < " << End << "; ++" << V << ") {\n";
      stmt(F->Body, Depth + 1);
      Body << In << "}\n";
      return;
    }
    case StmtKind::LetStmt: {
      const auto *L = as<LetStmtNode>(S);
      Body << In << "{\n"
           << In << "  const " << cType(L->LetVar->Type) << " " << var(L->LetVar.get()) << " = "
           << arg(L->Value) << ";\n";
      stmt(L->Body, Depth + 1);
      Body << In << "}\n";
      return;
    }
    case StmtKind::IfThenElse: {
      const auto *I = as<IfThenElseNode>(S);
      Body << In << "if (" << arg(I->Cond) << ") {\n";
      stmt(I->Then, Depth + 1);
      if (I->Else) {
        Body << In << "} else {\n";
        stmt(I->Else, Depth + 1);
      }
      Body << In << "}\n";
      return;
    }
    case StmtKind::Evaluate:
      if (const auto *C = as<CallNode>(as<EvaluateNode>(S)->Value)) {
        call(C, In);
        return;
      }
      break;
    case StmtKind::Allocate: {
      const auto *A = as<AllocateNode>(S);
      int64_t Elements = 1, Extent;
      for (const Expr &E : A->Buf->Shape)
        Elements = getConstInt(simplify(E), Extent) && Elements >= 0 ? Elements * Extent : -1;
      if (A->Buf->MemScope != Scope::Global || Elements < 0)
        break;
      ProgramBuffers.push_back(
          {name(A->Buf.get(), A->Buf->Name), Elements * int64_t(dtypeBytes(A->Buf->Type))});
      stmt(A->Body, Depth);
      return;
    }
    case StmtKind::Store:
      break;
    }
    error("the statement `" + ir::stmtText(S.get()) + "` is not part of a VTA program");
  }

  std::string dramName(const Expr &E) {
    if (const auto *L = as<LoadNode>(E))
      return name(L->Buf.get(), L->Buf->Name);
    error("the DRAM operand `" + print(E) + "` is not a buffer");
    return "nullptr";
  }

  void call(const CallNode *C, const std::string &In) {
    const std::string &N = C->Name;
    const std::vector<Expr> &A = C->Args;
    if (N == "vta.LoadBuffer2D" && A.size() == VtaLoadArgs) {
      use("VTALoadBuffer2D");
      Body << In << "VTALoadBuffer2D(cmd, " << dramName(A[VtaLoadDram]) << ", "
           << args(A, VtaLoadOffset, VtaLoadArgs) << ");\n";
    } else if (N == "vta.StoreBuffer2D" && A.size() == VtaStoreArgs) {
      use("VTAStoreBuffer2D");
      Body << In << "VTAStoreBuffer2D(cmd, " << args(A, VtaStoreSram, VtaStoreDram) << ", "
           << dramName(A[VtaStoreDram]) << ", " << args(A, VtaStoreOffset, VtaStoreArgs)
           << ");\n";
    } else if ((N == "vta.dep_push" || N == "vta.dep_pop") && A.size() == 2) {
      const char *Fn = N == "vta.dep_push" ? "VTADepPush" : "VTADepPop";
      use(Fn);
      Body << In << Fn << "(cmd, " << args(A, 0, 2) << ");\n";
    } else if (N == "vta.synchronize" && A.empty()) {
      use("VTASynchronize");
      use("VTASchedLastError");
      Body << In << "VTASynchronize(cmd, 1u << 31);\n"
           << In << "if (VTASchedLastError && VTASchedLastError())\n"
           << In << "  return 1;\n";
    } else if (N == "vta.PushGEMMOp" || N == "vta.PushALUOp") {
      push(C, In);
    } else if (N == "vta.PackTiles" && A.size() == 5) {
      packTiles(A, In);
    } else {
      error("the call `" + print(borrowCall(C)) + "` is not a final-form VTA call");
    }
  }

  static Expr borrowCall(const CallNode *C) { return ir::borrow(C); }

  /// ir::vtaPackTiles as a loop over the weights' device copy.
  void packTiles(const std::vector<Expr> &A, const std::string &In) {
    use("VTABufferCPUPtr");
    int64_t Transposed = 0;
    if (!getConstInt(A[4], Transposed)) {
      error("the transposed flag of vta.PackTiles is not a constant");
      return;
    }
    std::string Rows = arg(A[2]), Cols = arg(A[3]);
    std::string B = std::to_string(vta::BlockIn), O = std::to_string(vta::BlockOut);
    // Element (r, c) of the weights is the tiles' (j, k), or (k, j).
    std::string J = Transposed ? "sched_c" : "sched_r", K = Transposed ? "sched_r" : "sched_c";
    std::string KCount = Transposed ? Rows : Cols;
    Body << In << "{\n"
         << In << "  const int8_t *sched_src = (const int8_t *)VTABufferCPUPtr(cmd, "
         << dramName(A[1]) << ");\n"
         << In << "  int8_t *sched_dst = (int8_t *)VTABufferCPUPtr(cmd, " << dramName(A[0])
         << ");\n"
         << In << "  for (int64_t sched_r = 0; sched_r < " << Rows << "; ++sched_r)\n"
         << In << "    for (int64_t sched_c = 0; sched_c < " << Cols << "; ++sched_c)\n"
         << In << "      sched_dst[((" << J << " / " << O << " * (" << KCount << " / " << B
         << ") + " << K << " / " << B << ") * " << O << " + " << J << " % " << O << ") * " << B
         << " + " << K << " % " << B << "] = sched_src[sched_r * " << Cols << " + sched_c];\n"
         << In << "}\n";
  }

  void push(const CallNode *C, const std::string &In) {
    VtaUopKernel Kern;
    if (!decodeVtaUopKernel(C, Kern)) {
      error("malformed uop kernel `" + print(borrowCall(C)) + "`");
      return;
    }
    const int Id = NumKernels++;
    const std::string Handle = "sched_uop_" + std::to_string(Id);
    const std::string Finit = "sched_finit_" + std::to_string(Id);
    const char *Fn = Kern.IsGemm ? "VTAPushGEMMOp" : "VTAPushALUOp";
    use(Fn);
    use("VTAUopLoopBegin");
    use("VTAUopPush");
    use("VTAUopLoopEnd");
    const VarNode *Sig = nullptr;
    for (const VtaUopKernel::Uop &U : Kern.Uops)
      for (const Expr &E : {U.Dst, U.Src, U.Wgt})
        for (const VarNode *V : varsOf(E))
          Sig = V;
    int64_t NLoops = 0;
    if (!getConstInt(Kern.NumLoops, NLoops))
      error("the number of uop loops of `" + print(borrowCall(C)) + "` is not a constant");
    Kernels << "\nstatic void *" << Handle << " = nullptr;\n"
            << "static int " << Finit << "(void *signature) {\n";
    if (Sig)
      Kernels << "  const int32_t " << var(Sig) << " = *static_cast<const int32_t *>(signature);\n";
    else
      Kernels << "  (void)signature;\n";
    for (int64_t L = 0; L < NLoops && L < vta::MaxUopLoops; ++L) {
      const VtaUopKernel::Loop &Lp = Kern.Loops[L];
      Kernels << "  VTAUopLoopBegin(" << arg(Lp.Extent) << ", " << arg(Lp.Dst) << ", "
              << arg(Lp.Src) << ", " << arg(Lp.Wgt) << ");\n";
    }
    std::string Flags = Kern.IsGemm ? "0, " + arg(Kern.Reset) : "1, 0";
    std::string Alu = Kern.IsGemm ? "0, 0, 0"
                                  : arg(Kern.AluOp) + ", " + arg(Kern.UseImm) + ", " + arg(Kern.Imm);
    for (const VtaUopKernel::Uop &U : Kern.Uops)
      Kernels << "  VTAUopPush(" << Flags << ", " << arg(U.Dst) << ", " << arg(U.Src) << ", "
              << arg(U.Wgt) << ", " << Alu << ");\n";
    for (int64_t L = 0; L < NLoops && L < vta::MaxUopLoops; ++L)
      Kernels << "  VTAUopLoopEnd();\n";
    Kernels << "  return 0;\n}\n";
    if (Sig) {
      std::string SigVar = "sched_signature_" + std::to_string(Id);
      Body << In << "int32_t " << SigVar << " = " << var(Sig) << ";\n"
           << In << Fn << "(&" << Handle << ", " << Finit << ", &" << SigVar << ", 4);\n";
    } else {
      Body << In << Fn << "(&" << Handle << ", " << Finit << ", nullptr, 0);\n";
    }
  }

  //===--- The launcher --------------------------------------------------===//

  /// ", void *A, void *B, int32_t N" (Declare) or ", sched_dev_A, sched_dev_B, N".
  std::string runParams(bool Declare) {
    std::string S;
    for (const auto &[B, Bytes] : ProgramBuffers)
      S += Declare ? ", void *" + B : ", sched_dev_" + B;
    for (const Param &P : K.Kernel.Params) {
      if (P.ParamKind == Param::Kind::Buffer) {
        if (!regionOf(P))
          continue;
        const std::string &B = name(P.Buf.get(), P.Buf->Name);
        S += Declare ? ", void *" + B : ", sched_dev_" + B;
      } else {
        const std::string &V = var(P.Scalar.get());
        S += Declare ? ", " + std::string(cType(P.Scalar->Type)) + " " + V : ", " + V;
      }
    }
    return S;
  }

  const BufferRegion *regionOf(const Param &P) const {
    for (const BufferRegion &R : K.Regions)
      if (R.Param == P.Buf->Name)
        return &R;
    return nullptr;
  }

  std::string launcher() {
    std::ostringstream OS;
    OS << "\nextern \"C\" int " << K.Kernel.Name << "(";
    bool First = true;
    for (const Param &P : K.Kernel.Params) {
      OS << (First ? "" : ", ");
      First = false;
      if (P.ParamKind == Param::Kind::Buffer)
        OS << cType(P.Buf->Type) << " *" << name(P.Buf.get(), P.Buf->Name);
      else
        OS << cType(P.Scalar->Type) << " " << var(P.Scalar.get());
    }
    OS << ") {\n  VTACommandHandle cmd = VTATLSCommandHandle();\n"
          "  if (VTASchedClearError)\n    VTASchedClearError();\n";
    // Each region whole: a written one is copied in too (a store may cover
    // part of it; all of it comes back).
    std::vector<std::pair<std::string, std::string>> Copies; // name, bytes
    for (const Param &P : K.Kernel.Params) {
      if (P.ParamKind != Param::Kind::Buffer || !regionOf(P))
        continue;
      const std::string &B = name(P.Buf.get(), P.Buf->Name);
      Expr Bytes = simplify(makeCast(DType::Int64, regionOf(P)->Extent) *
                            makeInt(dtypeBytes(P.Buf->Type), DType::Int64));
      int64_t ConstBytes;
      std::string Size = getConstInt(Bytes, ConstBytes) ? std::to_string(ConstBytes)
                                                         : "(size_t)" + expr(Bytes);
      OS << "  void *sched_dev_" << B << " = VTABufferAlloc(" << Size << ");\n"
         << "  VTABufferCopy(" << B << ", 0, sched_dev_" << B << ", 0, " << Size << ", 1);\n";
      Copies.push_back({B, Size});
    }
    for (const auto &[B, Bytes] : ProgramBuffers) {
      OS << "  void *sched_dev_" << B << " = VTABufferAlloc(" << Bytes << ");\n";
      Copies.push_back({B, std::to_string(Bytes)});
    }
    OS << "  int sched_status = sched_run(cmd" << runParams(false) << ");\n";
    for (const Param &P : K.Kernel.Params)
      if (P.ParamKind == Param::Kind::Buffer && regionOf(P) && regionOf(P)->Written) {
        const std::string &B = name(P.Buf.get(), P.Buf->Name);
        std::string Size;
        for (const auto &C : Copies)
          if (C.first == B)
            Size = C.second;
        OS << "  if (sched_status == 0)\n    VTABufferCopy(sched_dev_" << B << ", 0, " << B << ", 0, "
           << Size << ", 2);\n";
      }
    for (const auto &C : Copies)
      OS << "  VTABufferFree(sched_dev_" << C.first << ");\n";
    OS << "  return sched_status;\n}\n";
    return OS.str();
  }
};

} // namespace

bool emitVTA(const LoweredKernel &K, std::string &Out, std::vector<Diag> &Diags) {
  return VTAEmitter(K, Diags).emit(Out);
}

} // namespace sched
