//===- Reorder.cpp - reorder(l1, l2, ...) with loop distribution ---===//
//
// The named loops must lie on one path of the loop tree; they are permuted
// into the given order in the positions they occupy. The permutation is
// carried out as a sequence of adjacent interchanges (a selection sort on the
// path), each of which is one of two rewrites:
//
//  * perfect interchange: A { guards { B { X } } } -> B { A { X } }, each
//    guard placed right below the loop whose variable it reads (a guard that
//    does not read A may move above A: when it is false A runs nothing);
//    where B's bounds use A's variable (a triangular or banded nest), the
//    bounds are exchanged too, by Fourier-Motzkin elimination where A's
//    coefficient is +-1 (interchangeBounds), else over B's hull with B's
//    bounds as a guard: the same iterations run, in the new order;
//
//  * loop distribution, when a sequence lies between A and B:
//      A { allocate acc[1] local { s1; s2(contains B); s3 } }
//    -> allocate acc[ext(A)] local { A { s1' }; A { s2' }; A { s3' } }
//    every statement gets its own copy of A (and of the guards between), and
//    a local buffer allocated between A and the sequence is hoisted above the
//    copies and expanded by A's extent, indexed by A's variable: a scalar
//    accumulator becomes a per-iteration local array (DESIGN section 2).
//    It is legal only when no statement of the sequence writes a buffer that
//    another statement accesses (the expanded buffers are exempt: each
//    iteration of A owns its element).
//
// Anything else between the loops (another loop, a let, an allocation not
// followed by a sequence, an if with an else branch) is an error rather than
// a guess: a reorder must never miscompile.
//
//===----------------------------------------------------------------------===//

#include "ir/Access.h"
#include "ir/Affine.h"
#include "ir/Bounds.h"
#include "ir/Dependence.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"
#include "schedule/ScheduleImpl.h"

#include <algorithm>
#include <map>
#include <set>

