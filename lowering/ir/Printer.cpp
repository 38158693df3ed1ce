//===- Printer.cpp - Stable textual form of the IR ------------------------===//
//
// Prints the format specified in IR.h. The output is what lit tests check and
// what Parser.cpp reads back, so it is deterministic: distinct variables (or
// buffers) that share a name get `_1`, `_2`, ... suffixes in order of first
// appearance, and float literals print as the shortest text that reads back
// to the same value.
//
//===----------------------------------------------------------------------===//

#include "Printer.h"
#include "Intrinsics.h"
#include "Names.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

namespace sched {
namespace ir {

namespace {

/// Gives each distinct object a distinct printed name, by first appearance.
template <typename NodeT> class UniqueNamer {
public:
  const std::string &nameOf(const NodeT *N) {
    return Names.nameOf(N, N->Name.empty() ? "v" : N->Name);
  }

private:
  UniqueNames Names;
};

/// The shortest decimal text that reads back to V at the precision of T,
/// with a '.' or an exponent so that it never reads as an integer. Like %g,
/// but positional up to 1e16 (so 100 prints as 100.0, not 1e+02).
std::string formatFloat(double V, DType T) {
  if (std::isnan(V))
    return "nan";
  if (std::isinf(V))
    return V < 0 ? "-inf" : "inf";
  char Buf[400];
  bool Double = T == DType::Float64;
  auto RoundTrips = [&](const char *Text) {
    return Double ? std::strtod(Text, nullptr) == V
                  : std::strtof(Text, nullptr) == static_cast<float>(V);
  };
  int Precision = 1;
  for (; Precision < 17; ++Precision) {
    std::snprintf(Buf, sizeof(Buf), "%.*e", Precision - 1, V);
    if (RoundTrips(Buf))
      break;
  }
  int Exponent = V == 0 ? 0 : static_cast<int>(std::floor(std::log10(std::fabs(V))));
  if (Exponent < -4 || Exponent >= 16) {
    std::snprintf(Buf, sizeof(Buf), "%.*g", Precision, V);
  } else {
    std::snprintf(Buf, sizeof(Buf), "%.*f", std::max(0, Precision - 1 - Exponent), V);
    if (!RoundTrips(Buf)) // log10 rounding put the exponent one off
      std::snprintf(Buf, sizeof(Buf), "%.*g", Precision, V);
  }
  std::string S = Buf;
  if (S.find_first_of(".e") == std::string::npos)
    S += ".0";
  return S;
}

const char *forKindSuffix(ForKind K) {
  switch (K) {
  case ForKind::Unrolled: return " unroll";
  case ForKind::Vectorized: return " vectorize";
  default: return "";
  }
}

class Printer {
public:
  std::string expr(const Expr &E) {
    std::ostringstream OS;
    printExpr(OS, E);
    return OS.str();
  }

  std::string stmt(const Stmt &S, int Indent) {
    std::ostringstream OS;
    printStmt(OS, S, Indent);
    return OS.str();
  }

  std::string nest(const LoopNest &Nest) {
    std::ostringstream OS;
    OS << "func " << Nest.Name << "(";
    for (size_t I = 0; I < Nest.Params.size(); ++I) {
      if (I)
        OS << ", ";
      printParam(OS, Nest.Params[I]);
    }
    OS << ")";
    if (!Nest.Target.empty()) // empty: the default target, named by no clause
      OS << " target=" << Nest.Target;
    if (Nest.TensorCoreAuto >= 0)
      OS << " tensorcore(auto)";
    for (const std::string &C : Nest.AtomicUpdates)
      OS << " atomic(" << C << ")";
    for (const Expr &A : Nest.Assumptions) {
      OS << " assume(";
      printExpr(OS, A);
      OS << ")";
    }
    OS << " {\n";
    for (const TensorizeMark &M : Nest.Tensorize)
      if (M.Loop)
        Marks[M.Loop.get()] = M.Intrinsic;
    for (const LoopPragma &P : Nest.Pragmas)
      if (P.Loop && P.Kind != VectorizePragma)
        PragmaMarks[P.Loop.get()].push_back(P.Kind);
    printStmt(OS, Nest.Body, 1);
    OS << "}\n";
    return OS.str();
  }

private:
  UniqueNamer<VarNode> VarNames;
  std::map<const VarNode *, std::string> Marks; // the nest's tensorize marks
  std::map<const VarNode *, std::vector<std::string>> PragmaMarks; // its pragma marks
  UniqueNamer<BufferNode> BufNames;

