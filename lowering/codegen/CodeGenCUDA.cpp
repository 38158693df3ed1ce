//===- CodeGenCUDA.cpp - CUDA C for a lowered kernel ---------------------===//
//
// Prints a lowered kernel as one self-contained CUDA translation unit that
// nvcc and NVRTC compile on their own (no headers beyond cuda_fp16.h, and
// that only when the kernel uses half). The output is meant to be read: it is
// what users see with dump=cuda, so it keeps the IR's names and structure.
//
//  - parameters keep their order: buffers as `T* __restrict__ A` (restrict
//    when the extractor proved the buffer has no alias), scalars by value;
//  - a thread-bound loop is its index, `int tx = (int)threadIdx.x;`, and a
//    guard `if (tx < extent)` when its extent is not provably the launch
//    extent of its tag (VerifyThreadBindings normally makes them equal and
//    puts the guard in the IR; this keeps codegen safe on its own);
//  - serial loops are C loops, unrolled loops get `#pragma unroll`,
//    vectorized loops are plain loops for now (nvcc vectorizes nothing; a
//    later pass will emit vector types);
//  - local allocations are arrays where they appear; shared allocations are
//    per block and are hoisted to the top of the kernel;
//  - every variable and buffer gets a C identifier that is unique in the
//    kernel, so C scoping never matters.
//
//===----------------------------------------------------------------------===//
#include "codegen/CodeGenCUDA.h"
#include "ir/Intrinsics.h"
#include "ir/MathFunctions.h"
#include "passes/PassUtil.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace sched {

namespace {

/// C identifiers for IR names: distinct objects get distinct names, and no
/// name collides with a keyword or a CUDA built-in.
class IdentifierNamer {
public:
  IdentifierNamer() {
    static const char *const Reserved[] = {
        "auto", "bool", "break", "case", "char", "const", "continue", "default", "do",
        "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int",
        "long", "register", "restrict", "return", "short", "signed", "sizeof", "static",
        "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
        "class", "delete", "new", "namespace", "template", "this", "true", "false",
        "operator", "private", "public", "protected", "virtual", "using", "half",
        "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "min", "max"};
    for (const char *Word : Reserved)
      Used.insert(Word);
  }

  void reserve(const std::string &Name) { Used.insert(Name); }

  const std::string &nameOf(const void *Object, const std::string &IRName) {
    auto It = Names.find(Object);
    if (It != Names.end())
      return It->second;
    std::string Base = passes::cIdentifier(IRName, "v", "v");
    std::string Name = Base;
    for (int Suffix = 1; Used.count(Name); ++Suffix)
      Name = Base + "_" + std::to_string(Suffix);
    Used.insert(Name);
    return Names.emplace(Object, Name).first->second;
  }

private:
  std::map<const void *, std::string> Names;
  std::set<std::string> Used;
};

/// The shortest decimal text that reads back to V at T's precision, always
/// with a '.' or exponent.
std::string decimal(double V, bool Double) {
  char Buf[64];
  for (int Precision = 1; Precision <= 17; ++Precision) {
    std::snprintf(Buf, sizeof(Buf), "%.*g", Precision, V);
    if (Double ? std::strtod(Buf, nullptr) == V
               : std::strtof(Buf, nullptr) == static_cast<float>(V))
      break;
  }
  std::string S = Buf;
  if (S.find_first_of(".e") == std::string::npos)
    S += ".0";
  return S;
}

std::string floatLiteral(double V, ir::DType T) {
  bool Double = T == ir::DType::Float64;
  if (std::isnan(V))
    return Double ? "__longlong_as_double(0x7ff8000000000000LL)" : "__int_as_float(0x7fc00000)";
  if (std::isinf(V)) {
    std::string Inf =
        Double ? "__longlong_as_double(0x7ff0000000000000LL)" : "__int_as_float(0x7f800000)";
    return V < 0 ? "(-" + Inf + ")" : Inf;
  }
  return Double ? decimal(V, true) : decimal(V, false) + "f";
}

std::string intLiteral(int64_t V, ir::DType T) {
  if (T == ir::DType::Bool)
    return V ? "true" : "false";
  if (T == ir::DType::Int64) {
    if (V == std::numeric_limits<int64_t>::min())
      return "(-9223372036854775807LL - 1)";
    return std::to_string(V) + "LL";
  }
  // Unsigned literals carry their suffix, so that C's conversions in the
  // kernel are those of the IR (2654435761u * x is unsigned arithmetic).
  if (T == ir::DType::UInt64)
    return std::to_string(static_cast<uint64_t>(V)) + "ull";
  if (T == ir::DType::UInt32)
    return std::to_string(static_cast<uint32_t>(V)) + "u";
  std::string Text = V == std::numeric_limits<int32_t>::min() ? "(-2147483647 - 1)"
                                                               : std::to_string(V);
  if (T == ir::DType::Int32)
    return V < 0 ? "(" + Text + ")" : Text;
  return std::string("((") + ir::cudaTypeName(T) + ")" + Text + ")";
}

/// min/max by operand type: CUDA's integer min/max, the C math functions for
/// floating point, the half intrinsics for half.
std::string minMaxFunction(ir::BinOp Op, ir::DType T) {
  bool IsMin = Op == ir::BinOp::Min;
  switch (T) {
  case ir::DType::Float32: return IsMin ? "fminf" : "fmaxf";
  case ir::DType::Float64: return IsMin ? "fmin" : "fmax";
  case ir::DType::Float16: return IsMin ? "__hmin" : "__hmax";
  default: return IsMin ? "min" : "max";
  }
}

/// True when S is one parenthesized group: "(a + b)" but not "(a) + (b)".
bool isWrapped(const std::string &S) {
  if (S.size() < 2 || S.front() != '(' || S.back() != ')')
    return false;
  int Depth = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    Depth += S[I] == '(' ? 1 : S[I] == ')' ? -1 : 0;
    if (Depth == 0 && I + 1 < S.size())
      return false;
  }
  return true;
}

/// Where C needs no parentheses (a condition, an index, a right-hand side),
/// drop the ones every binary expression carries.
std::string unwrap(const std::string &S) { return isWrapped(S) ? S.substr(1, S.size() - 2) : S; }

/// An operand of a cast: parenthesized unless it already is, or is a name.
std::string wrap(const std::string &S) {
  bool Simple = !S.empty() && S.find_first_of(" ()[]+-*/%<>=!&|?:") == std::string::npos;
  return Simple || isWrapped(S) ? S : "(" + S + ")";
}

class CUDAEmitter {
public:
  explicit CUDAEmitter(const LoweredKernel &K) : K(K) {}

