//===- Access.h - The one access analysis ----------------------*- C++ -*-===//
//
// Every load and store in a statement, with the loops that enclose it (inside
// the statement) and the conditions that guard it. The dependence analysis
// (Dependence.h), region inference (Bounds.h) and the passes read this list,
// never their own walk of the IR.
// Intrinsic calls contribute the accesses their operand declarations say
// (Intrinsics.h), never guessed from the call's shape.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_ACCESS_H
#define SCHED_IR_ACCESS_H

#include "IR.h"
#include <set>
#include <map>
#include <string>
#include <vector>

namespace sched {
namespace ir {

struct Access {
  Buffer Buf;
  std::vector<Expr> Indices;
  bool IsWrite = false;
  std::vector<const ForNode *> Loops; // enclosing loops inside the root, outermost first
  std::vector<Expr> Guards;           // conditions of enclosing ifs (true branch) / negated (else)
  const StmtNode *Statement = nullptr; // the Store / Evaluate holding the access
  Stmt Root; // the statement collected from: keeps Loops and Statement alive
             // when it was a temporary (collectAccesses(inlineLets(S)))
  /// An intrinsic's tile operand (Intrinsics.h, TileDecl) is one access per
  /// element of the tile: Indices run over it with two loops of their own,
  /// innermost in Loops (rows, then columns), which this keeps alive.
  std::vector<Stmt> TileLoops;
  /// An operand of a warp-collective intrinsic: the warp's lanes make the
  /// access together (ordered among one warp's collectives by program order).
  bool ByWarp = false;
  /// An operand of a warpgroup collective (wgmma): its 128 threads make it
  /// together (ByWarp is set too).
  bool ByWarpgroup = false;
  /// An operand of an atomic update (IntrinsicInfo::IsAtomic): it commutes
  /// with every other atomic access.
  bool Atomic = false;
};

/// All accesses in S, in program order (for a store: its loads first, then
/// the write; an intrinsic's operands in the order of its arguments).
std::vector<Access> collectAccesses(const Stmt &S);

/// How diagnostics name an access: "C[i, (j - 1)] (read)", "C[i, j] (written)".
std::string describeAccess(const Access &A);

} // namespace ir
} // namespace sched

#endif
