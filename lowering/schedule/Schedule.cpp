//===- Schedule.cpp - Applying directives; helpers shared by primitives ---===//
//
// applySchedule dispatches each directive by name to its primitive (one file
// per primitive). Primitives work directly on the loop tree, TensorIR style:
// a loop is found by the name of its induction variable, which must be unique
// in the nest, and is rewritten in place through IRMutator. The helpers here
// (lookup by name, fresh-name checks, replacing a statement by identity) are
// what every primitive shares.
//
//===----------------------------------------------------------------------===//

#include "schedule/Schedule.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Simplify.h"
#include "schedule/ScheduleImpl.h"
#include "targets/Target.h"

#include <algorithm>
#include <set>

namespace sched {
namespace schedule {

using namespace ir;

bool ScheduleState::error(int Loc, const std::string &Msg) {
  Diags.push_back({Diag::Level::Error, Loc, Msg, {}});
  return false;
}

void ScheduleState::remark(int Loc, const std::string &Msg) {
  Diags.push_back({Diag::Level::Remark, Loc, Msg, {}});
}

namespace {

class LoopCollector : public IRVisitor {
public:
  std::vector<const ForNode *> Loops;
  std::set<std::string> AllocatedNames;

protected:
  void visitFor(const ForNode *N) override {
    Loops.push_back(N);
    IRVisitor::visitFor(N);
  }
  void visitAllocate(const AllocateNode *N) override {
    AllocatedNames.insert(N->Buf->Name);
    IRVisitor::visitAllocate(N);
  }
};


class AllocateFinder : public IRVisitor {
public:
  explicit AllocateFinder(const BufferNode *Buf) : Buf(Buf) {}
  const AllocateNode *Found = nullptr;
  std::vector<Buffer> All;

protected:
  void visitAllocate(const AllocateNode *N) override {
    if (N->Buf.get() == Buf && !Found)
      Found = N;
    All.push_back(N->Buf);
    IRVisitor::visitAllocate(N);
  }

private:
  const BufferNode *Buf;
};

std::string joinLoopNames(const std::vector<const ForNode *> &Loops) {
  std::string Names;
  std::set<std::string> Seen;
  for (const ForNode *L : Loops) {
    if (!Seen.insert(L->LoopVar->Name).second)
      continue;
    Names += (Names.empty() ? "" : ", ") + L->LoopVar->Name;
  }
  return Names.empty() ? "(none)" : Names;
}

bool applyTarget(ScheduleState &S, const Directive &D) {
  const DirectiveArg &A = D.Args[0];
  if (!findTarget(A.Text))
    return S.error(A.Loc, "unknown target '" + A.Text + "'; expected " + targetNameList());
  S.Nest.Target = A.Text;
  if (S.Nest.TargetLoc < 0)
    S.Nest.TargetLoc = D.Loc;
  return true;
}

using PrimitiveFn = bool (*)(ScheduleState &, const Directive &);

PrimitiveFn lookupPrimitive(const std::string &Name) {
  static const struct {
    const char *Name;
    PrimitiveFn Fn;
  } Primitives[] = {
      {"target", applyTarget},   {"split", applySplit},   {"tile", applyTile},
      {"reorder", applyReorder}, {"fuse", applyFuse},     {"bind", applyBind},
      {"unroll", applyUnroll},   {"vectorize", applyVectorize},
      {"cache_read", applyCacheRead}, {"cache_write", applyCacheWrite},
      {"compute_at", applyComputeAt}, {"set_scope", applySetScope},
      {"storage_align", applyStorageAlign}, {"double_buffer", applyDoubleBuffer},
      {"tensorize", applyTensorize}, {"tensorcore", applyTensorCore},
      {"pragma", applyPragma},       {"pipeline", applyPipeline},
      {"rfactor", applyRFactor},     {"atomic", applyAtomic},
  };
  for (const auto &P : Primitives)
    if (Name == P.Name)
      return P.Fn;
  return nullptr;
}

/// Arity as the parser checks it; directives built by hand (tests, tools)
/// may skip the parser, and a primitive must never index past its args.
bool checkArity(ScheduleState &S, const Directive &D, const DirectiveSpec &Spec) {
  size_t Fixed = std::string(Spec.ArgKinds).size();
  bool Ok = Spec.Variadic ? D.Args.size() >= Spec.MinArgs : D.Args.size() == Fixed;
  if (Ok)
    return true;
  return S.error(D.Loc, "'" + D.Name + "' expects " +
                            (Spec.Variadic ? "at least " + std::to_string(Spec.MinArgs)
                                           : std::to_string(Fixed)) +
                            " arguments, got " + std::to_string(D.Args.size()));
}

} // namespace

/// The characters of a UTF-8 string, each as its bytes (names may be `α`).
static std::vector<std::string> characters(const std::string &S) {
  std::vector<std::string> Out;
  for (char C : S) {
    bool Continues = (static_cast<unsigned char>(C) & 0xC0) == 0x80;
    if (Continues && !Out.empty())
      Out.back() += C;
    else
      Out.push_back(std::string(1, C));
  }
  return Out;
}

/// Levenshtein distance over characters.
static size_t editDistance(const std::vector<std::string> &A, const std::vector<std::string> &B) {
  std::vector<size_t> Row(B.size() + 1);
  for (size_t J = 0; J <= B.size(); ++J)
    Row[J] = J;
  for (size_t I = 1; I <= A.size(); ++I) {
    size_t Diagonal = Row[0];
    Row[0] = I;
    for (size_t J = 1; J <= B.size(); ++J) {
      size_t Above = Row[J];
      Row[J] = std::min({Row[J] + 1, Row[J - 1] + 1, Diagonal + (A[I - 1] != B[J - 1])});
      Diagonal = Above;
    }
  }
  return Row[B.size()];
}

std::string didYouMean(const std::string &Name, const std::vector<std::string> &Candidates) {
  const std::string *Best = nullptr;
  std::vector<std::string> Chars = characters(Name);
  // Clang's typo-correction bound: a third of the length, rounded up.
  size_t BestDistance = (Chars.size() + 2) / 3 + 1;
  for (const std::string &C : Candidates) {
    std::vector<std::string> CandidateChars = characters(C);
    size_t D = editDistance(Chars, CandidateChars);
    // A candidate that shares no letter suggests nothing (`q` for `i`).
    if (D < BestDistance && D < std::max(Chars.size(), CandidateChars.size()) && C != Name) {
      Best = &C;
      BestDistance = D;
    }
  }
  return Best ? "; did you mean '" + *Best + "'?" : "";
}

std::vector<const ForNode *> collectLoops(const Stmt &S) {
  LoopCollector C;
  C.visit(S);
  return C.Loops;
}

const ForNode *findLoop(ScheduleState &S, const DirectiveArg &Arg) {
  std::vector<const ForNode *> All = collectLoops(S.Nest.Body);
  const ForNode *Match = nullptr;
  unsigned Count = 0;
  for (const ForNode *L : All)
    if (L->LoopVar->Name == Arg.Text) {
      Match = L;
      ++Count;
    }
  if (Count == 1)
    return Match;
  // TVM's name for a loop of the computation a write stage caches: Cf.i.
  size_t Dot = Arg.Text.find('.');
  if (Count == 0 && Dot != std::string::npos) {
    auto Stage = S.Stages.find(Arg.Text.substr(0, Dot));
    if (Stage != S.Stages.end() && Stage->second.IsWrite) {
      DirectiveArg Inner = Arg;
      Inner.Text = Arg.Text.substr(Dot + 1);
      for (const ForNode *L : All)
        if (L->LoopVar->Name == Inner.Text)
          return findLoop(S, Inner);
    }
  }
  if (Count == 0) {
    std::vector<std::string> Names;
    for (const ForNode *L : All)
      Names.push_back(L->LoopVar->Name);
    std::string Suggestion = didYouMean(Arg.Text, Names);
    S.error(Arg.Loc, "no loop named '" + Arg.Text + "'" +
                         (Suggestion.empty() ? "; loops are: " + joinLoopNames(All)
                                             : Suggestion));
  }
  else
    S.error(Arg.Loc, "loop name '" + Arg.Text + "' is ambiguous: " + std::to_string(Count) +
                         " loops have it (a reorder copied it)");
  return nullptr;
}

const ForNode *findLoopByVar(const Stmt &Root, const VarNode *V) {
  for (const ForNode *L : collectLoops(Root))
    if (L->LoopVar.get() == V)
      return L;
  return nullptr;
}

bool isFreshName(const ScheduleState &S, const std::string &Name) {
  LoopCollector C;
  C.visit(S.Nest.Body);
  bool Taken = C.AllocatedNames.count(Name) != 0;
  for (const ForNode *L : C.Loops)
    Taken |= L->LoopVar->Name == Name;
  for (const Param &P : S.Nest.Params)
    Taken |= P.name() == Name;
  for (const auto &Stage : S.Stages)
    for (const auto *Placeholders : {&Stage.second.Mins, &Stage.second.Extents})
      for (const Var &V : *Placeholders)
        Taken |= V->Name == Name;
  return !Taken;
}

bool checkFreshName(ScheduleState &S, const DirectiveArg &Arg) {
  if (!isFreshName(S, Arg.Text))
    return S.error(Arg.Loc, "loop name '" + Arg.Text + "' already exists");
  return true;
}

Stmt replaceBuffer(const Stmt &S, const BufferNode *Old, const Buffer &New,
                   const std::vector<Expr> &Offset) {
  return remapBuffer(S, Old, New, [&](const std::vector<Expr> &Indices) {
    std::vector<Expr> Out;
    for (size_t D = 0; D < Indices.size(); ++D)
      Out.push_back(D < Offset.size() ? simplify(Indices[D] - Offset[D]) : Indices[D]);
    return Out;
  });
}

const AllocateNode *findAllocate(const Stmt &Root, const BufferNode *Buf) {
  AllocateFinder F(Buf);
  F.visit(Root);
  return F.Found;
}

Buffer findParameterBuffer(const ScheduleState &S, const std::string &Name) {
  for (const Param &P : S.Nest.Params)
    if (P.ParamKind == Param::Kind::Buffer && P.Buf->Name == Name)
      return P.Buf;
  return nullptr;
}

Buffer findBufferByName(const ScheduleState &S, const std::string &Name) {
  if (Buffer Given = findParameterBuffer(S, Name))
    return Given;
  AllocateFinder F(nullptr);
  F.visit(S.Nest.Body);
  for (const Buffer &B : F.All)
    if (B->Name == Name)
      return B;
  return nullptr;
}

Stmt withoutStages(const ScheduleState &S) {
  Stmt Body = S.Nest.Body;
  std::map<const VarNode *, Expr> ZeroMins;
  for (const auto &Stage : S.Stages)
    for (const Var &M : Stage.second.Mins)
      ZeroMins[M.get()] = makeInt(0, M->Type);
  for (const auto &[Name, Info] : S.Stages) {
    // The stage's buffer node is the same in Body: rewriting the other stages
    // rebuilt only the statements around it.
    Buffer Stage = findBufferByName(S, Name);
    const AllocateNode *Alloc = Stage ? findAllocate(Body, Stage.get()) : nullptr;
    if (!Alloc)
      continue;
    // Drop the copy (what stores into the stage, or the write-back into the
    // tensor), keep the rest, and read or write the tensor itself: with the
    // region's first index at 0, a stage index is the tensor's.
    const auto *Seq = as<SeqNode>(Alloc->Body);
    std::vector<Stmt> Rest;
    const BufferNode *CopyTarget = Info.IsWrite ? Info.Cached.get() : Stage.get();
    for (const Stmt &E : Seq ? Seq->Stmts : std::vector<Stmt>{Alloc->Body})
      if (!writesBuffer(E, CopyTarget))
        Rest.push_back(E);
    Body = replaceStmt(Body, Alloc, makeSeq(Rest));
    size_t Lead = Info.DoubleBufferApplied ? 1 : 0;
    Body = remapBuffer(Body, Stage.get(), Info.Cached, [&](const std::vector<Expr> &Idx) {
      std::vector<Expr> Out;
      for (size_t D = std::min(Lead, Idx.size()); D < Idx.size(); ++D)
        Out.push_back(simplify(substitute(Idx[D], ZeroMins)));
      return Out;
    });
  }
  return Body;
}

bool isStageSize(const ScheduleState &S, const Expr &E) {
  std::set<const VarNode *> Sizes;
  for (const auto &Stage : S.Stages)
    for (const Var &V : Stage.second.Extents)
      Sizes.insert(V.get());
  for (const VarNode *V : varsOf(E))
    if (!Sizes.count(V))
      return false;
  return true;
}

bool finishStages(ScheduleState &S) {
  for (const auto &[Array, Loc] : S.MadeShared)
    if (!checkSharedOutsideThreads(S, Array, Loc))
      return false;
  for (auto &[Name, Info] : S.Stages) {
    if (Info.DoubleBuffer && !Info.ComputedAt)
      return S.error(Info.DoubleBufferLoc, "double_buffer of stage '" + Name +
                                               "' needs a compute_at (the loop whose iterations "
                                               "alternate the two copies)");
    if (!checkDoubleBufferLoop(S, Info))
      return false;
  }
  // Bound inference takes it from here.
  for (const auto &[Name, Info] : S.Stages)
    S.Nest.Stages.push_back({Name, Info.Cached, Info.IsWrite, Info.Mins, Info.Extents, Info.Loc});
  return true;
}

std::string describeLoopKind(const ForNode *L) {
  switch (L->LoopKind) {
  case ForKind::Serial: return "serial";
  case ForKind::Unrolled: return "unrolled";
  case ForKind::Vectorized: return "vectorized";
  case ForKind::ThreadBound: return "bound to " + L->ThreadTag;
  }
  return "serial";
}

} // namespace schedule

bool isKnownDirective(const std::string &Name) {
  return schedule::lookupDirectiveSpec(Name) != nullptr;
}

/// Adds the loop, tensor and stage names D mentions to Poisoned (not its
/// factors, thread tags, scopes or targets, which later directives share).
static void poisonNames(const Directive &D, std::set<std::string> &Poisoned) {
  const schedule::DirectiveSpec *Spec = schedule::lookupDirectiveSpec(D.Name);
  size_t Fixed = Spec ? std::string(Spec->ArgKinds).size() : 0;
  for (size_t I = 0; I < D.Args.size(); ++I) {
    char Kind = Fixed ? Spec->ArgKinds[I < Fixed ? I : Fixed - 1] : 'A';
    ir::Scope Scope;
    if ((Kind == 'L' || Kind == 'A') && !ir::parseScope(D.Args[I].Text, Scope))
      Poisoned.insert(D.Args[I].Text);
  }
}

/// Checks and applies one directive; false (after reporting) if it failed.
static bool applyDirective(schedule::ScheduleState &S, const Directive &D) {
  const schedule::DirectiveSpec *Spec = schedule::lookupDirectiveSpec(D.Name);
  if (!Spec)
    return S.error(D.Loc, "unknown directive '" + D.Name + "'");
  if (!Spec->Implemented)
    return S.error(D.Loc, "'" + D.Name + "' is not supported yet");
  if (!schedule::checkArity(S, D, *Spec))
    return false;
  schedule::PrimitiveFn Apply = schedule::lookupPrimitive(D.Name);
  if (!Apply)
    return S.error(D.Loc, "'" + D.Name + "' is not supported yet");
  return Apply(S, D);
}

/// Applies Dirs in order, all but those Skip says (which are treated as
/// failed, silently). Every error is reported, not only the first: a failed
/// directive is skipped and the next ones applied. Later directives name
/// loops and stages made by earlier ones, so the names a failed directive
/// mentions are poisoned: a directive that mentions one is skipped too,
/// silently, rather than report a cascade of missing names. Returns whether
/// every directive applied.
static bool applyEach(schedule::ScheduleState &S, const std::vector<Directive> &Dirs,
                      bool (*Skip)(const Directive &)) {
  std::set<std::string> Poisoned;
  bool Ok = true;
  for (const Directive &D : Dirs) {
    bool MentionsPoisoned = Skip && Skip(D);
    for (const DirectiveArg &A : D.Args)
      MentionsPoisoned |= Poisoned.count(A.Text) != 0 ||
                          Poisoned.count(A.Text.substr(0, A.Text.find('.'))) != 0;
    if (!MentionsPoisoned && applyDirective(S, D))
      continue;
    Ok = false;
    poisonNames(D, Poisoned);
  }
  return Ok;
}

bool applySchedule(ir::LoopNest &Nest, const std::vector<Directive> &Dirs,
                   std::vector<Diag> &Diags) {
  schedule::ScheduleState S{Nest, Diags};
  if (!Nest.Body)
    return S.error(-1, "the loop nest has no body");
  return applyEach(S, Dirs, nullptr) && schedule::finishStages(S);
}

/// Directives a nest's loops alone cannot check: they name its tensors or
/// stages, or their legality depends on its accesses beyond what a nest
/// without statements has.
static bool needsAccesses(const Directive &D) {
  static const char *const LoopOnly[] = {"target", "split",  "tile",      "reorder",
                                         "fuse",   "bind",   "unroll",    "vectorize"};
  for (const char *Name : LoopOnly)
    if (D.Name == Name)
      return false;
  return true;
}

void checkDirectivesOnLoops(const ir::Stmt &Loops, const std::vector<Directive> &Dirs,
                            std::vector<Diag> &Diags) {
  ir::LoopNest Nest;
  Nest.Body = Loops;
  schedule::ScheduleState S{Nest, Diags};
  if (Loops)
    applyEach(S, Dirs, needsAccesses);
}

} // namespace sched
