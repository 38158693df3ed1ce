//===- Bind.cpp - bind(x, blockIdx.x | threadIdx.y | vthread | cthread) ---===//
//
// Binding makes a loop's iterations run on different blocks or threads, so
// the loop must not carry a dependence (ir/Dependence.h): a loop the
// dependence analysis cannot prove parallel is refused. That holds for
// virtual threads too, whose copies InjectVirtualThread interleaves. The
// exception is a reduction loop bound to threadIdx (a cross-thread reduction,
// TVM's meaning: the block combines the threads' partial results) or to
// blockIdx (each block adds its partial with an atomic update: for a
// floating-point sum only into arrays atomic(C) named, since its rounding
// then varies from run to run), both lowered by passes/gpu/LowerThreadReductions.cpp and
// legal when ir/Reduction.h says what the loop reduces into; bound to a
// virtual thread, a reduction is refused. A hardware tag names one launch
// dimension, so it appears at most once on a nesting path (except a threadIdx loop nested in one of its
// tag that does not depend on it: the same threads, see
// DistributeOverThreads), and block loops must enclose thread loops. A loop
// that reorder distributed over several statements is bound in every copy.
//
//===----------------------------------------------------------------------===//

#include "ir/Access.h"
#include "ir/Dependence.h"
#include "ir/IRVisitor.h"
#include "ir/Intrinsics.h"
#include "ir/Printer.h"
#include "ir/Reduction.h"
#include "ir/Rewrite.h"
#include "schedule/ScheduleImpl.h"

#include <algorithm>

