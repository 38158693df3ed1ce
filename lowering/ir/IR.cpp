//===- IR.cpp - Types, names and constructors of the scheduling IR --------===//
//
// The dtype / operator / scope tables and the make* constructors. The
// constructors only compute result types (C's usual arithmetic conversions,
// made explicit as Cast nodes) and never simplify, so that what a pass builds
// is exactly what the printer shows.
//
//===----------------------------------------------------------------------===//

#include "IR.h"

#include <algorithm>

namespace sched {
namespace ir {

const char *const VectorizePragma = "vectorize";

namespace {
const std::string PipelinePrefix = "pipeline";
} // namespace

std::string pipelinePragma(int64_t Stages) { return PipelinePrefix + std::to_string(Stages); }

int64_t pipelineStages(const LoopPragma &P) {
  if (P.Kind.size() <= PipelinePrefix.size() || P.Kind.compare(0, PipelinePrefix.size(), PipelinePrefix))
    return 0;
  int64_t Stages = 0;
  for (char C : P.Kind.substr(PipelinePrefix.size())) {
    if (C < '0' || C > '9' || Stages > 1000)
      return 0;
    Stages = Stages * 10 + (C - '0');
  }
  return Stages;
}

bool isBlockTag(const std::string &Tag) {
  return Tag == "blockIdx.x" || Tag == "blockIdx.y" || Tag == "blockIdx.z";
}

bool isThreadIdxTag(const std::string &Tag) {
  return Tag == "threadIdx.x" || Tag == "threadIdx.y" || Tag == "threadIdx.z";
}

bool isVirtualThreadTag(const std::string &Tag) { return Tag == "vthread" || Tag == "cthread"; }

int threadTagDim(const std::string &Tag) {
  if (!isBlockTag(Tag) && !isThreadIdxTag(Tag))
    return -1;
  return Tag.back() - 'x';
}


namespace {
const std::pair<Scope, const char *> ScopeTable[] = {
    {Scope::Global, "global"},
    {Scope::Shared, "shared"},
    {Scope::Local, "local"},
    {Scope::WmmaMatrixA, "wmma.matrix_a"},
    {Scope::WmmaMatrixB, "wmma.matrix_b"},
    {Scope::WmmaAccumulator, "wmma.accumulator"},
    {Scope::VtaInp, "vta.inp"},
    {Scope::VtaWgt, "vta.wgt"},
    {Scope::VtaAcc, "vta.acc"},
};
} // namespace

const char *scopeName(Scope S) {
  for (const auto &E : ScopeTable)
    if (E.first == S)
      return E.second;
  return "global";
}

bool parseScope(const std::string &S, Scope &Out) {
  for (const auto &E : ScopeTable)
    if (S == E.second) {
      Out = E.first;
      return true;
    }
  return false;
}


namespace {
/// The type of a binary node on A and B: A when both agree (an int8 + int8
/// node stays int8; the CUDA and sim code compute it in int and convert
/// back), else the usual arithmetic conversions.
DType commonType(DType A, DType B) { return A == B ? A : arithmeticType(A, B); }

Expr convertTo(DType T, Expr E) {
  if (!E || E->Type == T)
    return E;
  return makeCast(T, std::move(E));
}
} // namespace

//===----------------------------------------------------------------------===//
// Constructors
//===----------------------------------------------------------------------===//

Expr makeInt(int64_t V, DType T) { return std::make_shared<IntImmNode>(V, T); }
Expr makeFloat(double V, DType T) { return std::make_shared<FloatImmNode>(V, T); }
Expr makeBool(bool V) { return std::make_shared<IntImmNode>(V ? 1 : 0, DType::Bool); }
Var makeVar(const std::string &Name, DType T) { return std::make_shared<VarNode>(Name, T); }

Expr makeBinary(BinOp Op, Expr A, Expr B) {
  if (!A || !B)
    return nullptr;
  if (Op == BinOp::And || Op == BinOp::Or)
    return std::make_shared<BinaryNode>(Op, std::move(A), std::move(B), DType::Bool);
  if (Op == BinOp::Shl || Op == BinOp::Shr) {
    DType T = A->Type;
    B = convertTo(T, std::move(B));
    return std::make_shared<BinaryNode>(Op, std::move(A), std::move(B), T);
  }
  DType T = commonType(A->Type, B->Type);
  A = convertTo(T, std::move(A));
  B = convertTo(T, std::move(B));
  DType Result = isComparison(Op) ? DType::Bool : T;
  return std::make_shared<BinaryNode>(Op, std::move(A), std::move(B), Result);
}

Expr makeUnary(UnOp Op, Expr A) {
  if (!A)
    return nullptr;
  DType T = Op == UnOp::Not ? DType::Bool : A->Type;
  return std::make_shared<UnaryNode>(Op, std::move(A), T);
}

Expr makeSelect(Expr C, Expr T, Expr F) {
  if (!C || !T || !F)
    return nullptr;
  DType Common = commonType(T->Type, F->Type);
  T = convertTo(Common, std::move(T));
  F = convertTo(Common, std::move(F));
  return std::make_shared<SelectNode>(std::move(C), std::move(T), std::move(F));
}

Expr makeCast(DType T, Expr V) {
  if (!V)
    return nullptr;
  return std::make_shared<CastNode>(T, std::move(V));
}

Expr makeLoad(Buffer B, std::vector<Expr> Indices) {
  if (!B)
    return nullptr;
  DType T = B->Type;
  return std::make_shared<LoadNode>(std::move(B), std::move(Indices), T);
}

Expr makeCall(const std::string &Name, std::vector<Expr> Args, DType T) {
  return std::make_shared<CallNode>(Name, std::move(Args), T);
}

Buffer makeBuffer(const std::string &Name, DType T, std::vector<Expr> Shape, Scope S) {
  return std::make_shared<BufferNode>(Name, T, std::move(Shape), S);
}

Stmt makeFor(Var V, Expr Min, Expr Extent, Stmt Body, ForKind K, const std::string &Tag,
             bool IsReduction) {
  return std::make_shared<ForNode>(std::move(V), std::move(Min), std::move(Extent), K, Tag,
                                   IsReduction, std::move(Body));
}

Stmt makeStore(Buffer B, std::vector<Expr> Indices, Expr Value) {
  return std::make_shared<StoreNode>(std::move(B), std::move(Indices), std::move(Value));
}

Stmt makeStoreLike(const StoreNode *From, Buffer B, std::vector<Expr> Indices, Expr Value) {
  auto S = std::make_shared<StoreNode>(std::move(B), std::move(Indices), std::move(Value));
  S->Line = From ? From->Line : 0;
  return S;
}

Stmt withLine(const Stmt &S, int Line) {
  const auto *St = as<StoreNode>(S);
  if (!St || St->Line == Line)
    return S;
  auto Out = std::make_shared<StoreNode>(*St);
  Out->Line = Line;
  return Out;
}

Stmt makeAllocate(Buffer B, Stmt Body) {
  return std::make_shared<AllocateNode>(std::move(B), std::move(Body));
}

namespace {
void appendFlattened(const Stmt &S, std::vector<Stmt> &Out) {
  if (!S)
    return;
  if (const auto *Seq = as<SeqNode>(S)) {
    for (const Stmt &Child : Seq->Stmts)
      appendFlattened(Child, Out);
    return;
  }
  Out.push_back(S);
}
} // namespace

Stmt makeSeq(std::vector<Stmt> Stmts) {
  std::vector<Stmt> Flat;
  for (const Stmt &S : Stmts)
    appendFlattened(S, Flat);
  if (Flat.size() == 1)
    return Flat.front();
  return std::make_shared<SeqNode>(std::move(Flat));
}

Stmt makeIf(Expr Cond, Stmt Then, Stmt Else) {
  return std::make_shared<IfThenElseNode>(std::move(Cond), std::move(Then), std::move(Else));
}

Stmt makeLet(Var V, Expr Value, Stmt Body) {
  return std::make_shared<LetStmtNode>(std::move(V), std::move(Value), std::move(Body));
}

Stmt makeEvaluate(Expr E) { return std::make_shared<EvaluateNode>(std::move(E)); }

Expr operator+(Expr A, Expr B) { return makeBinary(BinOp::Add, std::move(A), std::move(B)); }
Expr operator-(Expr A, Expr B) { return makeBinary(BinOp::Sub, std::move(A), std::move(B)); }
Expr operator*(Expr A, Expr B) { return makeBinary(BinOp::Mul, std::move(A), std::move(B)); }
Expr operator/(Expr A, Expr B) { return makeBinary(BinOp::Div, std::move(A), std::move(B)); }
Expr operator%(Expr A, Expr B) { return makeBinary(BinOp::Mod, std::move(A), std::move(B)); }
Expr operator<(Expr A, Expr B) { return makeBinary(BinOp::LT, std::move(A), std::move(B)); }
Expr operator<(const Var &A, const Expr &B) { return makeBinary(BinOp::LT, A, B); }
Expr operator<(const Expr &A, const Var &B) { return makeBinary(BinOp::LT, A, B); }
Expr operator<(const Var &A, const Var &B) { return makeBinary(BinOp::LT, A, B); }

bool getConstInt(const Expr &E, int64_t &Out) {
  const auto *I = as<IntImmNode>(E);
  if (!I)
    return false;
  Out = I->Value;
  return true;
}

int64_t constantElements(const BufferNode &B) {
  int64_t Count = 1, Extent;
  for (const Expr &Dim : B.Shape) {
    if (!getConstInt(Dim, Extent))
      return -1;
    Count *= Extent;
  }
  return Count;
}

const char *kindName(ExprKind K) {
  switch (K) {
#define SCHED_EXPR_NODE(X)                                                                         \
  case ExprKind::X:                                                                                \
    return #X;
#include "ir/NodeKinds.def"
  }
  return "?";
}

const char *kindName(StmtKind K) {
  switch (K) {
#define SCHED_STMT_NODE(X)                                                                         \
  case StmtKind::X:                                                                                \
    return #X;
#include "ir/NodeKinds.def"
  }
  return "?";
}

} // namespace ir
} // namespace sched
