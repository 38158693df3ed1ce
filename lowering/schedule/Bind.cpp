//===- Bind.cpp - bind(x, blockIdx.x | threadIdx.y | vthread | cthread) ---===//
//
// Binding makes a loop's iterations run on different blocks or threads, so
// the loop must not carry a dependence: a reduction loop, or any loop the
// access analysis cannot prove parallel, is refused. A tag names one hardware
// dimension, so it appears at most once on a nesting path (except a threadIdx
// loop nested in one of its tag that does not depend on it: the same threads,
// see DistributeOverThreads), and block loops must enclose thread loops. vthread and cthread are plain tags for now
// (virtual-thread injection gives them meaning later).
//
//===----------------------------------------------------------------------===//

#include "ir/Access.h"
#include "ir/Dependence.h"
#include "ir/IRVisitor.h"
#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

namespace {

/// The buffer a reduction loop accumulates into: one written by a store that
/// also reads it (acc[0] = acc[0] + ...), else the first one written.
std::string reductionTarget(const ForNode *L) {
  std::vector<Access> Accesses = collectAccesses(L->Body);
  std::string FirstWritten;
  for (const Access &W : Accesses) {
    if (!W.IsWrite)
      continue;
    if (FirstWritten.empty())
      FirstWritten = W.Buf->Name;
    for (const Access &R : Accesses)
      if (!R.IsWrite && R.Buf.get() == W.Buf.get() && R.Statement == W.Statement)
        return W.Buf->Name;
  }
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

} // namespace

bool applyBind(ScheduleState &S, const Directive &D) {
  const DirectiveArg &LoopArg = D.Args[0], &TagArg = D.Args[1];
  const std::string &Tag = TagArg.Text;
  if (!isValidThreadTag(Tag))
    return S.error(TagArg.Loc, "unknown thread tag '" + Tag + "'");
  const ForNode *L = findLoop(S, LoopArg);
  if (!L)
    return false;
  if (L->LoopKind != ForKind::Serial)
    return S.error(LoopArg.Loc, "cannot bind '" + LoopArg.Text + "': it is already " +
                                    describeLoopKind(L));
  if (isHardwareTag(Tag)) {
    if (L->IsReduction)
      return S.error(LoopArg.Loc, "cannot bind reduction loop '" + LoopArg.Text + "' to " + Tag +
                                      ": it carries a reduction into '" + reductionTarget(L) +
                                      "'");
    std::string Why;
    if (!isParallelLoop(L, &Why))
      return S.error(LoopArg.Loc, "cannot bind '" + LoopArg.Text + "' to " + Tag +
                                      ": its iterations are not independent" +
                                      (Why.empty() ? "" : " (" + Why + ")"));
    if (!checkNesting(S, L, LoopArg, Tag))
      return false;
  }
  S.Nest.Body = replaceStmt(S.Nest.Body, L,
                            makeFor(L->LoopVar, L->Min, L->Extent, L->Body,
                                    ForKind::ThreadBound, Tag, L->IsReduction));
  return true;
}

} // namespace schedule
} // namespace sched