namespace sched {
namespace schedule {

using namespace ir;

namespace {

/// A loop named in the reorder, followed by variable identity: copies made
/// by distribution get fresh variables, the copy on the path keeps this one.
struct NamedLoop {
  const VarNode *LoopVar;
  std::string Name;
  int Loc;
};


Stmt wrapInGuards(const std::vector<Expr> &Guards, Stmt Body) {
  for (auto It = Guards.rbegin(); It != Guards.rend(); ++It)
    Body = makeIf(*It, Body);
  return Body;
}

/// The bounds of an interchange A { B } -> B { A } where B's bounds use A's
/// variable (a triangular or banded nest): the same (a, b) pairs in the
/// other order. B runs over the hull of its ranges over A's range; A, for
/// each b, over what Fourier-Motzkin elimination gives: A's own bounds and
/// each bound of B (each arm of a max lower bound, of a min upper bound)
/// with A's coefficient +-1, solved for a (`j <= i` becomes `i >= j`), so
/// `for i in [0, n) for j in [0, i]` becomes `for j in [0, n) for i in [j,
/// n)`. A bound of another form keeps A's own range with B's bounds as a
/// guard around A's body, which runs the same pairs too. False (Why says
/// why) when B's range has no hull over A's.
struct InterchangedBounds {
  Expr BMin, BExtent, AMin, AExtent;
  std::vector<Expr> Guards; // around A's body, below A
};

bool interchangeBounds(const ForNode *A, const ForNode *B, InterchangedBounds &Out,
                       std::string &Why) {
  const VarNode *AV = A->LoopVar.get();
  Expr One = makeInt(1, A->Extent->Type);
  Expr ALast = simplify(A->Min + A->Extent - One);
  Expr BLast = simplify(B->Min + B->Extent - makeInt(1, B->Extent->Type));
  VarRanges OverA{{AV, {A->Min, ALast}}};
  Expr Lo = boundsOf(B->Min, OverA).Min, Hi = boundsOf(BLast, OverA).Max;
  if (!Lo || !Hi || usesVar(Lo, AV) || usesVar(Hi, AV)) {
    Why = "no range of it over the range of '" + A->LoopVar->Name + "' is known";
    return false;
  }
  Out.BMin = simplify(Lo);
  Out.BExtent = simplify(Hi - Lo + makeInt(1, Hi->Type));
  Expr BV = B->LoopVar;
  VarRanges OverB{{B->LoopVar.get(), {Out.BMin, simplify(Hi)}}};

  std::vector<Expr> Lower{A->Min}, Upper{ALast}, Guards;
  // Each bound of B: Arm <= b (IsLower) or b <= Arm.
  auto Solve = [&](const Expr &Arm, bool IsLower) {
    AffineForm F;
    if (mayWrap(Arm) || !toAffine(Arm, [&](const VarNode *V) { return V == AV; }, F))
      return false;
    int64_t C = 0;
    auto It = F.Coefs.find(AV);
    if (It != F.Coefs.end() && (!getConstInt(It->second, C) || (C != 1 && C != -1)))
      return false;
    const Expr &R = F.Constant;
    if (C == 0) { // a bound on b alone: a guard, unless b's hull implies it
      if (!(IsLower ? provablyLessEq(R, Out.BMin, {}) : provablyLessEq(Hi, R, {})))
        Guards.push_back(IsLower ? makeBinary(BinOp::LE, R, BV) : makeBinary(BinOp::LE, BV, R));
      return true;
    }
    // a + r <= b: a <= b - r; -a + r <= b: a >= r - b; and the reverse.
    bool BoundsAFromAbove = IsLower == (C == 1);
    Expr Solved = C == 1 ? simplify(BV - R) : simplify(R - BV);
    (BoundsAFromAbove ? Upper : Lower).push_back(Solved);
    return true;
  };
  bool Exact = true;
  for (const Expr &Arm : minMaxArms(B->Min, BinOp::Max))
    Exact = Exact && Solve(Arm, true);
  for (const Expr &Arm : minMaxArms(BLast, BinOp::Min))
    Exact = Exact && Solve(Arm, false);
  if (!Exact) {
    Out.AMin = A->Min;
    Out.AExtent = A->Extent;
    // (The side B's hull already implies needs no test.)
    if (!provablyLessEq(B->Min, Out.BMin, OverA))
      Out.Guards.push_back(makeBinary(BinOp::LE, B->Min, BV));
    if (!provablyLessEq(Hi, BLast, OverA))
      Out.Guards.push_back(makeBinary(BinOp::LE, BV, BLast));
    return true;
  }
  auto Fold = [](const std::vector<Expr> &Xs, BinOp Op) {
    Expr Acc = Xs.front();
    for (size_t I = 1; I < Xs.size(); ++I)
      Acc = makeBinary(Op, Acc, Xs[I]);
    return Acc;
  };
  Expr AFirst = simplify(Fold(Lower, BinOp::Max), &OverB);
  Expr ANewLast = simplify(Fold(Upper, BinOp::Min), &OverB);
  Out.AMin = AFirst->Type == A->Min->Type ? AFirst : simplify(makeCast(A->Min->Type, AFirst));
  Out.AExtent = simplify(makeCast(A->Extent->Type, ANewLast - AFirst + One), &OverB);
  Out.Guards = Guards;
  return true;
}

class Reorderer {
public:
  /// BandChecked: the caller proved the whole permutation legal, so the
  /// adjacent interchanges on the way need no check of their own.
  Reorderer(ScheduleState &S, bool BandChecked) : S(S), BandChecked(BandChecked) {}

