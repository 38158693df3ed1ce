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
  // One mutateK per kind of NodeKinds.def; each returns the node it was
  // given when no child changed (leaves: always), so unchanged subtrees keep
  // their identity.
#define SCHED_EXPR_NODE(K) virtual Expr mutate##K(const Expr &E, const K##Node *N);
#define SCHED_STMT_NODE(K) virtual Stmt mutate##K(const Stmt &S, const K##Node *N);
#include "ir/NodeKinds.def"
};

/// Replaces each free occurrence of a variable in the map by its expression.
Expr substitute(const Expr &E, const std::map<const VarNode *, Expr> &Map);
Stmt substitute(const Stmt &S, const std::map<const VarNode *, Expr> &Map);

/// Removes every LetStmt of S, substituting its value into its body, so that
/// analyses see indices in terms of loop variables and parameters only.
Stmt inlineLets(const Stmt &S);
/// The same for the LetStmts Which accepts only.
Stmt inlineLets(const Stmt &S, const std::function<bool(const LetStmtNode *)> &Which);

/// Rewrites every access to Old (loads, including intrinsic buffer operands,
/// and stores) into an access to New at MapIndices(old indices), and Old's
/// allocation into New's. Cache stages, compute_at, storage_align and
/// double_buffer all change a buffer this way.
using IndexMap = std::function<std::vector<Expr>(const std::vector<Expr> &)>;
Stmt remapBuffer(const Stmt &S, const BufferNode *Old, const Buffer &New,
                 const IndexMap &MapIndices);

/// Several buffers at once, in one walk: each buffer of the map to its New
/// at its MapIndices (buffer expansion, Rewrite.h, remaps them so).
struct BufferRemap {
  Buffer New;
  IndexMap MapIndices;
};
using BufferRemaps = std::map<const BufferNode *, BufferRemap>;
Stmt remapBuffers(const Stmt &S, const BufferRemaps &Map);

} // namespace ir
} // namespace sched

#endif
