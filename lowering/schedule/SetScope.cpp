//===- SetScope.cpp - set_scope(array, scope) ---===//
//
// Changes the memory scope of an array declared inside the nest (an
// Allocate). Making an array shared when it is declared inside a loop bound,
// now or by a later bind, to threadIdx.* would change its meaning (one array
// per block instead of one per thread), so that is refused.
//
//===----------------------------------------------------------------------===//

#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

bool applySetScope(ScheduleState &S, const Directive &D) {
  const DirectiveArg &ArrayArg = D.Args[0], &ScopeArg = D.Args[1];
  Buffer Buf = findBufferByName(S, ArrayArg.Text);
  const AllocateNode *Alloc = Buf ? findAllocate(S.Nest.Body, Buf.get()) : nullptr;
  if (!Alloc)
    return S.error(ArrayArg.Loc, "no array named '" + ArrayArg.Text + "' is declared in the nest");
  Scope Sc;
  if (!parseCacheScope(S, ScopeArg, Sc))
    return false;
  if (Sc == Scope::Shared) {
    std::vector<const StmtNode *> Path;
    enclosingStmts(S.Nest.Body, Alloc, Path);
    for (const StmtNode *N : Path) {
      const ForNode *L = N->Kind == StmtKind::For ? static_cast<const ForNode *>(N) : nullptr;
      if (L && ((L->LoopKind == ForKind::ThreadBound && isThreadIdxTag(L->ThreadTag)) ||
                S.ThreadBoundLoops.count(L->LoopVar->Name)))
        return S.error(ScopeArg.Loc, "cannot make '" + ArrayArg.Text +
                                         "' shared: it is declared inside loop '" +
                                         L->LoopVar->Name +
                                         "', which is bound to a thread (one array per thread "
                                         "would become one per block)");
    }
  }
  Buffer New = makeBuffer(Buf->Name, Buf->Type, Buf->Shape, Sc);
  S.Nest.Body = replaceBuffer(S.Nest.Body, Buf.get(), New);
  auto It = S.Stages.find(Buf->Name);
  if (It != S.Stages.end())
    It->second.Stage = New;
  return true;
}

} // namespace schedule
} // namespace sched
