//===- FullTiles.h - The code of a block whose tile is full -----*- C++ -*-===//
//
// A schedule whose tiles do not divide the iteration space guards its
// statements with the space's bounds; a block whose whole tile lies inside
// the space needs none of them. versionFullTiles finds, for the code a block
// runs, the guards that hold for every thread of the block under conditions
// on the block and the parameters alone (block-uniform, so barriers inside
// stay uniform), and gives that code without them: PartitionLoops makes
// `if (V) <fast> else <body>` of it for every kernel, tensorcore(auto)
// (passes/gpu/AutoTensorCore.cpp) runs tensor cores in the fast copy only.
// The guard analysis (which conjunct stands where, the ranges the guards
// around it narrow, when a comparison holds over the ranges) is here once
// for both.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PASSES_FULLTILES_H
#define SCHED_PASSES_FULLTILES_H

#include "ir/Bounds.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"

#include <set>
#include <vector>

namespace sched {
namespace passes {
namespace fulltiles {

using ir::BinOp;
using ir::Expr;
using ir::Stmt;

bool isConstant(const Expr &E);

/// The variables a statement binds (loops and lets), with their ranges, and
/// whether each ranges over constants only (a constant-extent loop, or a let
/// of such variables).
struct FreeVars {
  ir::VarRanges Ranges;
  std::set<const ir::VarNode *> Constant;

  bool has(const ir::VarNode *V) const { return Ranges.count(V) != 0; }
  bool usesAny(const Expr &E) const {
    for (const ir::VarNode *V : ir::varsOf(E))
      if (has(V))
        return true;
    return false;
  }
  /// Whether every variable of E bound here ranges over constants.
  bool allConstant(const Expr &E) const {
    for (const ir::VarNode *V : ir::varsOf(E))
      if (has(V) && !Constant.count(V))
        return false;
    return true;
  }
  void addLoop(const ir::ForNode *N) {
    Expr Last = ir::simplify(N->Min + N->Extent - ir::makeInt(1, N->Extent->Type));
    Ranges[N->LoopVar.get()] = {N->Min, Last};
    if (isConstant(N->Min) && isConstant(N->Extent))
      Constant.insert(N->LoopVar.get());
  }
  void addLet(const ir::LetStmtNode *N) {
    bool Const = allConstant(N->Value);
    // A let's range is its value's (boundsOf expands it where it is used).
    Ranges[N->LetVar.get()] = {N->Value, N->Value};
    if (Const)
      Constant.insert(N->LetVar.get());
  }
};

/// The loops and lets of S, added to Out.
class BindingCollector : public ir::IRVisitor {
public:
  explicit BindingCollector(FreeVars &Out) : Out(Out) {}

protected:
  void visitFor(const ir::ForNode *N) override {
    Out.addLoop(N);
    ir::IRVisitor::visitFor(N);
  }
  void visitLetStmt(const ir::LetStmtNode *N) override {
    Out.addLet(N);
    ir::IRVisitor::visitLetStmt(N);
  }

private:
  FreeVars &Out;
};

/// Where a guard conjunct stands: the conjunct, and the ranges of free
/// variables the conditions around it narrow (`if (ut < 32)` around
/// `if (b*64 + ut*2 < n)`: ut < 32 there, although 64 threads run).
struct GuardUse {
  Expr Conjunct;
  ir::VarRanges Narrowed;
};

/// Every conjunct of every `if` condition of S, where it stands.
class GuardCollector : public ir::IRVisitor {
public:
  explicit GuardCollector(const FreeVars &Free) : Free(Free) {}
  std::vector<GuardUse> Uses;

protected:
  void visitIfThenElse(const ir::IfThenElseNode *N) override {
    std::vector<Expr> Conjuncts = ir::conjunctsOf(N->Cond);
    for (const Expr &C : Conjuncts)
      Uses.push_back({C, Narrowed});
    ir::VarRanges Outer = Narrowed;
    for (const Expr &C : Conjuncts)
      narrow(C);
    visit(N->Then);
    Narrowed = Outer;
    if (N->Else)
      visit(N->Else);
  }

private:
  const FreeVars &Free;
  ir::VarRanges Narrowed;

