//===- PartitionLoops.cpp - Full tiles run without guards -----------------===//
//
// A schedule whose tiles do not divide the iteration space guards every
// statement with the space's bounds (`if (io*64 + ty*4 + ii < M)`), and the
// guards stay around every multiply-add of the hot loop although only the
// edge tiles ever need them: the branches cost more than the arithmetic and
// keep operands from living in registers. This pass gives the full tiles
// code of their own, the way TVM's LoopPartition and Halide's boundary
// splitting do:
//
//   1. Per block. Where the kernel's blocks begin (inside the blockIdx loops
//      and the threadIdx loops directly inside them), the body becomes
//      `if (V) <body without the guards V implies> else <body>`. V holds a
//      condition per tile-edge guard: that it holds for every value of the
//      threads' and the inner constant-extent loops' variables (its largest
//      side over their ranges, ir::boundsOf), so it depends only on the block
//      and the parameters: every thread of a block takes the same branch, and
//      the barriers inside stay uniform. Only guards over loops of constant
//      extent enter V: a guard on the k-tile loop would make every block of
//      a problem whose K the tile does not divide take the slow branch.
//   2. Per k-tile loop. A serial loop of run-time extent whose body has
//      guards `a*v + f < 0` (a > 0, f over the body's own loops and the
//      threads) runs in two parts: v < T, where every such guard holds for
//      every value of the inner variables (T from the guard's largest value),
//      without them, then the rest with them. T is the same for every thread
//      of the block (threads are maximized over), so both loops are uniform
//      and their barriers too. Done in the full tiles' code (or the whole
//      body where there is no per-block version), not in the edge copy or in
//      a remainder, so code grows by one copy per level at most.
//
// Guards that read memory, compare floating point or test equality are left
// alone. A guard's range is narrowed by the guards around it (`ut*2 + ur <
// n` inside `if (ut < 32)`). Removing a guard in the copy
// where its condition provably holds changes no value, so the copies compute
// exactly what the original did.
//
// Runs after ComputeBufferRegions (the launcher's copy regions come from the
// guarded accesses, which bound them by the arrays' sizes) and after thread
// sync (each copy keeps its barriers, under conditions uniform across the
// block). The copies share the shared arrays, whose allocations move around
// both (a shared array holds nothing from one k step to the next that the
// step does not write first; their sizes are constants); every other
// variable and local array a copy declares is its own, so the IR text names
// them apart and reads back the same.
//
//===----------------------------------------------------------------------===//
#include "ir/Bounds.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Names.h"
#include "ir/Prove.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <memory>