  /// Moves Inner (directly below Outer among the named loops) above Outer.
  bool interchange(const NamedLoop &Outer, const NamedLoop &Inner) {
    // Each distribution removes one sequence from the path between the two
    // loops, so this terminates; the bound only guards against a bug.
    for (unsigned Step = 0; Step < 1000; ++Step) {
      const ForNode *A = findLoopByVar(S.Nest.Body, Outer.LoopVar);
      if (!A)
        return S.error(Outer.Loc, "internal error: lost loop '" + Outer.Name + "' in reorder");
      std::vector<Stmt> Chain;
      Stmt Cur = A->Body;
      bool Distributed = false;
      for (;;) {
        if (const auto *F = as<ForNode>(Cur)) {
          if (F->LoopVar.get() == Inner.LoopVar)
            return swapPerfect(A, F, Chain, Outer, Inner);
          return fail(Outer, Inner,
                      "loop '" + F->LoopVar->Name + "' lies between them; name it in the "
                                                    "reorder too");
        }
        if (const auto *I = as<IfThenElseNode>(Cur)) {
          if (I->Else)
            return fail(Outer, Inner, "an if with an else branch lies between them");
          Chain.push_back(Cur);
          Cur = I->Then;
          continue;
        }
        if (const auto *Al = as<AllocateNode>(Cur)) {
          Chain.push_back(Cur);
          Cur = Al->Body;
          continue;
        }
        if (const auto *Sq = as<SeqNode>(Cur)) {
          if (!distribute(A, Chain, Sq, Outer, Inner))
            return false;
          Distributed = true;
          break;
        }
        return fail(Outer, Inner, "'" + Inner.Name + "' is not perfectly nested in '" +
                                      Outer.Name + "' (a let binding lies between them)");
      }
      if (!Distributed)
        break;
    }
    return S.error(Inner.Loc, "internal error: reorder did not converge");
  }

private:
  bool fail(const NamedLoop &Outer, const NamedLoop &Inner, const std::string &Why) {
    return S.error(Inner.Loc,
                   "cannot reorder '" + Inner.Name + "' outside '" + Outer.Name + "': " + Why);
  }

  /// A { guards { B { X } } } -> B { guards(not A) { A { guards(A) { X } } } }.
  bool swapPerfect(const ForNode *A, const ForNode *B, const std::vector<Stmt> &Chain,
                   const NamedLoop &Outer, const NamedLoop &Inner) {
    std::vector<Expr> GuardsOnA, OtherGuards;
    for (const Stmt &C : Chain) {
      if (const auto *Al = as<AllocateNode>(C))
        return fail(Outer, Inner, "the allocation of '" + Al->Buf->Name + "' lies between them");
      const auto *I = as<IfThenElseNode>(C);
      (usesVar(I->Cond, A->LoopVar.get()) ? GuardsOnA : OtherGuards).push_back(I->Cond);
    }
    InterchangedBounds Bounds{B->Min, B->Extent, A->Min, A->Extent, {}};
    std::string NoHull;
    if ((usesVar(B->Min, A->LoopVar.get()) || usesVar(B->Extent, A->LoopVar.get())) &&
        !interchangeBounds(A, B, Bounds, NoHull))
      return fail(Outer, Inner, "the bounds of '" + Inner.Name + "' depend on '" + Outer.Name +
                                    "', and " + NoHull);
    GuardsOnA.insert(GuardsOnA.end(), Bounds.Guards.begin(), Bounds.Guards.end());
    Stmt NewA = withBounds(A, Bounds.AMin, Bounds.AExtent, wrapInGuards(GuardsOnA, B->Body));
    Stmt NewB = withBounds(B, Bounds.BMin, Bounds.BExtent, wrapInGuards(OtherGuards, NewA));
    // One adjacent interchange keeps every dependence's direction unless
    // some dependence runs forward in A and backward in B. (A whole perfect
    // band is checked once, before its interchanges, in reorderLoops.)
    DependenceWitness Why;
    Stmt View = withoutStages(S);
    const ForNode *SeenA = findLoopByVar(View, A->LoopVar.get());
    const ForNode *SeenB = findLoopByVar(View, B->LoopVar.get());
    bool InView = SeenA && SeenB;
    if (!BandChecked &&
        !bandPermutationIsLegal(InView ? std::vector<const ForNode *>{SeenA, SeenB}
                                       : std::vector<const ForNode *>{A, B},
                                {1, 0}, &Why, InView ? View : S.Nest.Body))
      return fail(Outer, Inner, "iterations of '" + Outer.Name + "' depend on each other (" +
                                    Why.describe("dependence") + ")");
    S.Nest.Body = replaceStmt(S.Nest.Body, A, NewB);
    return true;
  }