  /// Narrows the range of v where `v < c` or `v <= c` (c a constant) holds.
  void narrow(const Expr &C) {
    const auto *B = ir::as<ir::BinaryNode>(C);
    int64_t Bound;
    if (!B || !(B->Op == BinOp::LT || B->Op == BinOp::LE) || !ir::getConstInt(B->B, Bound))
      return;
    const auto *V = ir::as<ir::VarNode>(B->A);
    if (!V || !Free.Ranges.count(V))
      return;
    ir::Interval R = Narrowed.count(V) ? Narrowed.at(V) : Free.Ranges.at(V);
    int64_t Max = B->Op == BinOp::LT ? Bound - 1 : Bound;
    Expr NewMax = ir::makeInt(Max, B->B->Type);
    R.Max = R.Max ? ir::simplify(ir::makeBinary(BinOp::Min, R.Max, NewMax)) : NewMax;
    Narrowed[V] = R;
  }
};

/// Free's ranges with those of U narrowed.
ir::VarRanges rangesAt(const GuardUse &U, const FreeVars &Free);

/// The distinct conjuncts of Uses, each with all its uses.
std::vector<std::vector<const GuardUse *>> byConjunct(const std::vector<GuardUse> &Uses);

/// An integer comparison (<, <=, >, >=) that reads no memory.
const ir::BinaryNode *integerComparison(const Expr &C);

/// The condition, over the variables Free does not bind, under which the
/// comparison C holds for every value of those it binds; null where
/// interval bounds cannot say.
Expr holdsEverywhere(const Expr &C, const FreeVars &Free, const ir::VarRanges &Ranges);

bool containsEqual(const std::vector<Expr> &List, const Expr &E);

/// S with every `if` conjunct structurally equal to one of Drop replaced by
/// true: an `if` left with no conjunct becomes its then branch.
class GuardDropper : public ir::IRMutator {
public:
  explicit GuardDropper(const std::vector<Expr> &Drop) : Drop(Drop) {}

protected:
  Stmt mutateIfThenElse(const Stmt &S, const ir::IfThenElseNode *N) override {
    Stmt Then = mutate(N->Then);
    Stmt Else = N->Else ? mutate(N->Else) : nullptr;
    std::vector<Expr> Kept;
    bool Dropped = false;
    for (const Expr &C : ir::conjunctsOf(N->Cond)) {
      if (dropped(C))
        Dropped = true;
      else
        Kept.push_back(C);
    }
    if (!Dropped)
      return Then == N->Then && Else == N->Else ? S : ir::makeIf(N->Cond, Then, Else);
    if (Kept.empty())
      return Then; // the condition holds: the else never runs
    return ir::makeIf(ir::conjunction(Kept), Then, Else);
  }

private:
  const std::vector<Expr> &Drop;

  bool dropped(const Expr &C) const { return containsEqual(Drop, C); }
};

/// Conditions with implied ones removed: of `x + 31 < M` and `x + 63 < M`
/// only the second is kept.
std::vector<Expr> withoutImplied(const std::vector<Expr> &Conds);

/// S without its shared allocations (their bodies in their place), which
/// are added to Hoisted: two copies of a block's code share one shared
/// array, allocated once around both.
class SharedHoister : public ir::IRMutator {
public:
  std::vector<ir::Buffer> Hoisted;

protected:
  Stmt mutateAllocate(const Stmt &S, const ir::AllocateNode *N) override {
    if (N->Buf->MemScope != ir::Scope::Shared)
      return ir::IRMutator::mutateAllocate(S, N);
    Hoisted.push_back(N->Buf);
    return mutate(N->Body);
  }
};

/// S inside allocations of Buffers (the first outermost).
Stmt allocatedAround(Stmt S, const std::vector<ir::Buffer> &Buffers);

/// Whether every hoisted buffer has a constant shape (no variable of the
/// code it leaves).
bool constantShapes(const std::vector<ir::Buffer> &Buffers);

/// The code of a block split at its full tiles (versionFullTiles).
struct FullTileVersion {
  /// Block-uniform conditions (over the block's indices and the parameters)
  /// under which every dropped guard holds for every thread; empty when the
  /// dropped guards always hold.
  std::vector<Expr> Conds;
  /// The guards (if conjuncts) dropped in Fast.
  std::vector<Expr> Drop;
  /// The body without the dropped guards, and the body as it was; both
  /// without the shared allocations (Hoisted, to be allocated once around
  /// both) where Conds is not empty.
  Stmt Fast, Unshared;
  std::vector<ir::Buffer> Hoisted;
};

/// Splits Body, the code one block runs (Threads: the ranges of the
/// threadIdx variables around it), at its full tiles: every guard conjunct
/// over Body's own loops and the threads that holds, at every place it
/// stands, for all their values under a condition free of them. Only guards
/// over constant-extent loops unless OverRunTimeLoops (a guard on a k-tile
/// loop of run-time extent makes the condition `K` a multiple of the tile:
/// PartitionLoops splits such loops instead, tensor cores want whole tiles).
/// False where no guard can be dropped, or a shared allocation to hoist has
/// a run-time shape.
bool versionFullTiles(const Stmt &Body, const FreeVars &Threads, bool OverRunTimeLoops,
                      FullTileVersion &Out);

} // namespace fulltiles
} // namespace passes
} // namespace sched

#endif