  std::string emit() {
    std::string Signature = signature();
    emitStmt(K.Kernel.Body, 1);
    std::ostringstream OS;
    OS << "// Generated by sched from " << describeSource() << ". Do not edit.\n";
    if (UsesHalf)
      OS << "#include <cuda_fp16.h>\n";
    OS << "\n" << Signature << " {\n";
    for (const std::string &Decl : SharedDecls)
      OS << "  " << Decl << "\n";
    OS << Body.str() << "}\n";
    return OS.str();
  }

private:
  const LoweredKernel &K;
  IdentifierNamer Names;
  std::ostringstream Body;
  std::vector<std::string> SharedDecls;
  bool UsesHalf = false;

  std::string describeSource() const {
    if (K.Kernel.SourceFile.empty())
      return "a loop nest";
    if (K.Kernel.SourceLine == 0)
      return K.Kernel.SourceFile;
    return K.Kernel.SourceFile + ":" + std::to_string(K.Kernel.SourceLine);
  }

  std::string typeName(ir::DType T) {
    UsesHalf |= T == ir::DType::Float16;
    return ir::cudaTypeName(T);
  }

  const std::string &varName(const ir::VarNode *V) { return Names.nameOf(V, V->Name); }
  const std::string &bufName(const ir::Buffer &B) { return Names.nameOf(B.get(), B->Name); }

  std::string signature() {
    Names.reserve(K.Kernel.Name);
    std::string S = "extern \"C\" __global__ void " + K.Kernel.Name + "(";
    bool First = true;
    for (const ir::Param &P : K.Kernel.Params) {
      S += First ? "" : ", ";
      First = false;
      if (P.ParamKind == ir::Param::Kind::Buffer && P.Buf)
        S += typeName(P.Buf->Type) + "* " + (P.Buf->NoAlias ? "__restrict__ " : "") +
             bufName(P.Buf);
      else if (P.ParamKind == ir::Param::Kind::Scalar && P.Scalar)
        S += typeName(P.Scalar->Type) + " " + varName(P.Scalar.get());
    }
    return S + ")";
  }

  //===--- Expressions ---------------------------------------------------===//