namespace sched {
namespace schedule {

using namespace ir;

namespace {

/// The buffer a reduction loop accumulates into: one written by a store that
/// reads the element it writes, at an index that does not move with the loop
/// (acc[0] = acc[0] + ..., y[k] = y[k] + ... inside i); else one that reads
/// it at all; else the first one written. (`t[i] = 2*t[i]` under loop i
/// updates a new element each iteration: no reduction of i.)
std::string reductionTarget(const ForNode *L) {
  std::vector<Access> Accesses = collectAccesses(L->Body);
  const VarNode *V = L->LoopVar.get();
  auto MovesWithLoop = [&](const Access &A) {
    for (const Expr &I : A.Indices)
      if (usesVar(I, V))
        return true;
    return false;
  };
  std::string FirstWritten, ReadBack;
  for (const Access &W : Accesses) {
    if (!W.IsWrite)
      continue;
    if (FirstWritten.empty())
      FirstWritten = W.Buf->Name;
    for (const Access &R : Accesses) {
      if (R.IsWrite || R.Buf.get() != W.Buf.get() || R.Statement != W.Statement)
        continue;
      if (!MovesWithLoop(W))
        return W.Buf->Name;
      if (ReadBack.empty())
        ReadBack = W.Buf->Name;
    }
  }
  if (!ReadBack.empty())
    return ReadBack;
  return FirstWritten.empty() ? "its result" : FirstWritten;
}

bool isHardwareTag(const std::string &Tag) { return isBlockTag(Tag) || isThreadIdxTag(Tag); }

/// Whether Inner, bound to Outer's threadIdx tag inside it, reuses the same
/// threads: it must not depend on Outer's variable.
bool sameThreadsNested(const std::string &Tag, const ForNode *Outer, const ForNode *Inner) {
  const VarNode *V = Outer->LoopVar.get();
  return isThreadIdxTag(Tag) && !loopUsesVar(Inner, V);
}

/// Tag uniqueness on the path and block-outside-thread nesting.
bool checkNesting(ScheduleState &S, const ForNode *L, const DirectiveArg &LoopArg,
                  const std::string &Tag) {
  const std::string &Name = LoopArg.Text;
  std::vector<const StmtNode *> Enclosing;
  enclosingStmts(S.Nest.Body, L, Enclosing);
  for (const StmtNode *N : Enclosing) {
    if (N->Kind != StmtKind::For)
      continue;
    const auto *Outer = static_cast<const ForNode *>(N);
    if (Outer->LoopKind != ForKind::ThreadBound)
      continue;
    const std::string &OuterName = Outer->LoopVar->Name;
    // The same threadIdx tag inside its own loop means the same hardware
    // threads (a fused stage spread over the compute's threads): legal when
    // the inner loop does not depend on the outer one.
    if (Outer->ThreadTag == Tag && !sameThreadsNested(Tag, Outer, L))
      return S.error(LoopArg.Loc, Tag + " is already bound to '" + OuterName +
                                      "', which encloses '" + Name + "'");
    if (isBlockTag(Tag) && isThreadIdxTag(Outer->ThreadTag))
      return S.error(LoopArg.Loc, "cannot bind '" + Name + "' to " + Tag + ": it is inside '" +
                                      OuterName + "', bound to " + Outer->ThreadTag +
                                      "; block loops must enclose thread loops");
  }
  for (const ForNode *Inner : collectLoops(L->Body)) {
    if (Inner->LoopKind != ForKind::ThreadBound)
      continue;
    const std::string &InnerName = Inner->LoopVar->Name;
    if (Inner->ThreadTag == Tag && !sameThreadsNested(Tag, L, Inner))
      return S.error(LoopArg.Loc, Tag + " is already bound to '" + InnerName +
                                      "', which is nested inside '" + Name + "'");
    if (isThreadIdxTag(Tag) && isBlockTag(Inner->ThreadTag))
      return S.error(LoopArg.Loc, "cannot bind '" + Name + "' to " + Tag + ": it encloses '" +
                                      InnerName + "', bound to " + Inner->ThreadTag +
                                      "; block loops must enclose thread loops");
  }
  return true;
}

/// A reduction loop bound to blockIdx: each block reduces its iterations,
/// then adds its partial into the element (passes/gpu/LowerThreadReductions
/// .cpp): with an atomic update, or, for a floating-point sum without
/// atomic(C), in block order by the last block. Legal for elements of
/// global arrays with an operation the GPU has atomically.
bool checkAcrossBlocks(ScheduleState &S, const ForNode *L, const DirectiveArg &LoopArg,
                       const std::string &Tag) {
  const std::string &Name = L->LoopVar->Name;
  const std::string Refused = "cannot bind reduction loop '" + Name + "' to " + Tag +
                              " as a reduction across blocks into '" + reductionTarget(L) + "': ";
  std::vector<ReductionUpdate> Updates;
  std::string Why;
  if (!reductionUpdatesOf(L, Updates, &Why))
    return S.error(LoopArg.Loc, Refused + Why);
  for (const ReductionUpdate &U : Updates) {
    const std::string &Buf = U.Buf->Name;
    if (findParameterBuffer(S, Buf) != U.Buf || U.Buf->MemScope != Scope::Global)
      return S.error(LoopArg.Loc, Refused + "'" + Buf +
                                      "' is a temporary of the nest, and blocks share only the "
                                      "global arrays the nest is given");
    if (!hasAtomicUpdate(U.Combine, U.Buf->Type))
      return S.error(LoopArg.Loc, Refused + "the GPU has no atomic " +
                                      binOpSymbol(U.Combine) + " on " + dtypeName(U.Buf->Type));
    // Blocks combine their partials with atomic updates, in the order they
    // finish: exact for integers and min/max. A floating-point sum would
    // then round differently from run to run: atomic(C) accepts that, else
    // the blocks combine in block order (the last block of each group adds
    // the partials up), the same bits on every run.
    if (atomicUpdateIsExact(U.Combine, U.Buf->Type))
      continue;
    if (S.Nest.AtomicUpdates.count(Buf))
      S.remark(LoopArg.Loc, "sched: the blocks add their partial results to '" + Buf +
                                "' atomically, in the order they finish: the " +
                                dtypeName(U.Buf->Type) +
                                " sum's last bits may differ from run to run (atomic(" + Buf +
                                "))");
    else
      S.remark(LoopArg.Loc, "sched: the blocks' partial results for '" + Buf +
                                "' are added up in block order by the last block to finish (the "
                                "same bits on every run; atomic(" + Buf +
                                ") would add them as the blocks finish instead)");
  }
  return checkNesting(S, L, LoopArg, Tag);
}

/// Checks that L may be bound to Tag: a serial loop whose iterations are
/// independent (for virtual threads too: their copies interleave), nested
/// as a launch allows.
bool checkBindable(ScheduleState &S, const ForNode *L, const DirectiveArg &LoopArg,
                   const std::string &Tag) {
  const std::string &Name = L->LoopVar->Name;
  if (L->LoopKind != ForKind::Serial)
    return S.error(LoopArg.Loc, "cannot bind '" + Name + "': it is already " + describeLoopKind(L));
  if (L->IsReduction) {
    // Bound to threads, a reduction loop is a cross-thread reduction
    // (passes/gpu/LowerThreadReductions.cpp): exact when all it writes
    // outside itself are commutative updates of elements it does not move.
    if (isBlockTag(Tag))
      return checkAcrossBlocks(S, L, LoopArg, Tag);
    if (!isThreadIdxTag(Tag))
      return S.error(LoopArg.Loc, "cannot bind reduction loop '" + Name + "' to " + Tag +
                                      ": it carries a reduction into '" + reductionTarget(L) +
                                      "' (a reduction can be bound to threadIdx, or to blockIdx "
                                      "with atomic updates)");
    const std::string Refused = "cannot bind reduction loop '" + Name + "' to " + Tag +
                                " as a cross-thread reduction into '" + reductionTarget(L) + "': ";
    std::vector<ReductionUpdate> Updates;
    std::string Why;
    if (!reductionUpdatesOf(L, Updates, &Why))
      return S.error(LoopArg.Loc, Refused + Why);
    int64_t Extent = 0, Min = -1;
    if (!getConstInt(L->Extent, Extent) || !getConstInt(L->Min, Min) || Min != 0)
      return S.error(LoopArg.Loc, Refused + "its extent " + print(L->Extent) +
                                      " is not a constant (the block combines one partial "
                                      "result per thread; split it first: split(" + Name + ", " +
                                      Name + "o, " + Name + "i, 128) bind(" + Name + "i, " + Tag +
                                      "))");
    return checkNesting(S, L, LoopArg, Tag);
  }
  // Independence is the computation's: a write-back inside L, its region
  // still symbolic, would look like one element written by every iteration.
  std::string Why;
  Stmt View = withoutStages(S);
  const ForNode *Seen = findLoopByVar(View, L->LoopVar.get());
  if (!isParallelLoop(Seen ? Seen : L, &Why, Seen ? View : S.Nest.Body)) {
    std::string Hint;
    if (const BufferNode *M = extremumWithPayload(L->Body))
      Hint = "; '" + M->Name + "' is a maximum or minimum kept together with other values it "
             "selects (an argmax or argmin), which sched does not combine across threads or "
             "blocks: reduce the extremum alone (fmax, fmin, std::max, std::min), then find "
             "where it occurs in a second nest";
    return S.error(LoopArg.Loc, "cannot bind '" + Name + "' to " + Tag +
                                    ": its iterations are not independent" +
                                    (Why.empty() ? "" : " (" + Why + ")") + Hint);
  }
  return !isHardwareTag(Tag) || checkNesting(S, L, LoopArg, Tag);
}

} // namespace

bool applyBind(ScheduleState &S, const Directive &D) {
  const DirectiveArg &LoopArg = D.Args[0], &TagArg = D.Args[1];
  const std::string &Tag = TagArg.Text;
  if (!isValidThreadTag(Tag))
    return S.error(TagArg.Loc, "unknown thread tag '" + Tag + "'");
  const ForNode *L = findLoop(S, LoopArg);
  if (!L)
    return false;
  // A loop that reorder distributed over several statements lives on in
  // each copy (`ii_1` initializes what `ii` computes and `ii_2` stores):
  // binding it binds them all, so each thread keeps its own elements from
  // the init to the store.
  std::vector<const ForNode *> Loops{L};
  for (const ScheduleState::Distributed &D : S.DistributedCopies)
    if (D.Loop == L->LoopVar)
      for (const Var &V : D.Copies)
        if (const ForNode *C = findLoopByVar(S.Nest.Body, V.get()))
          Loops.push_back(C);
  // A copy bound with its loop may be named again: binding a loop to the
  // tag it already has changes nothing.
  Loops.erase(std::remove_if(Loops.begin(), Loops.end(),
                             [&](const ForNode *X) {
                               return X->LoopKind == ForKind::ThreadBound && X->ThreadTag == Tag;
                             }),
              Loops.end());
  for (const ForNode *X : Loops)
    if (!checkBindable(S, X, LoopArg, Tag))
      return false;
  for (const ForNode *X : Loops) {
    X = findLoopByVar(S.Nest.Body, X->LoopVar.get());
    S.Nest.Body = replaceStmt(S.Nest.Body, X, withKind(X, ForKind::ThreadBound, Tag));
  }
  return true;
}

} // namespace schedule
} // namespace sched
