//===- PassUtil.h - Small helpers shared by passes and codegen -*- C++ -*-===//
//
// Questions several passes (and CUDA codegen) ask about expressions, thread
// tags and barriers. Kept here so each is answered the same way everywhere.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PASSES_PASSUTIL_H
#define SCHED_PASSES_PASSUTIL_H

#include "Pipeline.h"
#include "ir/Access.h"
#include "ir/IR.h"
#include "ir/IRVisitor.h"
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace sched {
namespace passes {

/// Name as a C identifier: characters other than letters, digits and '_'
/// become '_' (IR names hold '.', file stems '-'); an empty name becomes
/// IfEmpty, and Prefix goes in front of a name that starts with a digit.
std::string cIdentifier(const std::string &Name, const std::string &IfEmpty,
                        const std::string &Prefix);

/// The scalar parameters of Nest.
std::set<const ir::VarNode *> scalarParams(const ir::LoopNest &Nest);

/// Whether the launcher can evaluate E before the kernel runs: E uses
/// literals and Nest's scalar parameters only (no loop variable, no load, no
/// call). Launch geometry, copy regions and run-time assumptions must be.
bool isLaunchExpr(const ir::Expr &E, const ir::LoopNest &Nest);

/// True when A and B are equal for every value of their variables, as far
/// as the simplifier can tell (false means "not proven", not "different").
bool provablyEqual(const ir::Expr &A, const ir::Expr &B);

/// True when A <= B for every value of their variables, as far as the
/// simplifier can tell: B - A folds to a non-negative constant, or A is a
/// min with one such operand (a max with both).
bool provablyLessOrEqual(const ir::Expr &A, const ir::Expr &B);

/// The launch extent for Tag in Geometry (null for an unknown tag).
ir::Expr launchExtent(const LaunchGeometry &Geometry, const std::string &Tag);

/// `eval sched.syncthreads()`, and whether S is a barrier (an Evaluate of an
/// intrinsic declared IsBarrier).
ir::Stmt makeBarrier();
bool isBarrier(const ir::Stmt &S);
bool isBarrierCall(const ir::Expr &E);

/// S with every statement node that stands in more than one place (the IR
/// may share unchanged subtrees) copied, so that a pass can key what it
/// plans by statement.
ir::Stmt unshareStatements(const ir::Stmt &S);

/// `if (Cond) Body`, folding a guard directly inside into one condition
/// (when that reads no memory, which the outer one may protect).
ir::Stmt guardWith(const ir::Expr &Cond, const ir::Stmt &Body);

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

/// A non-owning handle to a node the caller holds (IR nodes live in
/// shared_ptrs, visitors and the printer take them), for printing or
/// visiting a node found by a walk.
ir::Stmt borrow(const ir::StmtNode *N);
ir::Expr borrow(const ir::ExprNode *N);

/// A statement as a message quotes it: printed on one line, no trailing
/// newline.
std::string stmtText(const ir::StmtNode *S);

/// The row-major flat offset of Indices in a buffer of Shape (Horner form,
/// simplified); extra or missing indices (a malformed access, which the
/// verifiers report) are treated as zero.
ir::Expr flatIndex(const std::vector<ir::Expr> &Shape, const std::vector<ir::Expr> &Indices);

/// The VTA element L's first scalar starts (ir/Vta.h: a uop operand is a
/// Load of the first scalar of an element of a stage buffer): its flat
/// index divided by the scope's lanes, simplified. False, with Why, when
/// the buffer is not in a VTA scope, the index is not affine, or it is not
/// provably an exact multiple of the lanes.
bool vtaElementIndex(const ir::LoadNode *L, ir::Expr &Out, std::string &Why);

/// E / N where E is affine with every coefficient and the constant provably
/// multiples of N (simplified); null otherwise.
ir::Expr divideExactly(const ir::Expr &E, int64_t N);

/// The loop of Root whose variable is V (by identity), or null; Around,
/// when given, receives the loops enclosing it (outermost first).
const ir::ForNode *findLoop(const ir::Stmt &Root, const ir::VarNode *V,
                            std::vector<const ir::ForNode *> *Around = nullptr);

/// Root with the loop Old (by identity) replaced by New.
ir::Stmt replaceLoop(const ir::Stmt &Root, const ir::ForNode *Old, const ir::Stmt &New);

/// Whether the element L loads is provably a multiple of Bytes from the start
/// of its buffer (whose start is aligned: cudaMalloc, __align__(32)): its
/// flat offset, an affine form, has every coefficient and the constant a
/// multiple of Bytes once multiplied by the element size.
bool provablyAligned(const ir::LoadNode *L, int64_t Bytes);

/// An integer expression as Rest + sum(Coef[v] * v) over the variables Vars,
/// with constant coefficients (linearIn is false otherwise, or when E is not
/// affine in them). Rest holds everything else (other variables, constants).
struct LinearIndex {
  std::map<const ir::VarNode *, int64_t> Coef; // zero coefficients omitted
  ir::Expr Rest;
  int64_t coef(const ir::VarNode *V) const {
    auto It = Coef.find(V);
    return It == Coef.end() ? 0 : It->second;
  }
};
bool linearIn(const ir::Expr &E, const std::set<const ir::VarNode *> &Vars, LinearIndex &Out);

/// Whether E is provably a multiple of N for all values of its variables:
/// affine with every coefficient and the constant multiples of N.
bool provablyMultipleOf(const ir::Expr &E, int64_t N);

/// Whether S calls an intrinsic declared warp-collective.
bool hasWarpCollective(const ir::Stmt &S);

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

/// Sets a variable for the lifetime of the guard and restores its old value
/// after it (Halide's ScopedValue): "this holds for the subtree I am in".
template <typename T> class ScopedValue {
public:
  explicit ScopedValue(T &Slot) : Slot(Slot), Saved(Slot) {}
  ScopedValue(T &Slot, T Value) : Slot(Slot), Saved(Slot) { Slot = std::move(Value); }
  ~ScopedValue() { Slot = std::move(Saved); }
  ScopedValue(const ScopedValue &) = delete;
  ScopedValue &operator=(const ScopedValue &) = delete;

private:
  T &Slot;
  T Saved;
};

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
