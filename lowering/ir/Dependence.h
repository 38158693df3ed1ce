//===- Dependence.h - The one dependence analysis --------------*- C++ -*-===//
//
// Every legality question about the order of memory accesses goes through
// here: may two instances of two accesses (Access.h) touch the same element
// of a buffer, given how the iterations of the loops around them relate?
// Binding a loop to blocks, threads or virtual threads (no dependence carried
// by it), reordering loops (every dependence keeps its direction), loop
// distribution (no dependence goes backwards across the statements), the
// cooperative fetch, virtual-thread injection and thread sync (two threads of
// a block, or two blocks, meeting on an element) all ask it; none keeps an
// approximation of its own.
//
// Each question becomes an integer linear system (IntegerSystem.h): one copy
// of the loop variables per instance, their bounds, the guards around each
// access, one equation per buffer dimension, and the relation between the
// iterations. It is exact for affine indices and bounds with symbolic
// (parameter) terms; div and mod by constants (from split and fuse) become
// exact quotient/remainder variables; division by a symbolic E (a fuse of
// run-time extents) gives quotients and remainders that determine X once the
// quotients of the two instances are forced equal; a term
// P * v with a symbolic P (a split into nparts of a run-time extent) is
// separated from the rest when the rest provably stays below P. Anything else
// (an index read from memory, a product of loop variables) drops the
// constraint it appears in, so the answer errs towards "may touch": a legal
// schedule may be refused, an illegal one is never accepted.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_DEPENDENCE_H
#define SCHED_IR_DEPENDENCE_H

#include "Access.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace sched {
namespace ir {

/// Why a dependence may exist: the two accesses that may meet (or a call
/// whose effects are unknown), in source terms.
struct DependenceWitness {
  std::string Buffer;  // the buffer both touch ("" for an unknown call)
  std::string First;   // "C[i, j] (written)"
  std::string Second;  // "C[i, (j - 1)] (read)"
  std::string Detail;  // set instead of the above for an unknown call
  /// "loop-carried dependence on 'C': C[i, j] (written) and C[i, (j - 1)] (read)".
  std::string describe(const std::string &What = "loop-carried dependence") const;
};

/// Every query takes an optional Context: a statement that contains the loops
/// asked about (the whole nest). The loops and guards around them there are
/// then known too (a tile guard that keeps the last tile apart, the range of
/// an outer loop); without it, variables of enclosing loops are unknown
/// symbols, equal for both instances.

/// True when loop L carries a dependence: two different iterations of L
/// touch the same element of a buffer, one of them writing, while every loop
/// around L stays at one iteration. Buffers allocated inside L are private to
/// an iteration and do not count; Only (when given) restricts the test to
/// those buffers. Calls without an intrinsic declaration count as touching
/// everything.
bool loopCarriesDependence(const ForNode *L, DependenceWitness *Why = nullptr,
                           const std::set<const BufferNode *> *Only = nullptr,
                           const Stmt &Context = nullptr);

/// !loopCarriesDependence(L): the iterations of L may run in any order or at
/// once. On false, Why names the buffer and the two accesses.
bool isParallelLoop(const ForNode *L, std::string *Why = nullptr, const Stmt &Context = nullptr);
bool isParallelLoopOver(const ForNode *L, const std::set<const BufferNode *> &Only,
                        std::string *Why = nullptr);

/// Whether Op combines partial results in any order and grouping: + * min
/// max & | ^ && ||.
bool isReductionOp(BinOp Op);

/// `X[I] = X[I] op e` (or `e op X[I]`) with op a reduction operation
/// (isReductionOp), or `X[I] = X[I] - e`, and e not reading X: instances of
/// such updates may run in any order; so may `X[I] = T(T'(X[I]) op e)` with
/// op + - or * (C's conversions of a narrow or mixed type); and, for
/// integers, `X[I] = chain` with chain a sum of terms under + and - (and
/// negation) in which X[I] is one term, added, and the others do not read X
/// (`(X[I] - e*2) - 1`, a simplified `X[I] + ((-1 - e) - e)`). Op receives
/// the operation that combines two partial results (+ for -).
bool isCommutativeUpdate(const StmtNode *S, const BufferNode *Buf, BinOp &Op);

/// Whether the perfectly nested band Band (outermost first; only guards may
/// lie between its loops) can be permuted so that Band[NewOrder[p]] ends up at
/// position p without reversing any dependence. Dependences between two
/// instances of one commutative update (`X[i] = X[i] + e`, also *, min, max)
/// may be reordered: they only reassociate the reduction.
bool bandPermutationIsLegal(const std::vector<const ForNode *> &Band,
                            const std::vector<size_t> &NewOrder, DependenceWitness *Why = nullptr,
                            const Stmt &Context = nullptr);

/// Whether loop A, whose body is (guards around) the sequence Seq, can be
/// distributed over Seq's statements (one copy of A each, in order): no
/// dependence may go from a later statement at an earlier iteration of A to
/// an earlier statement at a later one. Buffers in Exempt (private to an
/// iteration once distributed: hoisted and expanded) do not count.
bool distributionIsLegal(const ForNode *A, const SeqNode *Seq,
                         const std::set<const BufferNode *> &Exempt,
                         DependenceWitness *Why = nullptr, const Stmt &Context = nullptr);

/// Thread sync's question: may A and B, executed by two different threads of
/// one block, touch the same element of the same buffer, with at least one of
/// them writing? A and B carry every loop that encloses them in the kernel and
/// every guard, with let-bound values inlined. Loops bound to threadIdx.* give
/// the thread coordinates (two loops bound to one tag are one coordinate),
/// loops bound to blockIdx.* the block's (the same on both sides); BlockExtent
/// gives each thread tag's launch extent (a tag missing from it has extent 1; a
/// negative extent is unknown). Serial loop variables are free on each side
/// (two threads may be at different iterations when nothing orders them).
/// A warp collective's operand (Access::ByWarp) is touched by every lane of
/// its warp; two of them are made by different threads only when their warps
/// differ (threadIdx.x, the lane, does not count). Two warpgroup collectives'
/// (Access::ByWarpgroup) in a block of at most 128 threads never are.
///
/// With Carried.Loop set (a serial loop around both), B runs in the iteration
/// of that loop right after A's: thread sync's question across one step of a
/// loop whose every iteration passes a barrier (the barriers order A against
/// the iterations after that). A double-buffered stage read at ko (copy ko %
/// 2) and refilled at ko + 1 (copy (ko + 1) % 2) then never meets.
struct NextIteration {
  const ForNode *Loop = nullptr;
};
bool mayConflictAcrossThreads(const Access &A, const Access &B,
                              const std::map<std::string, int64_t> &BlockExtent,
                              const NextIteration &Carried = {});

/// The same question for two different blocks of one launch (thread
/// coordinates free): a hand-off no barrier can order. GridExtent gives each
/// block tag's extent as BlockExtent does for threads.
bool mayConflictAcrossBlocks(const Access &A, const Access &B,
                             const std::map<std::string, int64_t> &GridExtent);

} // namespace ir
} // namespace sched

#endif
