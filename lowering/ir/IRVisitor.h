//===- IRVisitor.h - Read-only traversal of the IR ------------*- C++ -*-===//
//
// Every analysis walks the IR through IRVisitor: override the visit method of
// the nodes you care about and call the base method to keep descending.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_IRVISITOR_H
#define SCHED_IR_IRVISITOR_H

#include "IR.h"
#include <set>

namespace sched {
namespace ir {

class IRVisitor {
public:
  virtual ~IRVisitor() = default;
  void visit(const Expr &E); // dispatches on E->Kind (null is ignored)
  void visit(const Stmt &S); // dispatches on S->Kind (null is ignored)

protected:
  // One visitK per kind of NodeKinds.def; leaves do nothing, the others
  // visit their children in evaluation order.
#define SCHED_EXPR_NODE(K) virtual void visit##K(const K##Node *N);
#define SCHED_STMT_NODE(K) virtual void visit##K(const K##Node *N);
#include "ir/NodeKinds.def"
};

/// The variables E (or S, free or bound inside it) refers to.
std::set<const VarNode *> varsOf(const Expr &E);
std::set<const VarNode *> varsOf(const Stmt &S);
/// Whether E (or S) refers to V.
bool usesVar(const Expr &E, const VarNode *V);
bool usesVar(const Stmt &S, const VarNode *V);
/// Whether loop L (its bounds or body) refers to V.
bool loopUsesVar(const ForNode *L, const VarNode *V);
/// Whether E loads from memory or calls a function: its value is not fixed
/// by the values of its variables (memory may change, a call is opaque).
bool dependsOnMemory(const Expr &E);

} // namespace ir
} // namespace sched

#endif
