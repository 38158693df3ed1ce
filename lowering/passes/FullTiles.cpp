//===- FullTiles.cpp - The code of a block whose tile is full -------------===//
//
// See FullTiles.h.
//
//===----------------------------------------------------------------------===//
#include "passes/FullTiles.h"
#include "ir/Prove.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"

namespace sched {
namespace passes {
namespace fulltiles {

bool isConstant(const Expr &E) {
  int64_t Value;
  return ir::getConstInt(E, Value);
}

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

bool versionFullTiles(const Stmt &Body, const FreeVars &Threads, bool OverRunTimeLoops,
                      FullTileVersion &Out) {
  Out = FullTileVersion();
  FreeVars Free = Threads;
  BindingCollector(Free).visit(Body);
  GuardCollector Guards(Free);
  Guards.visit(Body);
  std::vector<Expr> Conds;
  for (const auto &Group : byConjunct(Guards.Uses)) {
    const Expr &C = Group[0]->Conjunct;
    if (!Free.usesAny(C) || (!OverRunTimeLoops && !Free.allConstant(C)))
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
    Out.Drop.push_back(C);
  }
  if (Out.Drop.empty())
    return false;
  Out.Conds = withoutImplied(Conds);
  if (Out.Conds.empty()) { // guards that always hold
    Out.Fast = ir::simplify(GuardDropper(Out.Drop).mutate(Body));
    Out.Unshared = Body;
    return true;
  }
  SharedHoister Hoister;
  Out.Unshared = Hoister.mutate(Body);
  if (!constantShapes(Hoister.Hoisted))
    return false;
  Out.Hoisted = Hoister.Hoisted;
  Out.Fast = ir::simplify(GuardDropper(Out.Drop).mutate(Out.Unshared));
  return true;
}

} // namespace fulltiles
} // namespace passes
} // namespace sched
