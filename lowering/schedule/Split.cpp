//===- Split.cpp - split(x, xo, xi, factor | nparts=P) ---===//
//
// Replaces loop x (min m, extent E) by an outer loop xo and an inner loop xi
// and rewrites the body with x := m + xo*F + xi. When F does not provably
// divide E (a constant remainder, or a symbolic extent) the body is guarded by
// (xo*F + xi) < E: a non-dividing split must never run an iteration the
// original loop did not. Both new loops inherit the reduction flag.
//
//===----------------------------------------------------------------------===//

#include "ir/IRMutator.h"
#include "ir/Simplify.h"
#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

namespace {

/// The two extents of a split and the stride of the outer variable.
struct SplitShape {
  Expr OuterExtent, InnerExtent; // InnerExtent is also the stride of xo
  bool NeedsGuard = true;
};

SplitShape computeSplitShape(const Expr &Extent, int64_t Count, bool IsNParts, DType T) {
  Expr Count_ = makeInt(Count, T);
  Expr CeilDiv = simplify((Extent + makeInt(Count - 1, T)) / Count_);
  SplitShape Shape;
  Shape.OuterExtent = IsNParts ? Count_ : CeilDiv;
  Shape.InnerExtent = IsNParts ? CeilDiv : Count_;
  int64_t E = 0, Outer = 0, Inner = 0;
  if (getConstInt(Extent, E) && getConstInt(Shape.OuterExtent, Outer) &&
      getConstInt(Shape.InnerExtent, Inner))
    Shape.NeedsGuard = Outer * Inner != E;
  return Shape;
}

/// Parses "16" or "nparts=4" (the directive parser already checked them;
/// directives built by hand may not have gone through it).
bool parseFactor(const std::string &Text, int64_t &Count, bool &IsNParts) {
  std::string Digits = Text;
  IsNParts = Text.compare(0, 7, "nparts=") == 0;
  if (IsNParts)
    Digits = Text.substr(7);
  if (Digits.empty() || Digits.size() > 9)
    return false;
  for (char C : Digits)
    if (C < '0' || C > '9')
      return false;
  Count = std::stoll(Digits);
  return Count > 0;
}

} // namespace

bool splitLoop(ScheduleState &S, const DirectiveArg &LoopArg, const DirectiveArg &OuterArg,
               const DirectiveArg &InnerArg, const DirectiveArg &FactorArg) {
  const ForNode *L = findLoop(S, LoopArg);
  if (!L)
    return false;
  if (!checkFreshName(S, OuterArg) || !checkFreshName(S, InnerArg))
    return false;
  if (OuterArg.Text == InnerArg.Text)
    return S.error(InnerArg.Loc, "split needs two different loop names, got '" +
                                     InnerArg.Text + "' twice");
  if (L->LoopKind != ForKind::Serial)
    return S.error(LoopArg.Loc, "cannot split '" + LoopArg.Text + "': it is already " +
                                    describeLoopKind(L));
  int64_t Count = 0;
  bool IsNParts = false;
  if (!parseFactor(FactorArg.Text, Count, IsNParts))
    return S.error(FactorArg.Loc, "split factor must be a positive integer");

  DType T = L->LoopVar->Type;
  SplitShape Shape = computeSplitShape(L->Extent, Count, IsNParts, T);
  Var Outer = makeVar(OuterArg.Text, T);
  Var Inner = makeVar(InnerArg.Text, T);
  Expr Offset = simplify(Outer * Shape.InnerExtent + Inner);
  Stmt Body = substitute(L->Body, {{L->LoopVar.get(), simplify(L->Min + Offset)}});
  if (Shape.NeedsGuard)
    Body = makeIf(simplify(Offset < L->Extent), Body);
  Stmt InnerLoop = makeFor(Inner, makeInt(0, T), Shape.InnerExtent, Body, ForKind::Serial, "",
                           L->IsReduction);
  Stmt OuterLoop = makeFor(Outer, makeInt(0, T), Shape.OuterExtent, InnerLoop, ForKind::Serial,
                           "", L->IsReduction);
  S.Nest.Body = replaceStmt(S.Nest.Body, L, OuterLoop);
  return true;
}

bool applySplit(ScheduleState &S, const Directive &D) {
  return splitLoop(S, D.Args[0], D.Args[1], D.Args[2], D.Args[3]);
}

} // namespace schedule
} // namespace sched
