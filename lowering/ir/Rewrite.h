//===- Rewrite.h - Rebuilding statements: the IR-generic helpers -*- C++ -*-===//
//
// Small rewrites every pass and primitive needs and none owns: a loop with a
// new body (bounds, variable, kind), a buffer expanded by a leading
// dimension, a statement found or replaced by identity, a guard folded into
// the one below it, a flat index. Built on IRVisitor/IRMutator; no pass or
// target knowledge (that is passes/PassUtil.h).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_REWRITE_H
#define SCHED_IR_REWRITE_H

#include "ir/IR.h"
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sched {
namespace ir {

/// N with Body as its body: same variable, bounds, kind, tag and reduction
/// mark (the one way to rebuild a loop around a rewritten body).
Stmt withBody(const ForNode *N, Stmt Body);
/// N with new bounds and body, the rest kept.
Stmt withBounds(const ForNode *N, Expr Min, Expr Extent, Stmt Body);
/// N over a new variable V, with bounds and body written over it (a copy of
/// the loop, or the loop shifted to start at 0); kind, tag and reduction mark
/// kept.
Stmt withVar(const ForNode *N, Var V, Expr Min, Expr Extent, Stmt Body);
/// N with a new kind and thread tag (bind, unroll, or a thread loop seen as a
/// serial one), the rest kept.
Stmt withKind(const ForNode *N, ForKind Kind, const std::string &Tag);

/// Buffer expansion: Old given a new leading dimension of Count elements, so
/// that each iteration of a distributed loop (reorder), each copy of a
/// virtual thread (InjectVirtualThread) or each VTA context
/// (InjectVtaContexts) owns an element of what was one buffer. Old[i, j]
/// becomes Wide[lead, i, j]; a single-element Old (every dimension 1, a
/// scalar accumulator) expanded with DropUnitShape becomes Wide[Count], its
/// accesses Wide[lead].
struct ExpandedBuffer {
  Buffer Wide;
  bool DropsIndices = false; // accesses keep the lead index only
};
ExpandedBuffer expandBuffer(const Buffer &Old, int64_t Count, bool DropUnitShape = false);
using BufferExpansions = std::map<const BufferNode *, ExpandedBuffer>;
/// S with every load and store of an expanded buffer (intrinsic operands
/// included) and its allocation moved to its wide buffer, indexed Lead first.
Stmt expandAccesses(const Stmt &S, const BufferExpansions &Expansions, const Expr &Lead);

/// S with every statement node that stands in more than one place (the IR
/// may share unchanged subtrees) copied, so that a pass can key what it
/// plans by statement.
Stmt unshareStatements(const Stmt &S);

/// `if (Cond) Body`, folding a guard directly inside into one condition
/// (when that reads no memory, which the outer one may protect).
Stmt guardWith(const Expr &Cond, const Stmt &Body);

/// The conjunction (&&) of Conds, left to right; null when Conds is empty.
Expr conjunction(const std::vector<Expr> &Conds);

/// S with every variable and local buffer it declares replaced by a new one
/// of the same name: a copy of code placed next to the original declares its
/// own (the IR text then names them apart, and reads back the same).
Stmt cloneDeclarations(const Stmt &S);

/// The row-major flat offset of Indices in a buffer of Shape (Horner form,
/// simplified); extra or missing indices (a malformed access, which the
/// verifiers report) are treated as zero.
Expr flatIndex(const std::vector<Expr> &Shape, const std::vector<Expr> &Indices);

/// The loop of Root whose variable is V (by identity), or null; Around,
/// when given, receives the loops enclosing it (outermost first).
const ForNode *findLoop(const Stmt &Root, const VarNode *V,
                        std::vector<const ForNode *> *Around = nullptr);

/// Root with the loop Old (by identity) replaced by New.
Stmt replaceLoop(const Stmt &Root, const ForNode *Old, const Stmt &New);
/// Root with the statement Old (by identity) replaced by New.
Stmt replaceStmt(const Stmt &Root, const StmtNode *Old, const Stmt &New);

/// The statements enclosing Target inside Root, outermost first (Target
/// itself excluded). Returns false when Target is not in Root.
bool enclosingStmts(const Stmt &Root, const StmtNode *Target, std::vector<const StmtNode *> &Out);

/// A non-owning handle to a node the caller holds (IR nodes live in
/// shared_ptrs, visitors and the printer take them), for printing or
/// visiting a node found by a walk.
Stmt borrow(const StmtNode *N);
Expr borrow(const ExprNode *N);

/// A statement as a message quotes it: printed on one line, no trailing
/// newline.
std::string stmtText(const StmtNode *S);

} // namespace ir
} // namespace sched

#endif