  void printList(std::ostream &OS, const std::vector<Expr> &Es) {
    for (size_t I = 0; I < Es.size(); ++I) {
      if (I)
        OS << ", ";
      printExpr(OS, Es[I]);
    }
  }

  void printParam(std::ostream &OS, const Param &P) {
    if (P.ParamKind == Param::Kind::Scalar) {
      if (!P.Scalar) {
        OS << "<null>";
        return;
      }
      OS << VarNames.nameOf(P.Scalar.get()) << ": " << dtypeName(P.Scalar->Type);
      return;
    }
    if (!P.Buf) {
      OS << "<null>";
      return;
    }
    OS << BufNames.nameOf(P.Buf.get()) << ": " << dtypeName(P.Buf->Type) << "*[";
    printList(OS, P.Buf->Shape);
    OS << "] " << scopeName(P.Buf->MemScope);
    if (P.Buf->NoAlias)
      OS << " noalias";
    if (P.Scratch)
      OS << " scratch";
  }

  void printIntImm(std::ostream &OS, const IntImmNode *N) {
    if (N->Type == DType::Bool) {
      OS << (N->Value ? "true" : "false");
      return;
    }
    if (N->Type == DType::UInt64)
      OS << static_cast<uint64_t>(N->Value); // held as its bit pattern
    else
      OS << N->Value;
    if (N->Type != DType::Int32)
      OS << ":" << dtypeName(N->Type);
  }

  void printFloatImm(std::ostream &OS, const FloatImmNode *N) {
    OS << formatFloat(N->Value, N->Type);
    if (N->Type == DType::Float32)
      OS << "f";
    else
      OS << ":" << dtypeName(N->Type);
  }

  void printBinary(std::ostream &OS, const BinaryNode *N) {
    if (N->Op == BinOp::Min || N->Op == BinOp::Max) {
      OS << binOpSymbol(N->Op) << "(";
      printExpr(OS, N->A);
      OS << ", ";
      printExpr(OS, N->B);
      OS << ")";
      return;
    }
    OS << "(";
    printExpr(OS, N->A);
    if (N->Op == BinOp::Mul || N->Op == BinOp::Div)
      OS << binOpSymbol(N->Op);
    else
      OS << " " << binOpSymbol(N->Op) << " ";
    printExpr(OS, N->B);
    OS << ")";
  }

  void printCall(std::ostream &OS, const CallNode *N) {
    OS << N->Name << "(";
    printList(OS, N->Args);
    OS << ")";
    // The result type is implied by the intrinsic table; say it otherwise.
    if (N->Type != intrinsicResultType(N->Name))
      OS << ":" << dtypeName(N->Type);
  }

  void printExpr(std::ostream &OS, const Expr &E) {
    if (!E) {
      OS << "<null>";
      return;
    }
    switch (E->Kind) {
    case ExprKind::IntImm:
      return printIntImm(OS, as<IntImmNode>(E));
    case ExprKind::FloatImm:
      return printFloatImm(OS, as<FloatImmNode>(E));
    case ExprKind::Var:
      OS << VarNames.nameOf(as<VarNode>(E));
      return;
    case ExprKind::Binary:
      return printBinary(OS, as<BinaryNode>(E));
    case ExprKind::Unary: {
      const auto *N = as<UnaryNode>(E);
      OS << (N->Op == UnOp::Neg ? "-(" : N->Op == UnOp::Not ? "!(" : "~(");
      printExpr(OS, N->A);
      OS << ")";
      return;
    }
    case ExprKind::Select: {
      const auto *N = as<SelectNode>(E);
      OS << "select(";
      printList(OS, {N->Cond, N->TrueValue, N->FalseValue});
      OS << ")";
      return;
    }
    case ExprKind::Cast: {
      const auto *N = as<CastNode>(E);
      OS << dtypeName(N->Type) << "(";
      printExpr(OS, N->Value);
      OS << ")";
      return;
    }
    case ExprKind::Load: {
      const auto *N = as<LoadNode>(E);
      OS << (N->Buf ? BufNames.nameOf(N->Buf.get()) : std::string("<null>")) << "[";
      printList(OS, N->Indices);
      OS << "]";
      return;
    }
    case ExprKind::Call:
      return printCall(OS, as<CallNode>(E));
    }
  }