  /// Index of the statement of Seq that contains the loop Inner.
  static int pathIndex(const SeqNode *Seq, const NamedLoop &Inner) {
    for (size_t I = 0; I < Seq->Stmts.size(); ++I)
      if (findLoopByVar(Seq->Stmts[I], Inner.LoopVar))
        return static_cast<int>(I);
    return -1;
  }

  bool distribute(const ForNode *A, const std::vector<Stmt> &Chain, const SeqNode *Seq,
                  const NamedLoop &Outer, const NamedLoop &Inner) {
    if (A->LoopKind != ForKind::Serial)
      return fail(Outer, Inner, "distributing '" + Outer.Name + "' over the statements between "
                                "them needs a serial loop, but it is " + describeLoopKind(A));
    int PathIdx = pathIndex(Seq, Inner);
    if (PathIdx < 0)
      return S.error(Inner.Loc, "internal error: lost loop '" + Inner.Name + "' in reorder");

    std::vector<Expr> Guards;
    std::vector<const AllocateNode *> Allocs;
    std::set<const BufferNode *> Exempt;
    for (const Stmt &C : Chain) {
      if (const auto *I = as<IfThenElseNode>(C)) {
        if (dependsOnMemory(I->Cond))
          return fail(Outer, Inner, "a condition that reads memory lies between them");
        Guards.push_back(I->Cond);
        continue;
      }
      const auto *Al = as<AllocateNode>(C);
      if (Al->Buf->MemScope != Scope::Local)
        return fail(Outer, Inner, "'" + Al->Buf->Name + "' (" + scopeName(Al->Buf->MemScope) +
                                      ") is allocated between them; only local buffers can be "
                                      "expanded");
      Allocs.push_back(Al);
      Exempt.insert(Al->Buf.get());
    }
    DependenceWitness Why;
    if (!distributionIsLegal(A, Seq, Exempt, &Why, S.Nest.Body))
      return fail(Outer, Inner, "distributing '" + Outer.Name +
                                    "' over the statements between them would reverse a " +
                                    Why.describe("dependence"));

    BufferExpansions Expansions;
    if (!Allocs.empty() && !planExpansions(A, Allocs, Seq, Outer, Inner, Expansions))
      return false;
    Expr Lead = simplify(Expr(A->LoopVar) - A->Min);

    std::vector<Stmt> Copies;
    ScheduleState::Distributed Record{A->LoopVar, {}};
    for (size_t I = 0; I < Seq->Stmts.size(); ++I) {
      Stmt Body = wrapInGuards(Guards, expandAccesses(Seq->Stmts[I], Expansions, Lead));
      Var V = A->LoopVar;
      if (static_cast<int>(I) != PathIdx) {
        // Every loop keeps its own variable (analyses identify loops by it)
        // and its own name (later directives and the printer name it).
        V = makeVar(freshCopyName(A->LoopVar->Name), A->LoopVar->Type);
        Body = substitute(Body, {{A->LoopVar.get(), Expr(V)}});
        Record.Copies.push_back(V);
      }
      Copies.push_back(withVar(A, V, A->Min, A->Extent, Body));
    }
    Stmt Result = makeSeq(Copies);
    for (auto It = Allocs.rbegin(); It != Allocs.rend(); ++It)
      Result = makeAllocate(Expansions.at((*It)->Buf.get()).Wide, Result);
    S.Nest.Body = replaceStmt(S.Nest.Body, A, Result); // A may be gone now
    // A copy of a copy is a copy of the original loop.
    for (ScheduleState::Distributed &D : S.DistributedCopies)
      if (std::find(D.Copies.begin(), D.Copies.end(), Record.Loop) != D.Copies.end())
        D.Copies.insert(D.Copies.end(), Record.Copies.begin(), Record.Copies.end());
    S.DistributedCopies.push_back(Record);
    return true;
  }

  /// Name_1, Name_2, ...: the first that no loop, parameter or buffer has.
  std::string freshCopyName(const std::string &Name) {
    for (unsigned K = 1;; ++K) {
      std::string Candidate = Name + "_" + std::to_string(K);
      // Copies made by this distribution are not in the nest yet.
      if (isFreshName(S, Candidate) && NamesGiven.insert(Candidate).second)
        return Candidate;
    }
  }