namespace sched {
namespace passes {

namespace {

using ir::BinOp;
using ir::Expr;
using ir::Stmt;

bool isConstant(const Expr &E) {
  int64_t Value;
  return ir::getConstInt(E, Value);
}

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
ir::VarRanges rangesAt(const GuardUse &U, const FreeVars &Free) {
  ir::VarRanges Out = Free.Ranges;
  for (const auto &Entry : U.Narrowed)
    Out[Entry.first] = Entry.second;
  return Out;
}

/// The distinct conjuncts of Uses, each with all its uses.
std::vector<std::vector<const GuardUse *>> byConjunct(const std::vector<GuardUse> &Uses) {
  std::vector<std::vector<const GuardUse *>> Out;
  for (const GuardUse &U : Uses) {
    bool Found = false;
    for (auto &Group : Out)
      if (ir::structurallyEqual(Group[0]->Conjunct, U.Conjunct)) {
        Group.push_back(&U);
        Found = true;
        break;
      }
    if (!Found)
      Out.push_back({&U});
  }
  return Out;
}


/// An integer comparison (<, <=, >, >=) that reads no memory.
const ir::BinaryNode *integerComparison(const Expr &C) {
  const auto *B = ir::as<ir::BinaryNode>(C);
  if (!B || !(B->Op == BinOp::LT || B->Op == BinOp::LE || B->Op == BinOp::GT ||
              B->Op == BinOp::GE))
    return nullptr;
  if (!ir::isInt(B->A->Type) || !ir::isInt(B->B->Type) || ir::dependsOnMemory(C))
    return nullptr;
  return B;
}

/// The condition, over the variables Free does not bind, under which the
/// comparison C holds for every value of those it binds; null where
/// interval bounds cannot say.
Expr holdsEverywhere(const Expr &C, const FreeVars &Free, const ir::VarRanges &Ranges) {
  const ir::BinaryNode *B = integerComparison(C);
  if (!B)
    return nullptr;
  bool Less = B->Op == BinOp::LT || B->Op == BinOp::LE;
  // The side that must be small against the side that must be large.
  Expr Small = Less ? B->A : B->B, Large = Less ? B->B : B->A;
  BinOp Op = (B->Op == BinOp::LT || B->Op == BinOp::GT) ? BinOp::LT : BinOp::LE;
  Expr Lhs, Rhs;
  if (!Free.usesAny(Large)) {
    Lhs = ir::boundsOf(Small, Ranges).Max;
    Rhs = Large;
  } else if (!Free.usesAny(Small)) {
    Lhs = Small;
    Rhs = ir::boundsOf(Large, Ranges).Min;
  } else {
    Lhs = ir::boundsOf(Small - Large, Ranges).Max;
    Rhs = ir::makeInt(0, Lhs ? Lhs->Type : B->A->Type);
  }
  if (!Lhs || !Rhs || Free.usesAny(Lhs) || Free.usesAny(Rhs))
    return nullptr;
  return ir::simplify(ir::makeBinary(Op, Lhs, Rhs));
}

bool containsEqual(const std::vector<Expr> &List, const Expr &E) {
  for (const Expr &X : List)
    if (ir::structurallyEqual(X, E))
      return true;
  return false;
}

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
std::vector<Expr> withoutImplied(const std::vector<Expr> &Conds) {
  auto Implies = [](const Expr &Strong, const Expr &Weak) {
    const auto *S = ir::as<ir::BinaryNode>(Strong), *W = ir::as<ir::BinaryNode>(Weak);
    return S && W && S->Op == W->Op && (S->Op == BinOp::LT || S->Op == BinOp::LE) &&
           ir::structurallyEqual(S->B, W->B) && ir::provablyLessOrEqual(W->A, S->A);
  };
  std::vector<Expr> Out;
  for (size_t I = 0; I < Conds.size(); ++I) {
    bool Redundant = false;
    for (size_t J = 0; J < Conds.size() && !Redundant; ++J)
      if (J != I && Implies(Conds[J], Conds[I]) &&
          (!Implies(Conds[I], Conds[J]) || J < I)) // of equal ones, keep the first
        Redundant = true;
    if (!Redundant)
      Out.push_back(Conds[I]);
  }
  return Out;
}


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
Stmt allocatedAround(Stmt S, const std::vector<ir::Buffer> &Buffers) {
  for (auto It = Buffers.rbegin(); It != Buffers.rend(); ++It)
    S = ir::makeAllocate(*It, S);
  return S;
}

/// Whether every hoisted buffer has a constant shape (no variable of the
/// code it leaves).
bool constantShapes(const std::vector<ir::Buffer> &Buffers) {
  for (const ir::Buffer &B : Buffers)
    for (const Expr &Dim : B->Shape)
      if (!isConstant(Dim))
        return false;
  return true;
}

/// The serial loops of run-time extent of a statement into the
/// iterations where their guards all hold and the rest (step 2 above).
class SerialLoopPartitioner : public ir::IRMutator {
public:
  /// Threads: the variables of the threadIdx loops around the statement,
  /// with their ranges (maximized over, so the split is block-uniform).
  explicit SerialLoopPartitioner(const FreeVars &Threads) : Threads(Threads) {}

protected:
  Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
    if (N->LoopKind == ir::ForKind::ThreadBound && isThreadIdxLoop(N)) {
      Threads.addLoop(N);
      return ir::IRMutator::mutateFor(S, N);
    }
    if (N->LoopKind != ir::ForKind::Serial || isConstant(N->Extent))
      return ir::IRMutator::mutateFor(S, N);
    int64_t Min;
    if (!ir::getConstInt(N->Min, Min) || Min < 0)
      return ir::IRMutator::mutateFor(S, N);
    if (Stmt Split = partition(N))
      return Split;
    return ir::IRMutator::mutateFor(S, N);
  }

private:
  FreeVars Threads;