  std::string expr(const ir::Expr &E) {
    if (!E)
      return "0";
    switch (E->Kind) {
    case ir::ExprKind::IntImm: {
      const auto *N = ir::as<ir::IntImmNode>(E);
      return intLiteral(N->Value, N->Type);
    }
    case ir::ExprKind::FloatImm: {
      const auto *N = ir::as<ir::FloatImmNode>(E);
      if (N->Type == ir::DType::Float16) {
        UsesHalf = true;
        return "__float2half(" + floatLiteral(N->Value, ir::DType::Float32) + ")";
      }
      return floatLiteral(N->Value, N->Type);
    }
    case ir::ExprKind::Var:
      return varName(ir::as<ir::VarNode>(E));
    case ir::ExprKind::Binary:
      return binary(ir::as<ir::BinaryNode>(E));
    case ir::ExprKind::Unary: {
      const auto *N = ir::as<ir::UnaryNode>(E);
      const char *Symbol = N->Op == ir::UnOp::Neg ? "(-" : N->Op == ir::UnOp::Not ? "(!" : "(~";
      return Symbol + expr(N->A) + ")";
    }
    case ir::ExprKind::Select: {
      const auto *N = ir::as<ir::SelectNode>(E);
      return "(" + expr(N->Cond) + " ? " + expr(N->TrueValue) + " : " + expr(N->FalseValue) +
             ")";
    }
    case ir::ExprKind::Cast:
      return cast(ir::as<ir::CastNode>(E));
    case ir::ExprKind::Load: {
      const auto *N = ir::as<ir::LoadNode>(E);
      return access(N->Buf, N->Indices);
    }
    case ir::ExprKind::Call:
      return call(ir::as<ir::CallNode>(E));
    }
    return "0";
  }

  std::string binary(const ir::BinaryNode *N) {
    if (N->Op == ir::BinOp::Min || N->Op == ir::BinOp::Max) {
      ir::DType T = N->A ? N->A->Type : N->Type;
      UsesHalf |= T == ir::DType::Float16;
      return minMaxFunction(N->Op, T) + "(" + expr(N->A) + ", " + expr(N->B) + ")";
    }
    return "(" + expr(N->A) + " " + ir::binOpSymbol(N->Op) + " " + expr(N->B) + ")";
  }

  /// Conversions to and from half go through float: cuda_fp16.h provides
  /// those for every architecture.
  std::string cast(const ir::CastNode *N) {
    std::string Value = expr(N->Value);
    bool FromHalf = N->Value && N->Value->Type == ir::DType::Float16;
    if (N->Type == ir::DType::Float16) {
      UsesHalf = true;
      return FromHalf ? Value : "__float2half((float)" + wrap(Value) + ")";
    }
    if (FromHalf)
      return "((" + typeName(N->Type) + ")__half2float(" + unwrap(Value) + "))";
    return "((" + typeName(N->Type) + ")" + wrap(Value) + ")";
  }

  std::string access(const ir::Buffer &B, const std::vector<ir::Expr> &Indices) {
    std::string S = B ? bufName(B) : std::string("null_buffer");
    for (const ir::Expr &I : Indices)
      S += "[" + unwrap(expr(I)) + "]";
    return S;
  }

  std::string call(const ir::CallNode *N) {
    const ir::IntrinsicInfo *Info = ir::lookupIntrinsic(N->Name);
    if (N->Name == "sched.syncthreads" || (Info && Info->IsBarrier))
      return "__syncthreads()";
    // A math function: its CUDA device function, on arguments of its type.
    if (const ir::MathFunction *M = ir::lookupMathFunction(N->Name)) {
      std::string S = M->CudaName + "(";
      for (size_t I = 0; I < N->Args.size(); ++I) {
        const ir::Expr &Arg = N->Args[I];
        S += (I ? ", " : "") +
             unwrap(expr(Arg && Arg->Type != M->Type ? ir::makeCast(M->Type, Arg) : Arg));
      }
      return S + ")";
    }
    std::string S = passes::cIdentifier(N->Name, "call", "f") + "(";
    for (size_t I = 0; I < N->Args.size(); ++I)
      S += (I ? ", " : "") + expr(N->Args[I]);
    return S + ")";
  }

  //===--- Statements ----------------------------------------------------===//

  std::ostream &line(int Indent) {
    for (int I = 0; I < Indent; ++I)
      Body << "  ";
    return Body;
  }

