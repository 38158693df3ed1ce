//===- SetScope.cpp - set_scope(array, scope) ---===//
//
// Changes the memory scope of an array declared inside the nest (an
// Allocate), a cache stage included. Making an array shared when it is
// declared inside a loop bound to threadIdx.* would change its meaning (one
// array per block instead of one per thread), so that is refused, here for
// the binds made so far and by finishStages for those that come later. (A
// shared cache stage computed inside a thread loop is another matter: bound
// inference sizes it for every thread of the block.)
//
//===----------------------------------------------------------------------===//

#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

bool checkSharedOutsideThreads(ScheduleState &S, const std::string &Array, int Loc) {
  Buffer Buf = findBufferByName(S, Array);
  const AllocateNode *Alloc = Buf ? findAllocate(S.Nest.Body, Buf.get()) : nullptr;
  if (!Alloc || S.Stages.count(Array))
    return true;
  std::vector<const StmtNode *> Path;
  enclosingStmts(S.Nest.Body, Alloc, Path);
  for (const StmtNode *N : Path) {
    const ForNode *L = N->Kind == StmtKind::For ? static_cast<const ForNode *>(N) : nullptr;
    if (L && L->LoopKind == ForKind::ThreadBound && isThreadIdxTag(L->ThreadTag))
      return S.error(Loc, "cannot make '" + Array + "' shared: it is declared inside loop '" +
                              L->LoopVar->Name +
                              "', which is bound to a thread (one array per thread would "
                              "become one per block)");
  }
  return true;
}

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
    if (!checkSharedOutsideThreads(S, ArrayArg.Text, ScopeArg.Loc))
      return false;
    S.MadeShared[ArrayArg.Text] = ScopeArg.Loc;
  } else {
    S.MadeShared.erase(ArrayArg.Text);
  }
  Buffer New = makeBuffer(Buf->Name, Buf->Type, Buf->Shape, Sc);
  S.Nest.Body = replaceBuffer(S.Nest.Body, Buf.get(), New);
  return true;
}

} // namespace schedule
} // namespace sched
