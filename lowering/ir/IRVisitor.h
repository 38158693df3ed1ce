//===- IRVisitor.h - Read-only traversal of the IR ------------*- C++ -*-===//
//
// Every analysis walks the IR through IRVisitor: override the visit method of
// the nodes you care about and call the base method to keep descending.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_IRVISITOR_H
#define SCHED_IR_IRVISITOR_H

#include "IR.h"

namespace sched {
namespace ir {

class IRVisitor {
public:
  virtual ~IRVisitor() = default;
  void visit(const Expr &E); // dispatches on E->Kind (null is ignored)
  void visit(const Stmt &S); // dispatches on S->Kind (null is ignored)

protected:
  virtual void visitIntImm(const IntImmNode *) {}
  virtual void visitFloatImm(const FloatImmNode *) {}
  virtual void visitVar(const VarNode *) {}
  virtual void visitBinary(const BinaryNode *N);
  virtual void visitUnary(const UnaryNode *N);
  virtual void visitSelect(const SelectNode *N);
  virtual void visitCast(const CastNode *N);
  virtual void visitLoad(const LoadNode *N);
  virtual void visitCall(const CallNode *N);

  virtual void visitFor(const ForNode *N);
  virtual void visitStore(const StoreNode *N);
  virtual void visitAllocate(const AllocateNode *N);
  virtual void visitSeq(const SeqNode *N);
  virtual void visitIfThenElse(const IfThenElseNode *N);
  virtual void visitLetStmt(const LetStmtNode *N);
  virtual void visitEvaluate(const EvaluateNode *N);
};

} // namespace ir
} // namespace sched

#endif
