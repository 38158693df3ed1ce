//===- ComputeAt.cpp - compute_at(Name, loop) ---===//
//
// Moves a cache stage into loop `loop`: a read stage to the start of its
// body, a write-back to the end. The stage shrinks to the region the
// consumers inside the loop touch (ir/Bounds.h regionTouched), with every
// loop inside `loop` relaxed, and, above it, the loops bound (now or by a
// later bind of the schedule) to threadIdx.*, vthread or cthread relaxed for
// a shared stage (it serves every thread of the block) and nothing relaxed
// for a local stage (one thread). Stage loop extents must be constants: a
// symbolic region size takes a constant upper bound. Accesses of the cached
// tensor are guarded where the region can leave it; consumers index the
// stage by (index - region min).
//
//===----------------------------------------------------------------------===//

#include "ir/Simplify.h"
#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

namespace {

bool isRelaxedAbove(const ScheduleState &S, const ForNode *L, Scope Sc) {
  if (Sc != Scope::Shared)
    return false;
  if (L->LoopKind == ForKind::ThreadBound &&
      (isThreadIdxTag(L->ThreadTag) || isVirtualThreadTag(L->ThreadTag)))
    return true;
  return S.ThreadBoundLoops.count(L->LoopVar->Name) != 0;
}

Interval loopRange(const ForNode *L) {
  return {L->Min, simplify(L->Min + L->Extent - makeInt(1))};
}

/// A constant upper bound of Extent when loop variables range over Ranges.
bool constantExtent(const Expr &Extent, const VarRanges &Ranges, int64_t &Out) {
  if (getConstInt(simplify(Extent), Out))
    return true;
  Interval I = boundsOf(Extent, Ranges);
  return I.Max && getConstInt(simplify(I.Max), Out);
}

/// True when Cond (a comparison) provably holds for all values in Ranges.
bool provablyTrue(const Expr &Lhs, BinOp Op, const Expr &Rhs, const VarRanges &Ranges) {
  Interval I = boundsOf(simplify(Lhs - Rhs), Ranges);
  int64_t V;
  if (Op == BinOp::LT)
    return I.Max && getConstInt(simplify(I.Max), V) && V < 0;
  return I.Min && getConstInt(simplify(I.Min), V) && V >= 0; // GE
}

} // namespace

