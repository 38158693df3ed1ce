//===- LaunchDescriptor.cpp - The launch descriptor's text format --------===//
//
// The plugin embeds each kernel's descriptor in the program as a string
// literal; the runtime reads it at the first launch. The format is
// line-oriented, human-readable (it shows up in -save-temps output and in
// bug reports), and round-trips exactly. Everything up to the `ir` section
// is the launch plan (ir/LaunchPlan.h), which the launcher reads without the
// IR library; free text that could hold anything (the source file name, the
// IR, the CUDA source) is length-prefixed:
//
//   sched-launch-descriptor v2
//   kernel sched_matmul_12
//   source 12 10 matmul.cpp          <- line, then byte length and file name
//   runner vta-program               <- only for a runner other than the
//                                       kernel runner (RunnerKind)
//   arch sm_80                       <- only when an architecture was asked for
//   min-cc 70                        <- only when the payload needs a compute
//                                       capability (wmma: 70)
//   shared-bytes 4096                <- static shared memory (-1: not constant)
//   param pointer buffer float32 A   <- one per parameter, in order: how the
//   align 16                            argument points at it, buffer or
//   region r                            scalar, type, name; then the alignment
//   region-min -                        its vector accesses need and, for a
//   region-extent $3 $5 mul.int32       buffer the kernel touches, its region
//   param scalar scalar int32 M
//   grid x $3 63 add.int32 64 div.int32 ; ((M + 63)/64)
//   ...                              <- grid x y z, block x y z: program ; IR text
//   assume $3 $4 le.int32 ; (M <= ld)    <- one per run-time assumption
//   final int32 i                    <- a variable the nest assigns that is
//   final-when -                        declared outside it: when (- always)
//   final-value $3                      and what the launcher stores in it
//   ir 456                           <- the kernel's IR (the simulator's)
//   func sched_matmul_12(...) target=gpu assume((M <= ld)) { ... }
//   cuda 789
//   extern "C" __global__ void sched_matmul_12(...) { ... }
//   image compute_75 5678            <- PTX compiled when the program was
//   .version 9.0 ...                    built (one per architecture), if any
//   end
//
// An expression is a ScalarProgram (ir/LaunchPlan.h) over the parameters by
// position; parseDescriptor turns each back into IR over the kernel's own
// scalar variables for the simulator (exprOf), node for node what programOf
// read, types included.
//
//===----------------------------------------------------------------------===//
#include "ir/LaunchDescriptor.h"
#include "ir/Kernel.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Vectorize.h"

