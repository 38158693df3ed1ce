//===- CacheRead.cpp - cache_read(T, scope, Name) and the stage builder ---===//
//
// cache_read(A, shared, As) makes a buffer As (A's type and shape in the
// given scope) and a copy stage at the root of the nest, before every
// consumer: allocate As { for As.ax0 { for As.ax1 { As[..] = A[..] } }; nest }
// with every read of A in the nest replaced by a read of As. The stage loops
// are ordinary serial loops, so split/fuse/bind can name them; compute_at
// later moves the stage into a loop and shrinks it to the region the
// consumers there touch. cache_write (CacheWrite.cpp) shares the builder.
//
//===----------------------------------------------------------------------===//

#include "ir/Simplify.h"
#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

bool parseCacheScope(ScheduleState &S, const DirectiveArg &Arg, Scope &Out) {
  if (Arg.Text == "global" || Arg.Text == "shared" || Arg.Text == "local") {
    parseScope(Arg.Text, Out);
    return true;
  }
  return S.error(Arg.Loc, "unknown scope '" + Arg.Text + "'; expected global, shared or local");
}

Stmt makeStageLoops(const StageInfo &Info, const std::string &Name, const std::vector<Expr> &Mins,
                    const std::vector<Expr> &Extents, const std::vector<bool> &GuardHigh,
                    const std::vector<bool> &GuardLow) {
  size_t Rank = Extents.size();
  std::vector<Var> Vars;
  std::vector<Expr> StageIdx, CachedIdx;
  for (size_t D = 0; D < Rank; ++D) {
    Vars.push_back(makeVar(Name + ".ax" + std::to_string(D)));
    StageIdx.push_back(Vars.back());
    CachedIdx.push_back(simplify(Mins[D] + Expr(Vars.back())));
  }
  Expr Guard;
  auto AddGuard = [&Guard](Expr C) { Guard = Guard ? makeBinary(BinOp::And, Guard, C) : C; };
  for (size_t D = 0; D < Rank; ++D) {
    if (D < GuardLow.size() && GuardLow[D])
      AddGuard(makeBinary(BinOp::GE, CachedIdx[D], makeInt(0)));
    if (D < GuardHigh.size() && GuardHigh[D])
      AddGuard(CachedIdx[D] < Info.Cached->Shape[D]);
  }
  Stmt Body = Info.IsWrite ? makeStore(Info.Cached, CachedIdx, makeLoad(Info.Stage, StageIdx))
                           : makeStore(Info.Stage, StageIdx, makeLoad(Info.Cached, CachedIdx));
  if (Guard)
    Body = makeIf(Guard, Body);
  for (size_t D = Rank; D-- > 0;)
    Body = makeFor(Vars[D], makeInt(0), Extents[D], Body);
  return Body;
}

bool makeCacheStage(ScheduleState &S, const Directive &D, bool IsWrite) {
  const DirectiveArg &TensorArg = D.Args[0], &ScopeArg = D.Args[1], &NameArg = D.Args[2];
  Buffer Cached = findBufferByName(S, TensorArg.Text);
  if (!Cached)
    return S.error(TensorArg.Loc, "no buffer named '" + TensorArg.Text + "'");
  // The root form of a stage lies outside an array declared in the nest, and
  // its copy would run before the array's producers: only tensors passed in.
  if (findAllocate(S.Nest.Body, Cached.get()))
    return S.error(TensorArg.Loc, "cannot cache '" + TensorArg.Text +
                                      "': it is declared inside the nest (use set_scope to "
                                      "change its memory)");
  Scope Sc;
  if (!parseCacheScope(S, ScopeArg, Sc))
    return false;
  if (!isFreshName(S, NameArg.Text) || S.Stages.count(NameArg.Text))
    return S.error(NameArg.Loc, "name '" + NameArg.Text + "' already exists");
  Region Touched;
  if (!regionTouched(S.Nest.Body, Cached, /*Reads=*/!IsWrite, {}, Touched))
    return S.error(TensorArg.Loc, "the nest does not " + std::string(IsWrite ? "write" : "read") +
                                      " '" + TensorArg.Text + "'");
  Region Written;
  if (!IsWrite && regionTouched(S.Nest.Body, Cached, /*Reads=*/false, {}, Written))
    return S.error(TensorArg.Loc, "cannot cache_read '" + TensorArg.Text +
                                      "': the nest also writes it (use cache_write)");
  StageInfo Info;
  Info.Cached = Cached;
  Info.Stage = makeBuffer(NameArg.Text, Cached->Type, Cached->Shape, Sc);
  Info.IsWrite = IsWrite;
  std::vector<Expr> Zeros(Cached->Shape.size(), makeInt(0));
  Stmt Copy = makeStageLoops(Info, NameArg.Text, Zeros, Cached->Shape);
  Stmt Rest;
  if (IsWrite) {
    // The computation writes (and, for reductions, reads) the stage.
    Rest = replaceBuffer(S.Nest.Body, Cached.get(), Info.Stage);
    S.Nest.Body = makeAllocate(Info.Stage, makeSeq({Rest, Copy}));
  } else {
    Rest = replaceBuffer(S.Nest.Body, Cached.get(), Info.Stage);
    S.Nest.Body = makeAllocate(Info.Stage, makeSeq({Copy, Rest}));
  }
  S.Stages[NameArg.Text] = Info;
  return true;
}

bool applyCacheRead(ScheduleState &S, const Directive &D) { return makeCacheStage(S, D, false); }

} // namespace schedule
} // namespace sched