bool applyComputeAt(ScheduleState &S, const Directive &D) {
  const DirectiveArg &StageArg = D.Args[0], &LoopArg = D.Args[1];
  auto It = S.Stages.find(StageArg.Text);
  if (It == S.Stages.end())
    return S.error(StageArg.Loc, "no cache stage named '" + StageArg.Text +
                                     "' (make one with cache_read or cache_write)");
  StageInfo &Info = It->second;
  if (Info.ComputedAt)
    return S.error(StageArg.Loc, "stage '" + StageArg.Text + "' is already computed at a loop");
  const AllocateNode *Alloc = findAllocate(S.Nest.Body, Info.Stage.get());
  const SeqNode *Seq = Alloc ? as<SeqNode>(Alloc->Body) : nullptr;
  if (!Seq || Seq->Stmts.size() < 2)
    return S.error(StageArg.Loc, "stage '" + StageArg.Text + "' no longer has its root form");

  // compute_at rebuilds the stage loops; refuse to drop a split or fuse of
  // them silently.
  const ForNode *First = as<ForNode>(Info.IsWrite ? Seq->Stmts.back() : Seq->Stmts.front());
  if (!First || First->LoopVar->Name != StageArg.Text + ".ax0")
    return S.error(StageArg.Loc, "compute_at of '" + StageArg.Text +
                                     "' must come before any split, fuse or reorder of its loops");

  // Take the stage out; what remains are its consumers (or producers).
  std::vector<Stmt> Rest(Seq->Stmts.begin() + (Info.IsWrite ? 0 : 1),
                         Seq->Stmts.end() - (Info.IsWrite ? 1 : 0));
  Stmt Body = replaceStmt(S.Nest.Body, Alloc, makeSeq(Rest));
  S.Nest.Body = Body;
  const ForNode *Loop = findLoop(S, LoopArg);
  if (!Loop)
    return false;
  Region Probe;
  Stmt Outside = replaceStmt(Body, Loop, makeEvaluate(makeInt(0)));
  if (regionTouched(Outside, Info.Stage, true, {}, Probe) ||
      regionTouched(Outside, Info.Stage, false, {}, Probe))
    return S.error(LoopArg.Loc, "cannot compute '" + StageArg.Text + "' at '" + LoopArg.Text +
                                    "': it does not enclose every use of the stage");

  std::vector<const StmtNode *> Path;
  enclosingStmts(Body, Loop, Path);
  VarRanges Relaxed, All;
  for (const StmtNode *N : Path)
    if (const ForNode *L = N->Kind == StmtKind::For ? static_cast<const ForNode *>(N) : nullptr) {
      All[L->LoopVar.get()] = loopRange(L);
      if (isRelaxedAbove(S, L, Info.Stage->MemScope))
        Relaxed[L->LoopVar.get()] = loopRange(L);
    }
  All[Loop->LoopVar.get()] = loopRange(Loop);
  // A shared stage at a thread loop serves every thread of that loop too.
  if (isRelaxedAbove(S, Loop, Info.Stage->MemScope))
    Relaxed[Loop->LoopVar.get()] = loopRange(Loop);

  Region Reg, Other;
  if (!regionTouched(Loop->Body, Info.Stage, /*Reads=*/!Info.IsWrite, Relaxed, Reg))
    return S.error(LoopArg.Loc, "'" + LoopArg.Text + "' does not use stage '" + StageArg.Text + "'");
  if (Info.IsWrite && regionTouched(Loop->Body, Info.Stage, true, Relaxed, Other))
    for (size_t Dm = 0; Dm < Reg.size() && Dm < Other.size(); ++Dm)
      if (Reg[Dm].isBounded() && Other[Dm].isBounded())
        Reg[Dm] = {simplify(makeBinary(BinOp::Min, Reg[Dm].Min, Other[Dm].Min)),
                   simplify(makeBinary(BinOp::Max, Reg[Dm].Max, Other[Dm].Max))};

  std::vector<Expr> Mins, Extents;
  std::vector<bool> GuardHigh, GuardLow;
  for (size_t Dm = 0; Dm < Reg.size(); ++Dm) {
    if (!Reg[Dm].isBounded())
      return S.error(LoopArg.Loc, "cannot bound dimension " + std::to_string(Dm) + " of '" +
                                      StageArg.Text + "' at '" + LoopArg.Text + "'");
    int64_t Ext;
    if (!constantExtent(Reg[Dm].Max - Reg[Dm].Min + makeInt(1), All, Ext))
      return S.error(LoopArg.Loc, "the region of '" + StageArg.Text + "' at '" + LoopArg.Text +
                                      "' has no constant size in dimension " +
                                      std::to_string(Dm));
    Mins.push_back(Reg[Dm].Min);
    Extents.push_back(makeInt(Ext));
    // Guard where the region, padded to the constant extent, can leave the
    // tensor.
    VarRanges WithAx = All;
    Var Ax = makeVar("ax");
    WithAx[Ax.get()] = {makeInt(0), makeInt(Ext - 1)};
    Expr Idx = simplify(Reg[Dm].Min + Expr(Ax));
    GuardHigh.push_back(!provablyTrue(Idx, BinOp::LT, Info.Cached->Shape[Dm], WithAx));
    GuardLow.push_back(!provablyTrue(Idx, BinOp::GE, makeInt(0), WithAx));
  }

  Buffer Shrunk = makeBuffer(Info.Stage->Name, Info.Stage->Type, Extents, Info.Stage->MemScope);
  Stmt Inner = replaceBuffer(Loop->Body, Info.Stage.get(), Shrunk, Mins);
  Info.Stage = Shrunk;
  Stmt Copy = makeStageLoops(Info, StageArg.Text, Mins, Extents, GuardHigh, GuardLow);
  Stmt NewBody = makeAllocate(Shrunk, Info.IsWrite ? makeSeq({Inner, Copy}) : makeSeq({Copy, Inner}));
  Stmt NewLoop = makeFor(Loop->LoopVar, Loop->Min, Loop->Extent, NewBody, Loop->LoopKind,
                         Loop->ThreadTag, Loop->IsReduction);
  S.Nest.Body = replaceStmt(Body, Loop, NewLoop);
  Info.ComputedAt = true;
  Info.AttachLoop = LoopArg.Text;
  return true;
}

} // namespace schedule
} // namespace sched