  /// The expanded form of each hoisted buffer: A's extent in front.
  bool planExpansions(const ForNode *A, const std::vector<const AllocateNode *> &Allocs,
                      const SeqNode *Seq, const NamedLoop &Outer, const NamedLoop &Inner,
                      BufferExpansions &Out) {
    int64_t Extent = 0;
    if (!getConstInt(A->Extent, Extent) || Extent <= 0)
      return fail(Outer, Inner, "expanding local '" + Allocs.front()->Buf->Name + "' by '" +
                                    Outer.Name + "' needs a constant extent");
    // Expansion (ir/Rewrite.h) rewrites element indices; an intrinsic that
    // takes the buffer as an operand (a tile of it) would keep the old shape.
    for (const Stmt &St : Seq->Stmts)
      for (const Access &Acc : collectAccesses(St))
        for (const AllocateNode *Al : Allocs)
          if (Acc.Buf.get() == Al->Buf.get() && Acc.Statement &&
              Acc.Statement->Kind == StmtKind::Evaluate)
            return fail(Outer, Inner, "local '" + Al->Buf->Name +
                                          "' is an operand of an intrinsic and cannot be "
                                          "expanded");
    for (const AllocateNode *Al : Allocs)
      Out[Al->Buf.get()] = expandBuffer(Al->Buf, Extent, /*DropUnitShape=*/true);
    return true;
  }

