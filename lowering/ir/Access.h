//===- Access.h - The one access analysis ----------------------*- C++ -*-===//
//
// Every load and store in a statement, with the loops that enclose it (inside
// the statement) and the conditions that guard it. Schedule legality
// (parallel loops, distribution), region inference, and thread-sync's
// dependence test all read this list, never their own walk of the IR.
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
};

/// All accesses in S, in program order (for a store: its loads first, then
/// the write).
std::vector<Access> collectAccesses(const Stmt &S);

/// True when loop L of S can run its iterations in parallel: no two
/// iterations touch the same element of a buffer with one of them writing
/// (buffers allocated inside L are private to an iteration). Conservative:
/// false when it cannot prove it. On false, Why names the buffer.
bool isParallelLoop(const ForNode *L, std::string *Why = nullptr);

/// The same test restricted to the buffers in Only: no two iterations of L
/// touch the same element of one of them with one writing. Virtual-thread
/// injection asks it for the buffers its copies write but cannot expand.
bool isParallelLoopOver(const ForNode *L, const std::set<const BufferNode *> &Only,
                        std::string *Why = nullptr);

/// Thread-sync's dependence test: may A and B, executed by two different
/// threads of one block, touch the same element of the same buffer, with at
/// least one of them writing? A and B carry every loop that encloses them in
/// the kernel (Loops) and every guard (Guards), with let-bound values
/// inlined. Loops bound to threadIdx.* give the thread coordinates (two loops
/// bound to one tag are the same coordinate); BlockExtent gives each tag's
/// launch extent (a tag missing from it has extent 1; a negative extent is
/// unknown). Serial loop variables are free on each side (two threads may be
/// at different iterations when nothing orders them). Guards `v == c` on a
/// thread variable pin that coordinate. Conservative: true unless the
/// indices provably determine the thread (or provably never meet).
bool mayConflictAcrossThreads(const Access &A, const Access &B,
                              const std::map<std::string, int64_t> &BlockExtent);

/// The same question for two threads of different blocks of one launch
/// (blocks cannot be synchronized within a kernel): loops bound to
/// blockIdx.* give the block coordinates, GridExtent each blockIdx tag's
/// extent; thread loops are as free as serial ones.
bool mayConflictAcrossBlocks(const Access &A, const Access &B,
                             const std::map<std::string, int64_t> &GridExtent);

} // namespace ir
} // namespace sched

#endif