  static void indent(std::ostream &OS, int Indent) {
    for (int I = 0; I < Indent; ++I)
      OS << "  ";
  }

  /// Prints " {", the body one level deeper, and the closing brace.
  void printBlock(std::ostream &OS, const Stmt &Body, int Indent) {
    OS << " {\n";
    printStmt(OS, Body, Indent + 1);
    indent(OS, Indent);
    OS << "}";
  }

  void printFor(std::ostream &OS, const ForNode *N, int Indent) {
    OS << "for (" << (N->LoopVar ? VarNames.nameOf(N->LoopVar.get()) : "<null>") << ", ";
    printExpr(OS, N->Min);
    OS << ", ";
    printExpr(OS, N->Extent);
    OS << ")";
    if (N->LoopKind == ForKind::ThreadBound)
      OS << " bind(" << N->ThreadTag << ")";
    OS << forKindSuffix(N->LoopKind);
    if (N->IsReduction)
      OS << " reduce";
    auto Mark = Marks.find(N->LoopVar.get());
    if (Mark != Marks.end())
      OS << " tensorize(" << Mark->second << ")";
    auto Pragma = PragmaMarks.find(N->LoopVar.get());
    if (Pragma != PragmaMarks.end())
      for (const std::string &Kind : Pragma->second)
        OS << " pragma(" << Kind << ")";
    printBlock(OS, N->Body, Indent);
    OS << "\n";
  }

  void printAllocate(std::ostream &OS, const AllocateNode *N, int Indent) {
    const Buffer &B = N->Buf;
    if (!B) {
      OS << "allocate <null>";
      printBlock(OS, N->Body, Indent);
      OS << "\n";
      return;
    }
    OS << "allocate " << BufNames.nameOf(B.get()) << ": " << dtypeName(B->Type) << "[";
    printList(OS, B->Shape);
    OS << "] " << scopeName(B->MemScope);
    if (B->Swizzle.any())
      OS << " swizzle(" << B->Swizzle.Base << ", " << B->Swizzle.Bits << ", " << B->Swizzle.Shift
         << ")";
    printBlock(OS, N->Body, Indent);
    OS << "\n";
  }

  void printStmt(std::ostream &OS, const Stmt &S, int Indent) {
    if (!S)
      return;
    if (const auto *Seq = as<SeqNode>(S)) {
      for (const Stmt &Child : Seq->Stmts)
        printStmt(OS, Child, Indent);
      return;
    }
    indent(OS, Indent);
    switch (S->Kind) {
    case StmtKind::For:
      return printFor(OS, as<ForNode>(S), Indent);
    case StmtKind::Allocate:
      return printAllocate(OS, as<AllocateNode>(S), Indent);
    case StmtKind::Store: {
      const auto *N = as<StoreNode>(S);
      OS << (N->Buf ? BufNames.nameOf(N->Buf.get()) : std::string("<null>")) << "[";
      printList(OS, N->Indices);
      OS << "] = ";
      printExpr(OS, N->Value);
      OS << "\n";
      return;
    }
    case StmtKind::IfThenElse: {
      const auto *N = as<IfThenElseNode>(S);
      OS << "if (";
      printExpr(OS, N->Cond);
      OS << ")";
      printBlock(OS, N->Then, Indent);
      if (N->Else) {
        OS << " else";
        printBlock(OS, N->Else, Indent);
      }
      OS << "\n";
      return;
    }
    case StmtKind::LetStmt: {
      const auto *N = as<LetStmtNode>(S);
      OS << "let " << (N->LetVar ? VarNames.nameOf(N->LetVar.get()) : "<null>") << " = ";
      printExpr(OS, N->Value);
      printBlock(OS, N->Body, Indent);
      OS << "\n";
      return;
    }
    case StmtKind::Evaluate:
      OS << "eval ";
      printExpr(OS, as<EvaluateNode>(S)->Value);
      OS << "\n";
      return;
    case StmtKind::Seq:
      return;
    }
  }
};

} // namespace

std::string print(const Expr &E) { return Printer().expr(E); }
std::string print(const Stmt &S, int Indent) { return Printer().stmt(S, Indent); }
std::string print(const LoopNest &Nest) { return Printer().nest(Nest); }

} // namespace ir
} // namespace sched
