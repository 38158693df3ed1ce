//===- IRVisitor.cpp - Read-only traversal of the IR ----------------------===//
//
// Dispatch on node kinds (the project builds without RTTI) and the default
// descent into every child, in evaluation order.
//
//===----------------------------------------------------------------------===//

#include "IRVisitor.h"

namespace sched {
namespace ir {

void IRVisitor::visit(const Expr &E) {
  if (!E)
    return;
  switch (E->Kind) {
#define SCHED_EXPR_NODE(K)                                                                         \
  case ExprKind::K:                                                                                \
    return visit##K(as<K##Node>(E));
#include "ir/NodeKinds.def"
  }
}

void IRVisitor::visit(const Stmt &S) {
  if (!S)
    return;
  switch (S->Kind) {
#define SCHED_STMT_NODE(K)                                                                         \
  case StmtKind::K:                                                                                \
    return visit##K(as<K##Node>(S));
#include "ir/NodeKinds.def"
  }
}

void IRVisitor::visitIntImm(const IntImmNode *) {}
void IRVisitor::visitFloatImm(const FloatImmNode *) {}
void IRVisitor::visitVar(const VarNode *) {}

void IRVisitor::visitBinary(const BinaryNode *N) {
  visit(N->A);
  visit(N->B);
}

void IRVisitor::visitUnary(const UnaryNode *N) { visit(N->A); }

void IRVisitor::visitSelect(const SelectNode *N) {
  visit(N->Cond);
  visit(N->TrueValue);
  visit(N->FalseValue);
}

void IRVisitor::visitCast(const CastNode *N) { visit(N->Value); }

void IRVisitor::visitLoad(const LoadNode *N) {
  for (const Expr &I : N->Indices)
    visit(I);
}

void IRVisitor::visitCall(const CallNode *N) {
  for (const Expr &A : N->Args)
    visit(A);
}

void IRVisitor::visitFor(const ForNode *N) {
  visit(N->Min);
  visit(N->Extent);
  visit(N->Body);
}

void IRVisitor::visitStore(const StoreNode *N) {
  visit(N->Value);
  for (const Expr &I : N->Indices)
    visit(I);
}

void IRVisitor::visitAllocate(const AllocateNode *N) {
  for (const Expr &E : N->Buf->Shape)
    visit(E);
  visit(N->Body);
}

void IRVisitor::visitSeq(const SeqNode *N) {
  for (const Stmt &S : N->Stmts)
    visit(S);
}

void IRVisitor::visitIfThenElse(const IfThenElseNode *N) {
  visit(N->Cond);
  visit(N->Then);
  visit(N->Else);
}

void IRVisitor::visitLetStmt(const LetStmtNode *N) {
  visit(N->Value);
  visit(N->Body);
}

void IRVisitor::visitEvaluate(const EvaluateNode *N) { visit(N->Value); }

namespace {
class VarCollector : public IRVisitor {
public:
  std::set<const VarNode *> Vars;

protected:
  void visitVar(const VarNode *N) override { Vars.insert(N); }
};

class VarUseFinder : public IRVisitor {
public:
  explicit VarUseFinder(const VarNode *V) : V(V) {}
  bool Found = false;

protected:
  void visitVar(const VarNode *N) override { Found |= N == V; }

private:
  const VarNode *V;
};

class MemoryReadFinder : public IRVisitor {
public:
  bool Found = false;

protected:
  void visitLoad(const LoadNode *) override { Found = true; }
  void visitCall(const CallNode *) override { Found = true; }
};

template <typename Node> std::set<const VarNode *> collectVars(const Node &N) {
  VarCollector C;
  C.visit(N);
  return std::move(C.Vars);
}

template <typename Node> bool findsVar(const Node &N, const VarNode *V) {
  VarUseFinder F(V);
  F.visit(N);
  return F.Found;
}
} // namespace

std::set<const VarNode *> varsOf(const Expr &E) { return collectVars(E); }
std::set<const VarNode *> varsOf(const Stmt &S) { return collectVars(S); }
bool usesVar(const Expr &E, const VarNode *V) { return findsVar(E, V); }
bool usesVar(const Stmt &S, const VarNode *V) { return findsVar(S, V); }
bool dependsOnMemory(const Expr &E) {
  MemoryReadFinder F;
  F.visit(E);
  return F.Found;
}
bool loopUsesVar(const ForNode *L, const VarNode *V) {
  return usesVar(L->Min, V) || usesVar(L->Extent, V) || usesVar(L->Body, V);
}

} // namespace ir
} // namespace sched
