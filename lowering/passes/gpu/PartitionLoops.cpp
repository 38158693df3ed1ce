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
#include "passes/FullTiles.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <memory>

namespace sched {
namespace passes {

namespace {

using namespace fulltiles;

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
    // A block already split by a block-uniform condition (tensorcore(auto)
    // runs tensor cores in its full tiles): each branch on its own, so the
    // split is not made again around both.
    if (const auto *A = ir::as<ir::AllocateNode>(Body))
      if (A->Buf->MemScope == ir::Scope::Shared && splitUniformly(A->Body))
        return ir::makeAllocate(A->Buf, version(A->Body));
    if (const ir::IfThenElseNode *If = splitUniformly(Body))
      return ir::makeIf(If->Cond, version(If->Then), version(If->Else));
    FullTileVersion V;
    if (!versionFullTiles(Body, Threads, /*OverRunTimeLoops=*/false, V))
      return SerialLoopPartitioner(Threads).mutate(Body);
    if (V.Conds.empty()) // guards that always hold
      return SerialLoopPartitioner(Threads).mutate(V.Fast);
    Stmt Fast = ir::cloneDeclarations(SerialLoopPartitioner(Threads).mutate(V.Fast));
    return allocatedAround(ir::makeIf(ir::conjunction(V.Conds), Fast, V.Unshared), V.Hoisted);
  }

private:
  FreeVars Threads;

  /// The `if (C) .. else ..` S is, under shared allocations, with C free of
  /// the threads (the same branch for a whole block); null if none.
  const ir::IfThenElseNode *splitUniformly(const Stmt &S) const {
    if (const auto *A = ir::as<ir::AllocateNode>(S))
      return A->Buf->MemScope == ir::Scope::Shared ? splitUniformly(A->Body) : nullptr;
    const auto *If = ir::as<ir::IfThenElseNode>(S);
    return If && If->Else && !Threads.usesAny(If->Cond) ? If : nullptr;
  }
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