namespace sched {

namespace {

using Code = ScalarProgram::OpCode;

/// Index of the scalar parameter V of Nest, or -1.
int scalarParamIndex(const ir::LoopNest &Nest, const ir::VarNode *V) {
  for (size_t I = 0; I < Nest.Params.size(); ++I)
    if (Nest.Params[I].ParamKind == ir::Param::Kind::Scalar && Nest.Params[I].Scalar.get() == V)
      return static_cast<int>(I);
  return -1;
}

bool appendProgram(const ir::Expr &E, const ir::LoopNest &Nest, ScalarProgram &Out,
                   std::string &Error) {
  auto Fail = [&](const std::string &Why) {
    Error = Why + " in '" + ir::print(E) + "'";
    return false;
  };
  if (ir::isFloat(E->Type))
    return Fail("a floating-point value");
  ScalarProgram::Op O;
  O.Type = E->Type;
  switch (E->Kind) {
  case ir::ExprKind::IntImm:
    O.Code = Code::Int;
    O.Value = ir::as<ir::IntImmNode>(E)->Value;
    break;
  case ir::ExprKind::Var: {
    int Index = scalarParamIndex(Nest, ir::as<ir::VarNode>(E));
    if (Index < 0)
      return Fail("'" + ir::as<ir::VarNode>(E)->Name + "', not a scalar parameter,");
    O.Code = Code::Param;
    O.Value = Index;
    break;
  }
  case ir::ExprKind::Binary: {
    const auto *B = ir::as<ir::BinaryNode>(E);
    if (ir::isFloat(B->A->Type) || ir::isFloat(B->B->Type))
      return Fail("a floating-point operand");
    if (!appendProgram(B->A, Nest, Out, Error) || !appendProgram(B->B, Nest, Out, Error))
      return false;
    O.Code = Code::Binary;
    O.Bin = B->Op;
    O.Type = B->A->Type;
    break;
  }
  case ir::ExprKind::Unary: {
    const auto *U = ir::as<ir::UnaryNode>(E);
    if (!appendProgram(U->A, Nest, Out, Error))
      return false;
    O.Code = Code::Unary;
    O.Un = U->Op;
    break;
  }
  case ir::ExprKind::Select: {
    const auto *S = ir::as<ir::SelectNode>(E);
    if (!appendProgram(S->Cond, Nest, Out, Error) ||
        !appendProgram(S->TrueValue, Nest, Out, Error) ||
        !appendProgram(S->FalseValue, Nest, Out, Error))
      return false;
    O.Code = Code::Select;
    break;
  }
  case ir::ExprKind::Cast:
    if (!appendProgram(ir::as<ir::CastNode>(E)->Value, Nest, Out, Error))
      return false;
    O.Code = Code::Cast;
    break;
  default:
    return Fail("a load, call or floating-point literal");
  }
  Out.Ops.push_back(O);
  return true;
}

/// The result type of a binary node on operands of type T (as ir::makeBinary
/// computes it).
ir::DType binaryResultType(ir::BinOp Op, ir::DType T) {
  return Op == ir::BinOp::And || Op == ir::BinOp::Or || ir::isComparison(Op) ? ir::DType::Bool
                                                                             : T;
}

/// Launch-expression text for messages: the IR's print of E.
std::string displayText(const ir::Expr &E) { return E ? ir::print(E) : "1"; }

} // namespace

bool programOf(const ir::Expr &E, const ir::LoopNest &Nest, ScalarProgram &Out,
               std::string &Error) {
  Out = ScalarProgram();
  return !E || appendProgram(E, Nest, Out, Error);
}

ir::Expr exprOf(const ScalarProgram &P, const ir::LoopNest &Nest, std::string &Error) {
  std::vector<ir::Expr> Stack;
  for (const ScalarProgram::Op &O : P.Ops) {
    if (Stack.size() < ScalarProgram::arity(O.Code)) {
      Error = "malformed launch expression '" + P.str() + "'";
      return nullptr;
    }
    auto Pop = [&Stack] {
      ir::Expr E = Stack.back();
      Stack.pop_back();
      return E;
    };
    switch (O.Code) {
    case Code::Int:
      Stack.push_back(ir::makeInt(O.Value, O.Type));
      break;
    case Code::Param:
      if (O.Value < 0 || static_cast<size_t>(O.Value) >= Nest.Params.size() ||
          Nest.Params[O.Value].ParamKind != ir::Param::Kind::Scalar) {
        Error = "launch expression '" + P.str() + "' reads $" + std::to_string(O.Value) +
                ", not a scalar parameter";
        return nullptr;
      }
      Stack.push_back(Nest.Params[O.Value].Scalar);
      break;
    case Code::Binary: {
      ir::Expr B = Pop(), A = Pop();
      Stack.push_back(std::make_shared<ir::BinaryNode>(O.Bin, A, B,
                                                       binaryResultType(O.Bin, A->Type)));
      break;
    }
    case Code::Unary:
      Stack.push_back(std::make_shared<ir::UnaryNode>(O.Un, Pop(), O.Type));
      break;
    case Code::Select: {
      ir::Expr F = Pop(), T = Pop(), C = Pop();
      Stack.push_back(std::make_shared<ir::SelectNode>(C, T, F));
      break;
    }
    case Code::Cast:
      Stack.push_back(ir::makeCast(O.Type, Pop()));
      break;
    }
  }
  if (Stack.size() > 1 || (Stack.empty() && !P.empty())) {
    Error = "malformed launch expression '" + P.str() + "'";
    return nullptr;
  }
  return Stack.empty() ? nullptr : Stack.back();
}

bool checkLaunchExprs(const LoweredKernel &K, std::string &Error,
                      const std::vector<LaunchDescriptor::FinalValue> &Finals) {
  static const char *const Axis = "xyz";
  std::vector<std::pair<std::string, ir::Expr>> Named;
  for (int D = 0; D < 3; ++D) {
    Named.push_back({std::string("grid extent in ") + Axis[D], K.Geometry.Grid[D]});
    Named.push_back({std::string("block extent in ") + Axis[D], K.Geometry.Block[D]});
  }
  for (const BufferRegion &R : K.Regions) {
    Named.push_back({"copy region of '" + R.Param + "'", R.Extent});
    Named.push_back({"copy region origin of '" + R.Param + "'", R.Min});
  }
  for (const ir::Expr &A : K.Kernel.Assumptions)
    Named.push_back({"run-time assumption", A});
  for (const LaunchDescriptor::FinalValue &F : Finals) {
    Named.push_back({"condition of the final value of '" + F.Name + "'", F.When});
    Named.push_back({"final value of '" + F.Name + "'", F.Value});
  }
  for (const auto &Entry : Named) {
    ScalarProgram Program;
    std::string Why;
    if (Entry.second && !isLaunchExpr(Entry.second, K.Kernel)) {
      Error = "the " + Entry.first + " '" + ir::print(Entry.second) +
              "' is not an expression over scalar parameters";
      return false;
    }
    if (!programOf(Entry.second, K.Kernel, Program, Why)) {
      Error = "the " + Entry.first + " is not an integer expression the launcher evaluates: " + Why;
      return false;
    }
  }
  return true;
}

bool planOf(const LaunchDescriptor &D, LaunchPlan &Out, std::string &Error) {
  const LoweredKernel &K = D.Kernel;
  const ir::LoopNest &N = K.Kernel;
  Out = LaunchPlan();
  Out.Kernel = N.Name;
  Out.SourceFile = N.SourceFile;
  Out.SourceLine = N.SourceLine;
  Out.Runner = D.Runner;
  Out.Arch = K.Arch;
  Out.MinCapability = D.MinCapability;
  Out.Payload = D.Payload;
  Out.Images = D.Images;
  Out.SharedBytes = ir::staticSharedBytes(N);
  if (D.ArgKinds.size() != N.Params.size()) {
    Error = "the descriptor has " + std::to_string(D.ArgKinds.size()) + " argument kinds for " +
            std::to_string(N.Params.size()) + " parameters";
    return false;
  }
  std::map<std::string, int64_t> Alignments = ir::vectorAlignments(N.Body);
  for (size_t I = 0; I < N.Params.size(); ++I) {
    const ir::Param &P = N.Params[I];
    LaunchPlan::Param Q;
    Q.Name = P.name();
    Q.Arg = D.ArgKinds[I];
    Q.IsBuffer = P.ParamKind == ir::Param::Kind::Buffer;
    Q.Type = Q.IsBuffer ? P.Buf->Type : P.Scalar->Type;
    if (Q.IsBuffer) {
      auto Align = Alignments.find(P.Buf->Name);
      Q.Alignment = Align == Alignments.end() ? 0 : Align->second;
      for (const BufferRegion &R : K.Regions)
        if (R.Param == P.Buf->Name) {
          Q.HasRegion = true;
          Q.Read = R.Read;
          Q.Written = R.Written;
          if (!programOf(R.Min, N, Q.Min, Error) || !programOf(R.Extent, N, Q.Extent, Error))
            return false;
        }
    }
    Out.Params.push_back(std::move(Q));
  }
  for (int Dim = 0; Dim < 3; ++Dim) {
    if (!programOf(K.Geometry.Grid[Dim], N, Out.Grid[Dim], Error) ||
        !programOf(K.Geometry.Block[Dim], N, Out.Block[Dim], Error))
      return false;
    Out.GridText[Dim] = displayText(K.Geometry.Grid[Dim]);
    Out.BlockText[Dim] = displayText(K.Geometry.Block[Dim]);
  }
  for (const ir::Expr &A : N.Assumptions) {
    LaunchPlan::Assumption Plan;
    Plan.Text = ir::print(A);
    if (!programOf(A, N, Plan.Holds, Error))
      return false;
    Out.Assumptions.push_back(std::move(Plan));
  }
  for (const LaunchDescriptor::FinalValue &F : D.Finals) {
    LaunchPlan::Final Plan;
    Plan.Name = F.Name;
    Plan.Type = F.Type;
    if (!programOf(F.When, N, Plan.When, Error) || !programOf(F.Value, N, Plan.Value, Error))
      return false;
    Out.Finals.push_back(std::move(Plan));
  }
  return true;
}

std::string serializeDescriptor(const LaunchDescriptor &D) {
  LaunchPlan Plan;
  std::string Error;
  // checkLaunchExprs held when the kernel was made; a plan that cannot be
  // made gives a descriptor the runtime refuses, naming why.
  if (!planOf(D, Plan, Error))
    return "invalid launch plan: " + Error + "\n";
  return writeDescriptorText(Plan, ir::print(D.Kernel.Kernel));
}

bool parseDescriptor(const std::string &Text, LaunchDescriptor &Out, std::string &Error) {
  Out = LaunchDescriptor();
  LaunchPlan Plan;
  std::string IRText;
  if (!parsePlan(Text, Plan, Error, &IRText))
    return false;
  LoweredKernel &K = Out.Kernel;
  ir::LoopNest &N = K.Kernel;
  if (!ir::parseLoopNest(IRText, N, Error)) {
    Error = "descriptor: in ir: " + Error;
    return false;
  }
  // The IR carries the kernel's name, target and parameters; the plan
  // carries where it came from.
  N.SourceFile = Plan.SourceFile;
  N.SourceLine = Plan.SourceLine;
  if (N.Name != Plan.Kernel) {
    Error = "descriptor: kernel name does not match its ir";
    return false;
  }
  if (Plan.Params.size() != N.Params.size()) {
    Error = "descriptor: argument count does not match the kernel's parameters";
    return false;
  }
  Out.Runner = Plan.Runner;
  Out.Payload = Plan.Payload;
  Out.Images = Plan.Images;
  Out.MinCapability = Plan.MinCapability;
  K.Arch = Plan.Arch;
  for (size_t I = 0; I < Plan.Params.size(); ++I) {
    const LaunchPlan::Param &Q = Plan.Params[I];
    if (Q.Name != N.Params[I].name()) {
      Error = "descriptor: parameter '" + Q.Name + "' does not match the ir's '" +
              N.Params[I].name() + "'";
      return false;
    }
    Out.ArgKinds.push_back(Q.Arg);
    if (!Q.HasRegion)
      continue;
    BufferRegion R;
    R.Param = Q.Name;
    R.Read = Q.Read;
    R.Written = Q.Written;
    R.Min = exprOf(Q.Min, N, Error);
    R.Extent = exprOf(Q.Extent, N, Error);
    if (!Error.empty())
      return false;
    K.Regions.push_back(R);
  }
  for (int Dim = 0; Dim < 3; ++Dim) {
    K.Geometry.Grid[Dim] = exprOf(Plan.Grid[Dim], N, Error);
    K.Geometry.Block[Dim] = exprOf(Plan.Block[Dim], N, Error);
  }
  for (const LaunchPlan::Final &F : Plan.Finals) {
    LaunchDescriptor::FinalValue V;
    V.Name = F.Name;
    V.Type = F.Type;
    V.When = exprOf(F.When, N, Error);
    V.Value = exprOf(F.Value, N, Error);
    Out.Finals.push_back(V);
  }
  return Error.empty();
}

} // namespace sched
