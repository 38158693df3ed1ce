//===- PassUtil.h - Small helpers shared by the passes ---------*- C++ -*-===//
//
// Questions several passes ask about thread tags, barriers, tensorized
// regions and VTA elements. Kept here so each is answered the same way
// everywhere. The IR-generic helpers they build on (scope guards, loop
// rebuilders, lookups by identity, proofs, names) live in ir/ (Scope.h,
// Rewrite.h, Prove.h, Names.h, Kernel.h), where codegen and the plugin use
// them too; nothing outside passes/ and the drivers includes this header.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PASSES_PASSUTIL_H
#define SCHED_PASSES_PASSUTIL_H

#include "Pipeline.h"
#include "ir/Access.h"
#include "ir/Bounds.h"
#include "ir/IR.h"
#include "ir/IRVisitor.h"
#include "ir/IRMutator.h"
#include "ir/Kernel.h"
#include "ir/Names.h"
#include "ir/Prove.h"
#include "ir/Rewrite.h"
#include "ir/Scope.h"
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace sched {
namespace passes {

/// `eval sched.syncthreads()`, and whether S is a barrier (an Evaluate of an
/// intrinsic declared IsBarrier).
/// A loop body as a flat list of statements, with the shared allocations
/// in it taken out (to be allocated around all of it: a statement after an
/// allocation in its sequence does not use the buffer, so the wider scope
/// changes nothing). Other allocations (fragments, local arrays) are
/// statements like any other.
void flattenBody(const ir::Stmt &S, std::vector<const ir::AllocateNode *> &Allocs,
                 std::vector<ir::Stmt> &Stmts);

/// A mutator that knows, at each statement, the divisors of sizes the
/// conditions around it state (`if (K % 8 == 0)`: K -> 8, in the then
/// branch; ir::addDivisorFacts), in Facts: the passes that write or prove
/// flat indices under tensorcore(auto)'s full-tile condition
/// (StorageFlatten, PipelineStages) see the same facts.
/// A mutator that knows the range of every loop around the statement it is
/// at (Ranges, as ir::loopRange gives them), for the provers.
class LoopRangeMutator : public ir::IRMutator {
protected:
  ir::VarRanges Ranges;

  ir::Stmt mutateFor(const ir::Stmt &S, const ir::ForNode *N) override;
};

class DivisorFactsMutator : public ir::IRMutator {
protected:
  ir::DivisorFacts Facts;

  ir::Stmt mutateIfThenElse(const ir::Stmt &S, const ir::IfThenElseNode *N) override;
};

/// The row length (in halves) a stage ldmatrix reads is padded to, so that
/// the 8 rows of one ldmatrix matrix fall in 8 different 16-byte bank groups:
/// an odd number of 16-byte chunks (Row itself when it already is one).
/// PipelineStages sizes its rings with it, LayoutSharedStages pads with it.
int64_t ldmatrixPitch(int64_t Row);

ir::Stmt makeBarrier();
bool isBarrier(const ir::Stmt &S);
bool isBarrierCall(const ir::Expr &E);

/// A store in a region, with the loops around it inside the region
/// (outermost first, the region's own loop included) and the innermost
/// condition that guards it there (null when unguarded).
struct StoreSite {
  const ir::StoreNode *Store;
  std::vector<const ir::ForNode *> Loops;
  ir::Expr Guard;
};

/// What a region holds, as the tensorize passes match it: its stores, its
/// other statements (evaluates: calls, barriers) and a loop bound to a
/// thread tag inside it, if any.
class RegionScan : public ir::IRVisitor {
public:
  std::vector<StoreSite> Stores;
  std::vector<const ir::StmtNode *> Others;
  const ir::ForNode *BoundLoop = nullptr;

  /// The stores of S.
  static std::vector<StoreSite> of(const ir::Stmt &S);

protected:
  void visitFor(const ir::ForNode *N) override;
  void visitIfThenElse(const ir::IfThenElseNode *N) override;
  void visitStore(const ir::StoreNode *N) override;
  void visitEvaluate(const ir::EvaluateNode *N) override;

private:
  std::vector<const ir::ForNode *> Loops;
  ir::Expr Guard;
};

/// A region read as loops around one store (how the VTA passes match a
/// tensorized region or a DMA copy): every loop in it (outermost first),
/// its store, and the first statement that is neither a loop, a sequence
/// nor that one store (a second store, a guard, a let, an allocation, a
/// call), which makes the region something else.
struct StoreNest {
  std::vector<const ir::ForNode *> Loops;
  const ir::StoreNode *Store = nullptr;
  const ir::StmtNode *Other = nullptr;
};
StoreNest storeNestOf(const ir::Stmt &S);

/// P of a store that updates the element it stores, `A[i] = A[i] + P` (or
/// `P + A[i]`, the indices provably equal), or null: an accumulation.
ir::Expr updateTerm(const ir::StoreNode *St);

/// The VTA element L's first scalar starts (ir/Vta.h: a uop operand is a
/// Load of the first scalar of an element of a stage buffer): its flat
/// index divided by the scope's lanes, simplified. False, with Why, when
/// the buffer is not in a VTA scope, the index is not affine, or it is not
/// provably an exact multiple of the lanes.
bool vtaElementIndex(const ir::LoadNode *L, ir::Expr &Out, std::string &Why);

/// Whether S calls an intrinsic declared warp-collective; with LanesOnX,
/// only one whose lanes are threadIdx.x (IntrinsicInfo::LanesAreThreadIdxX:
/// the tensor-core calls, not a shuffle).
bool hasWarpCollective(const ir::Stmt &S, bool LanesOnX = false);

/// A loop bound to threadIdx.{x,y,z}.
bool isThreadIdxLoop(const ir::ForNode *N);

/// Whether S allocates a shared buffer: inside a loop, one array that every
/// iteration refills (a cache stage at `ko`), so threads must not run the
/// loop's iterations at once.
bool allocatesShared(const ir::Stmt &S);

/// A value a thread reads from a local buffer that another thread of the
/// block wrote (Write, then Read, as collected from the kernel with lets
/// inlined): each thread has its own copy of local memory, so the value
/// never arrives.
struct LocalHandOff {
  ir::Access Write, Read;
};

/// The first hand-off of each local buffer of Body that has one, in program
/// order, asked of ir::mayConflictAcrossThreads (BlockExtent as it takes it).
/// An allocation inside a thread loop is private to each of that loop's
/// threads (those dimensions are no coordinate), and a local store outside
/// the loop of a dimension runs on every thread of it (there the reader's
/// own thread wrote the element too). PromoteToShared makes the buffers with
/// one shared, InjectThreadSync reports those left.
std::vector<LocalHandOff> localHandOffs(const ir::Stmt &Body,
                                        const std::map<std::string, int64_t> &BlockExtent);

/// Which threadIdx dimensions (bit d for .x/.y/.z = 0/1/2) the value of each
/// variable in scope depends on: a threadIdx loop's variable, and a let or a
/// loop whose value or bounds depend on one. A pass walking the kernel enters
/// each For and LetStmt here and leaves it after its body; then
/// `of(E) == 0` means E has the same value on every thread of the block
/// (uniform), and a condition with `of(Cond) != 0` is thread-divergent.
class ThreadDependence {
public:
  unsigned of(const ir::Expr &E) const;
  unsigned of(const ir::Stmt &S) const; // every variable S refers to
  /// Records the variable N defines; returns its mask.
  unsigned enter(const ir::ForNode *N);
  unsigned enter(const ir::LetStmtNode *N);
  void leave(const ir::VarNode *V) { Mask.erase(V); }

private:
  unsigned of(const std::set<const ir::VarNode *> &Vars) const;
  std::map<const ir::VarNode *, unsigned> Mask; // only non-zero masks
};

} // namespace passes
} // namespace sched

#endif