  /// N as [Min, T) without its guards on N's variable, then [T, end) as it
  /// was; null where no guard bounds the variable from above.
  Stmt partition(const ir::ForNode *N) {
    FreeVars Free = Threads;
    BindingCollector(Free).visit(N->Body);
    GuardCollector Guards(Free);
    Guards.visit(N->Body);
    const ir::VarNode *V = N->LoopVar.get();
    std::vector<Expr> Drop, Ends;
    for (const auto &Group : byConjunct(Guards.Uses)) {
      const Expr &C = Group[0]->Conjunct;
      const ir::BinaryNode *B = integerComparison(C);
      if (!B || !ir::usesVar(C, V))
        continue;
      // The guard as `d < 0`, d = a*v + r at its largest over the free
      // variables, at every place it stands.
      Expr D;
      switch (B->Op) {
      case BinOp::LT: D = B->A - B->B; break;
      case BinOp::LE: D = B->A - B->B - ir::makeInt(1, B->A->Type); break;
      case BinOp::GT: D = B->B - B->A; break;
      default: D = B->B - B->A - ir::makeInt(1, B->A->Type); break; // GE
      }
      std::vector<Expr> GroupEnds;
      for (const GuardUse *U : Group) {
        Expr Max = ir::boundsOf(D, rangesAt(*U, Free)).Max;
        ir::LinearIndex Lin;
        if (!Max || Free.usesAny(Max) || !ir::linearIn(Max, {V}, Lin) || Lin.coef(V) <= 0 ||
            (Lin.Rest && ir::usesVar(Lin.Rest, V)))
          break;
        // a*v + r < 0  <=>  v < floor((a - 1 - r) / a); below 0 the clamp to
        // Min >= 0 makes truncating and floor division agree.
        int64_t A = Lin.coef(V);
        Expr Rest = Lin.Rest ? Lin.Rest : ir::makeInt(0, Max->Type);
        GroupEnds.push_back(
            ir::simplify((ir::makeInt(A - 1, Max->Type) - Rest) / ir::makeInt(A, Max->Type)));
      }
      if (GroupEnds.size() != Group.size())
        continue; // some place of the guard is not bounded that way
      for (const Expr &E : GroupEnds)
        if (!containsEqual(Ends, E))
          Ends.push_back(E);
      Drop.push_back(C);
    }
    if (Drop.empty())
      return nullptr;
    SharedHoister Hoister;
    Stmt Body = Hoister.mutate(N->Body);
    if (!constantShapes(Hoister.Hoisted))
      return nullptr;
    Expr End = N->Min + N->Extent;
    Expr T = Ends[0];
    for (size_t I = 1; I < Ends.size(); ++I)
      T = ir::makeBinary(BinOp::Min, T, Ends[I]);
    T = ir::simplify(ir::makeBinary(BinOp::Max, N->Min, ir::makeBinary(BinOp::Min, End, T)));
    ir::Var Split = ir::makeVar(N->LoopVar->Name + "_full", T->Type);
    // The full iterations: the body without the guards, partitioned further.
    Stmt Full = ir::simplify(GuardDropper(Drop).mutate(Body));
    Full = mutate(Full);
    Stmt Main = ir::withBounds(N, N->Min, ir::simplify(Expr(Split) - N->Min), Full);
    // The rest, with a variable of its own (one variable, one loop).
    ir::Var Tail = ir::makeVar(N->LoopVar->Name + "_rest", N->LoopVar->Type);
    Stmt TailBody = ir::cloneDeclarations(ir::substitute(Body, {{V, Expr(Tail)}}));
    Stmt Rest = ir::withVar(N, Tail, Split, ir::simplify(End - Expr(Split)), TailBody);
    return allocatedAround(ir::makeLet(Split, T, ir::makeSeq({Main, Rest})), Hoister.Hoisted);
  }
};

/// The place the blocks' code begins: the body of the innermost loop of the
/// chain of launch loops (blockIdx, then threadIdx) each directly inside the
/// one before, with the threadIdx variables of the chain.
class BlockVersioner : public ir::IRMutator {
protected:
  Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
    if (N->LoopKind == ir::ForKind::ThreadBound &&
        (ir::isBlockTag(N->ThreadTag) || isThreadIdxLoop(N))) {
      if (isThreadIdxLoop(N))
        Threads.addLoop(N);
      const auto *Inner = ir::as<ir::ForNode>(N->Body);
      bool ChainGoesOn = Inner && Inner->LoopKind == ir::ForKind::ThreadBound &&
                         (ir::isBlockTag(Inner->ThreadTag) || isThreadIdxLoop(Inner));
      Stmt Body = ChainGoesOn ? mutate(N->Body) : version(N->Body);
      return Body == N->Body ? S : ir::withBody(N, Body);
    }
    return S; // not a chain of launch loops: the kernel's top (see lower)
  }

public:
  /// `if (V) Fast else Body` where some guard holds for whole blocks, and
  /// the serial loops of the fast code (or of Body) partitioned.
  Stmt version(const Stmt &Body) {
    FreeVars Free = Threads;
    BindingCollector(Free).visit(Body);
    GuardCollector Guards(Free);
    Guards.visit(Body);
    std::vector<Expr> Drop, Conds;
    for (const auto &Group : byConjunct(Guards.Uses)) {
      const Expr &C = Group[0]->Conjunct;
      if (!Free.usesAny(C) || !Free.allConstant(C))
        continue;
      std::vector<Expr> GroupConds;
      bool Holds = true;
      for (const GuardUse *U : Group) {
        Expr Cond = holdsEverywhere(C, Free, rangesAt(*U, Free));
        int64_t Value;
        if (!Cond || (ir::getConstInt(Cond, Value) && !Value)) {
          Holds = false; // not provable, or never for a whole block
          break;
        }
        if (!ir::getConstInt(Cond, Value) && !containsEqual(GroupConds, Cond))
          GroupConds.push_back(Cond);
      }
      if (!Holds)
        continue;
      for (const Expr &E : GroupConds)
        if (!containsEqual(Conds, E))
          Conds.push_back(E);
      Drop.push_back(C);
    }
    if (Drop.empty())
      return SerialLoopPartitioner(Threads).mutate(Body);
    Conds = withoutImplied(Conds);
    if (Conds.empty()) // guards that always hold
      return SerialLoopPartitioner(Threads).mutate(ir::simplify(GuardDropper(Drop).mutate(Body)));
    SharedHoister Hoister;
    Stmt Unshared = Hoister.mutate(Body);
    if (!constantShapes(Hoister.Hoisted))
      return SerialLoopPartitioner(Threads).mutate(Body);
    Stmt Fast = ir::simplify(GuardDropper(Drop).mutate(Unshared));
    Fast = ir::cloneDeclarations(SerialLoopPartitioner(Threads).mutate(Fast));
    return allocatedAround(ir::makeIf(ir::conjunction(Conds), Fast, Unshared), Hoister.Hoisted);
  }

private:
  FreeVars Threads;
};

} // namespace

ir::LoopNest partitionLoops(const ir::LoopNest &Nest) {
  ir::LoopNest Out = Nest;
  const auto *Top = ir::as<ir::ForNode>(Nest.Body);
  bool Launch = Top && Top->LoopKind == ir::ForKind::ThreadBound &&
                (ir::isBlockTag(Top->ThreadTag) || isThreadIdxLoop(Top));
  BlockVersioner Versioner;
  Out.Body = Launch ? Versioner.mutate(Nest.Body) : Versioner.version(Nest.Body);
  return Out;
}

const Pass PartitionLoopsPass = {
    "PartitionLoops", /*Requires=*/FormFlattened, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      S.Nest = partitionLoops(S.Nest);
      return true;
    }};

} // namespace passes
} // namespace sched