  ScheduleState &S;
  bool BandChecked;
  std::set<std::string> NamesGiven;
};

/// Checks that the loops lie on one path; returns them outermost first.
bool loopsOnOnePath(ScheduleState &S, const std::vector<DirectiveArg> &Order,
                    std::vector<NamedLoop> &PathOrder) {
  std::vector<std::pair<std::vector<const StmtNode *>, NamedLoop>> Found;
  std::set<std::string> Seen;
  for (const DirectiveArg &Arg : Order) {
    if (!Seen.insert(Arg.Text).second)
      return S.error(Arg.Loc, "loop '" + Arg.Text + "' appears twice in reorder");
    const ForNode *L = findLoop(S, Arg);
    if (!L)
      return false;
    std::vector<const StmtNode *> Enclosing;
    enclosingStmts(S.Nest.Body, L, Enclosing);
    Enclosing.push_back(L);
    Found.push_back({Enclosing, NamedLoop{L->LoopVar.get(), Arg.Text, Arg.Loc}});
  }
  std::sort(Found.begin(), Found.end(),
            [](const auto &X, const auto &Y) {
              // Depth first; equal depths (an error below) in directive order.
              if (X.first.size() != Y.first.size())
                return X.first.size() < Y.first.size();
              return X.second.Loc < Y.second.Loc;
            });
  for (size_t I = 1; I < Found.size(); ++I) {
    const StmtNode *Prev = Found[I - 1].first.back();
    const auto &Path = Found[I].first;
    if (std::find(Path.begin(), Path.end(), Prev) == Path.end())
      return S.error(Found[I].second.Loc, "cannot reorder '" + Found[I].second.Name + "' and '" +
                                              Found[I - 1].second.Name +
                                              "': neither is nested inside the other");
  }
  for (const auto &F : Found)
    PathOrder.push_back(F.second);
  return true;
}

/// Every loop on the path from the outermost named loop down to the
/// innermost one, named or not, outermost first. Unnamed loops keep their
/// positions; their errors point at the first directive argument.
std::vector<NamedLoop> loopsOnPath(ScheduleState &S, const std::vector<NamedLoop> &Named,
                                   int Loc) {
  const ForNode *Innermost = findLoopByVar(S.Nest.Body, Named.back().LoopVar);
  std::vector<const StmtNode *> Enclosing;
  enclosingStmts(S.Nest.Body, Innermost, Enclosing);
  Enclosing.push_back(Innermost);
  std::vector<NamedLoop> Path;
  for (const StmtNode *N : Enclosing) {
    if (N->Kind != StmtKind::For)
      continue;
    const auto *L = static_cast<const ForNode *>(N);
    if (Path.empty() && L->LoopVar.get() != Named.front().LoopVar)
      continue;
    NamedLoop Entry{L->LoopVar.get(), L->LoopVar->Name, Loc};
    for (const NamedLoop &X : Named)
      if (X.LoopVar == Entry.LoopVar)
        Entry = X;
    Path.push_back(Entry);
  }
  return Path;
}

/// Whether only ifs without else lie between consecutive loops of Path.
bool isPerfectBand(ScheduleState &S, const std::vector<NamedLoop> &Path,
                   std::vector<const ForNode *> &Loops) {
  for (const NamedLoop &N : Path)
    Loops.push_back(findLoopByVar(S.Nest.Body, N.LoopVar));
  for (size_t I = 0; I + 1 < Loops.size(); ++I) {
    Stmt Cur = Loops[I]->Body;
    while (const auto *If = as<IfThenElseNode>(Cur)) {
      if (If->Else)
        return false;
      Cur = If->Then;
    }
    if (Cur.get() != Loops[I + 1])
      return false;
  }
  return true;
}

} // namespace

bool reorderLoops(ScheduleState &S, const std::vector<DirectiveArg> &Order) {
  if (Order.size() < 2)
    return S.error(Order.empty() ? -1 : Order[0].Loc, "reorder needs at least two loops");
  std::vector<NamedLoop> Named;
  if (!loopsOnOnePath(S, Order, Named))
    return false;
  // The named loops take the positions they occupy, in the given order;
  // loops between them that are not named stay where they are.
  std::vector<NamedLoop> Current = loopsOnPath(S, Named, Order.front().Loc);
  std::vector<std::string> Target;
  size_t Next = 0;
  for (const NamedLoop &L : Current) {
    bool IsNamed = std::any_of(Named.begin(), Named.end(),
                               [&](const NamedLoop &X) { return X.LoopVar == L.LoopVar; });
    Target.push_back(IsNamed ? Order[Next++].Text : L.Name);
  }
  // A perfect band is permuted in one step, so its legality is that of the
  // whole permutation (the interchanges on the way may pass through orders
  // that would be illegal on their own).
  std::vector<const ForNode *> Band;
  bool Perfect = isPerfectBand(S, Current, Band);
  if (Perfect) {
    std::vector<size_t> NewOrder;
    for (const std::string &Name : Target)
      for (size_t I = 0; I < Current.size(); ++I)
        if (Current[I].Name == Name)
          NewOrder.push_back(I);
    // Checked on the computation (withoutStages): a write-back inside the
    // band, its region still symbolic, would look like one element written
    // by every iteration.
    Stmt View = withoutStages(S);
    std::vector<const ForNode *> Seen;
    for (const ForNode *L : Band)
      Seen.push_back(findLoopByVar(View, L->LoopVar.get()));
    bool InView = std::find(Seen.begin(), Seen.end(), nullptr) == Seen.end();
    DependenceWitness Why;
    if (!bandPermutationIsLegal(InView ? Seen : Band, NewOrder, &Why,
                                InView ? View : S.Nest.Body)) {
      const NamedLoop &First = *std::find_if(Current.begin(), Current.end(), [&](const NamedLoop &L) {
        return L.Name == Target.front();
      });
      return S.error(First.Loc, "cannot reorder '" + Target.front() +
                                    "' there: the new order would reverse a " +
                                    Why.describe("dependence"));
    }
  }
  Reorderer R(S, Perfect);
  // Selection sort by adjacent interchanges: position T receives Target[T],
  // bubbled outward past the loops that must end up inside it.
  for (size_t T = 0; T < Target.size(); ++T) {
    size_t Pos = T;
    while (Current[Pos].Name != Target[T])
      ++Pos;
    for (; Pos > T; --Pos) {
      if (!R.interchange(Current[Pos - 1], Current[Pos]))
        return false;
      std::swap(Current[Pos - 1], Current[Pos]);
    }
  }
  return true;
}

bool applyReorder(ScheduleState &S, const Directive &D) { return reorderLoops(S, D.Args); }

} // namespace schedule
} // namespace sched