  void emitStmt(const ir::Stmt &S, int Indent) {
    if (!S)
      return;
    switch (S->Kind) {
    case ir::StmtKind::Seq:
      for (const ir::Stmt &Child : ir::as<ir::SeqNode>(S)->Stmts)
        emitStmt(Child, Indent);
      return;
    case ir::StmtKind::For:
      return emitFor(ir::as<ir::ForNode>(S), Indent);
    case ir::StmtKind::Store: {
      const auto *N = ir::as<ir::StoreNode>(S);
      line(Indent) << access(N->Buf, N->Indices) << " = " << unwrap(expr(N->Value)) << ";\n";
      return;
    }
    case ir::StmtKind::Allocate:
      return emitAllocate(ir::as<ir::AllocateNode>(S), Indent);
    case ir::StmtKind::IfThenElse: {
      const auto *N = ir::as<ir::IfThenElseNode>(S);
      line(Indent) << "if (" << unwrap(expr(N->Cond)) << ") {\n";
      emitStmt(N->Then, Indent + 1);
      if (N->Else) {
        line(Indent) << "} else {\n";
        emitStmt(N->Else, Indent + 1);
      }
      line(Indent) << "}\n";
      return;
    }
    case ir::StmtKind::LetStmt: {
      const auto *N = ir::as<ir::LetStmtNode>(S);
      line(Indent) << "const " << typeName(N->LetVar->Type) << " " << varName(N->LetVar.get())
                   << " = " << unwrap(expr(N->Value)) << ";\n";
      emitStmt(N->Body, Indent);
      return;
    }
    case ir::StmtKind::Evaluate:
      line(Indent) << expr(ir::as<ir::EvaluateNode>(S)->Value) << ";\n";
      return;
    }
  }

  void emitFor(const ir::ForNode *N, int Indent) {
    const std::string &V = varName(N->LoopVar.get());
    std::string Type = typeName(N->LoopVar->Type);
    if (N->LoopKind == ir::ForKind::ThreadBound)
      return emitThreadLoop(N, V, Type, Indent);
    if (N->LoopKind == ir::ForKind::Unrolled)
      line(Indent) << "#pragma unroll\n";
    if (N->LoopKind == ir::ForKind::Vectorized)
      line(Indent) << "// vectorized loop '" << N->LoopVar->Name
                   << "': emitted as a plain loop\n";
    int64_t Min = 0;
    bool ZeroMin = ir::getConstInt(N->Min, Min) && Min == 0;
    std::string Start = ZeroMin ? "0" : expr(N->Min);
    std::string End = ZeroMin ? unwrap(expr(N->Extent))
                              : "(" + expr(N->Min) + " + " + expr(N->Extent) + ")";
    line(Indent) << "for (" << Type << " " << V << " = " << Start << "; " << V << " < " << End
                 << "; ++" << V << ") {\n";
    emitStmt(N->Body, Indent + 1);
    line(Indent) << "}\n";
  }

  void emitThreadLoop(const ir::ForNode *N, const std::string &V, const std::string &Type,
                      int Indent) {
    int64_t Min = 0;
    bool ZeroMin = ir::getConstInt(N->Min, Min) && Min == 0;
    line(Indent) << Type << " " << V << " = (" << Type << ")" << N->ThreadTag
                 << (ZeroMin ? "" : " + " + expr(N->Min)) << ";\n";
    ir::Expr Launch = passes::launchExtent(K.Geometry, N->ThreadTag);
    if (ZeroMin && Launch && passes::provablyEqual(Launch, N->Extent)) {
      emitStmt(N->Body, Indent);
      return;
    }
    std::string Bound = ZeroMin ? expr(N->Extent)
                                : "(" + expr(N->Min) + " + " + expr(N->Extent) + ")";
    line(Indent) << "if (" << V << " < " << Bound << ") {\n";
    emitStmt(N->Body, Indent + 1);
    line(Indent) << "}\n";
  }

  void emitAllocate(const ir::AllocateNode *N, int Indent) {
    std::string Size;
    for (const ir::Expr &Dim : N->Buf->Shape)
      Size += "[" + expr(Dim) + "]";
    if (N->Buf->Shape.empty())
      Size = "[1]";
    std::string Decl = typeName(N->Buf->Type) + " " + bufName(N->Buf) + Size + ";";
    if (N->Buf->MemScope == ir::Scope::Shared)
      SharedDecls.push_back("__shared__ " + Decl);
    else
      line(Indent) << Decl << "\n";
    emitStmt(N->Body, Indent);
  }
};

} // namespace

std::string emitCUDA(const LoweredKernel &K) { return CUDAEmitter(K).emit(); }

} // namespace sched
