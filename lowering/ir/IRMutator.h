//===- IRMutator.h - Rewriting the IR --------------------------*- C++ -*-===//
//
// Every transformation rewrites the IR through IRMutator: override the mutate
// method of the nodes you change; the base methods rebuild a node only when a
// child changed (otherwise the original node is returned, so sharing and
// identity survive untouched subtrees).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_IRMUTATOR_H
#define SCHED_IR_IRMUTATOR_H

#include "IR.h"
#include <functional>

namespace sched {
namespace ir {

class IRMutator {
public:
  virtual ~IRMutator() = default;
  Expr mutate(const Expr &E); // dispatches on E->Kind (null maps to null)
  Stmt mutate(const Stmt &S); // dispatches on S->Kind (null maps to null)

protected:
  virtual Expr mutateIntImm(const Expr &E, const IntImmNode *) { return E; }
  virtual Expr mutateFloatImm(const Expr &E, const FloatImmNode *) { return E; }
  virtual Expr mutateVar(const Expr &E, const VarNode *) { return E; }
  virtual Expr mutateBinary(const Expr &E, const BinaryNode *N);
  virtual Expr mutateUnary(const Expr &E, const UnaryNode *N);
  virtual Expr mutateSelect(const Expr &E, const SelectNode *N);
  virtual Expr mutateCast(const Expr &E, const CastNode *N);
  virtual Expr mutateLoad(const Expr &E, const LoadNode *N);
  virtual Expr mutateCall(const Expr &E, const CallNode *N);

  virtual Stmt mutateFor(const Stmt &S, const ForNode *N);
  virtual Stmt mutateStore(const Stmt &S, const StoreNode *N);
  virtual Stmt mutateAllocate(const Stmt &S, const AllocateNode *N);
  virtual Stmt mutateSeq(const Stmt &S, const SeqNode *N);
  virtual Stmt mutateIfThenElse(const Stmt &S, const IfThenElseNode *N);
  virtual Stmt mutateLetStmt(const Stmt &S, const LetStmtNode *N);
  virtual Stmt mutateEvaluate(const Stmt &S, const EvaluateNode *N);
};

/// Replaces each free occurrence of a variable in the map by its expression.
Expr substitute(const Expr &E, const std::map<const VarNode *, Expr> &Map);
Stmt substitute(const Stmt &S, const std::map<const VarNode *, Expr> &Map);

/// Removes every LetStmt of S, substituting its value into its body, so that
/// analyses see indices in terms of loop variables and parameters only.
Stmt inlineLets(const Stmt &S);

/// Rewrites every access to Old (loads, including intrinsic buffer operands,
/// and stores) into an access to New at MapIndices(old indices), and Old's
/// allocation into New's. Cache stages, compute_at, storage_align and
/// double_buffer all change a buffer this way.
using IndexMap = std::function<std::vector<Expr>(const std::vector<Expr> &)>;
Stmt remapBuffer(const Stmt &S, const BufferNode *Old, const Buffer &New,
                 const IndexMap &MapIndices);

} // namespace ir
} // namespace sched

#endif
