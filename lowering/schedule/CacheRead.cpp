//===- CacheRead.cpp - cache_read(T, scope, Name) and the stage builder ---===//
//
// cache_read(A, shared, As) makes a buffer As of A's type in the given scope
// and a copy stage at the root of the nest, before every consumer, with every
// read of A in the nest replaced by a read of As. The stage's region is not
// known yet: it depends on where the stage ends up (compute_at) and on the
// thread bindings lowering will see. So, as in TVM, the stage is written in
// terms of placeholders per dimension, the region's first index As.min<d>
// and its size As.ext<d>:
//   allocate As: float32[As.ext0, As.ext1] shared {
//     for (As.ax0, 0, As.ext0) { for (As.ax1, 0, As.ext1) {
//       As[As.ax0, As.ax1] = A[(As.min0 + As.ax0), (As.min1 + As.ax1)] } }
//     ... As[(i - As.min0), (k - As.min1)] ...
//   }
// Bound inference (passes/shared/BoundInference.cpp) replaces the placeholders when
// lowering starts. The stage loops are ordinary serial loops, so split, fuse,
// reorder and bind can name them before or after compute_at.
// cache_write (CacheWrite.cpp) shares the builder.
//
//===----------------------------------------------------------------------===//

#include "ir/Bounds.h"
#include "ir/IRMutator.h"
#include "ir/Simplify.h"
#include "schedule/ScheduleImpl.h"
#include "targets/Target.h"

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

bool parseStageScope(ScheduleState &S, const DirectiveArg &Arg, bool IsWrite, Scope &Out) {
  Scope Sc;
  if (!parseScope(Arg.Text, Sc))
    return parseCacheScope(S, Arg, Out);
  switch (Sc) {
  case Scope::WmmaMatrixA:
  case Scope::WmmaMatrixB:
  case Scope::WmmaAccumulator:
    // A tensor-core fragment holds an operand (read stages) or the
    // accumulator (the write stage); TVM's tensor-core schedules use the same.
    if (IsWrite != (Sc == Scope::WmmaAccumulator))
      return S.error(Arg.Loc, std::string(IsWrite ? "cache_write" : "cache_read") + " to '" +
                                  Arg.Text + "': " +
                                  (IsWrite ? "the output of a matrix multiply is cached in "
                                             "wmma.accumulator"
                                           : "an operand is cached in wmma.matrix_a or "
                                             "wmma.matrix_b"));
    break;
  case Scope::VtaInp:
  case Scope::VtaWgt:
  case Scope::VtaAcc:
    // VTA's on-chip buffers: GEMM inputs and weights are read stages; the
    // accumulator holds results (cache_write) and ALU operands (cache_read of
    // int32 data, as TVM's vector-add tutorial does).
    if (const TargetDescription *Owner = targetWithScope(Sc))
      if (Owner != findTarget(S.Nest.Target))
        return S.error(Arg.Loc, "scope '" + Arg.Text + "' needs target(" + Owner->Name + ")");
    if (IsWrite && Sc != Scope::VtaAcc)
      return S.error(Arg.Loc, "cache_write to '" + Arg.Text +
                                  "': VTA writes results only to vta.acc");
    break;
  default:
    return parseCacheScope(S, Arg, Out);
  }
  Out = Sc;
  return true;
}

Stmt makeStageLoops(const StageInfo &Info, const Buffer &Stage) {
  size_t Rank = Info.Extents.size();
  std::vector<Var> Vars;
  std::vector<Expr> StageIdx, CachedIdx;
  if (Info.DoubleBufferApplied)
    StageIdx.push_back(Info.Parity);
  for (size_t D = 0; D < Rank; ++D) {
    Vars.push_back(makeVar(Info.Name + ".ax" + std::to_string(D)));
    StageIdx.push_back(Vars.back());
    CachedIdx.push_back(Expr(Info.Mins[D]) + Expr(Vars.back()));
  }
  Expr StageValue = makeLoad(Stage, StageIdx);
  if (Info.IsWrite && Stage->Type != Info.Cached->Type) // a vta.acc stage: stores narrow
    StageValue = makeCast(Info.Cached->Type, StageValue);
  Stmt Body = Info.IsWrite ? makeStore(Info.Cached, CachedIdx, StageValue)
                           : makeStore(Stage, StageIdx, makeLoad(Info.Cached, CachedIdx));
  for (size_t D = Rank; D-- > 0;)
    Body = makeFor(Vars[D], makeInt(0), Info.Extents[D], Body);
  return Body;
}

Buffer makeStageBuffer(const StageInfo &Info, Scope Sc) {
  std::vector<Expr> Shape;
  if (Info.DoubleBufferApplied)
    Shape.push_back(makeInt(2));
  for (const Var &E : Info.Extents)
    Shape.push_back(E);
  size_t Copies = Info.DoubleBufferApplied ? 1 : 0;
  int Axis = Info.AlignAxis;
  if (Info.AlignFactor > 0 && (Axis < 0 || Axis + 2 == static_cast<int>(Info.Extents.size()))) {
    // TVM's storage_align: the row stride becomes the smallest
    // k*Factor + Offset that holds a row, ((ext + F - O - 1)/F)*F + O (the
    // numerator is never negative: O < F and ext >= 1).
    Expr Row = Shape.back();
    Expr F = makeInt(Info.AlignFactor);
    Shape.back() = ((Row + makeInt(Info.AlignFactor - Info.AlignOffset - 1)) / F) * F +
                   makeInt(Info.AlignOffset);
  } else if (Info.AlignFactor > 0) {
    // An outer axis (offset 0, checked by storage_align): its stride is the
    // product of the extents inside it, a multiple of F once the next
    // axis's extent is one, ((ext + F - 1)/F)*F.
    Expr &Next = Shape[Copies + Axis + 1];
    Expr F = makeInt(Info.AlignFactor);
    Next = ((Next + makeInt(Info.AlignFactor - 1)) / F) * F;
  }
  // VTA's accumulator holds int32 whatever it caches (its store truncates).
  return makeBuffer(Info.Name, Sc == Scope::VtaAcc ? DType::Int32 : Info.Cached->Type, Shape, Sc);
}

bool rebuildStage(ScheduleState &S, StageInfo &Info, int Loc) {
  Buffer Old = findBufferByName(S, Info.Name);
  if (!Old || !findAllocate(S.Nest.Body, Old.get()))
    return S.error(Loc, "stage '" + Info.Name + "' is no longer allocated in the nest");
  // The copy index is added when double_buffer takes effect and dropped
  // when it is given up (checkDoubleBufferLoop).
  bool AddParity = Info.DoubleBuffer && Info.ComputedAt && !Info.DoubleBufferApplied;
  bool DropParity = !Info.DoubleBuffer && Info.DoubleBufferApplied;
  Info.DoubleBufferApplied = (Info.DoubleBufferApplied || AddParity) && !DropParity;
  Buffer New = makeStageBuffer(Info, Old->MemScope);
  Expr Parity = Info.Parity;
  S.Nest.Body = remapBuffer(S.Nest.Body, Old.get(), New, [&](const std::vector<Expr> &Indices) {
    if (DropParity)
      return std::vector<Expr>(Indices.begin() + 1, Indices.end());
    if (!AddParity)
      return Indices;
    std::vector<Expr> Out{Parity};
    Out.insert(Out.end(), Indices.begin(), Indices.end());
    return Out;
  });
  return true;
}

/// cache_read(As, scope, Af) of a read stage As of tensor A: Af is a stage
/// of A too (its region, placeholders and consumers' offsets in A's
/// indices, so bound inference resolves it before As, whose consumers it
/// holds), filled from As inside As's allocation, after As's copy:
///   allocate As { As's copy; allocate Af {
///     for (Af.ax0 ...) Af[Af.ax0, ..] = As[(Af.min0 + Af.ax0 - As.min0), ..]
///     ... Af[(i - Af.min0), ..] ... } }
/// As TVM's tensor-core schedules do: shared, then fragments.
static bool makeStageOfStage(ScheduleState &S, const Directive &D, StageInfo &Outer, Scope Sc) {
  const DirectiveArg &NameArg = D.Args[2];
  Buffer OuterBuf = findBufferByName(S, Outer.Name);
  const AllocateNode *OuterAlloc = OuterBuf ? findAllocate(S.Nest.Body, OuterBuf.get()) : nullptr;
  const auto *Seq = OuterAlloc ? as<SeqNode>(OuterAlloc->Body) : nullptr;
  if (!Seq || Seq->Stmts.size() < 2 || !writesBuffer(Seq->Stmts[0], OuterBuf.get()))
    return S.error(D.Args[0].Loc, "stage '" + Outer.Name + "' no longer has the form of a stage "
                                  "(its copy, then its consumers)");
  StageInfo Info;
  Info.Cached = Outer.Cached;
  Info.Name = NameArg.Text;
  for (size_t Dm = 0; Dm < Info.Cached->Shape.size(); ++Dm) {
    Info.Mins.push_back(makeVar(Info.Name + ".min" + std::to_string(Dm)));
    Info.Extents.push_back(makeVar(Info.Name + ".ext" + std::to_string(Dm)));
  }
  Buffer Stage = makeStageBuffer(Info, Sc);
  // The copy reads the outer stage at the tensor's index minus its origin.
  Stmt Copy = makeStageLoops(Info, Stage);
  Copy = remapBuffer(Copy, Info.Cached.get(), OuterBuf, [&](const std::vector<Expr> &Idx) {
    std::vector<Expr> Out;
    for (size_t Dm = 0; Dm < Idx.size(); ++Dm)
      Out.push_back(Idx[Dm] - Expr(Outer.Mins[Dm]));
    return Out;
  });
  std::vector<Stmt> Consumers(Seq->Stmts.begin() + 1, Seq->Stmts.end());
  Stmt Rest = remapBuffer(makeSeq(Consumers), OuterBuf.get(), Stage, [&](const std::vector<Expr> &Idx) {
    std::vector<Expr> Out;
    for (size_t Dm = 0; Dm < Idx.size(); ++Dm)
      Out.push_back(simplify(Idx[Dm] + Expr(Outer.Mins[Dm]) - Expr(Info.Mins[Dm])));
    return Out;
  });
  Stmt Inner = makeAllocate(Stage, makeSeq({Copy, Rest}));
  S.Nest.Body = replaceStmt(S.Nest.Body, OuterAlloc,
                            makeAllocate(OuterBuf, makeSeq({Seq->Stmts[0], Inner})));
  Info.Loc = D.Loc;
  S.Stages[NameArg.Text] = Info;
  return true;
}

bool makeCacheStage(ScheduleState &S, const Directive &D, bool IsWrite) {
  const DirectiveArg &TensorArg = D.Args[0], &ScopeArg = D.Args[1], &NameArg = D.Args[2];
  Buffer Cached = findBufferByName(S, TensorArg.Text);
  if (!Cached)
    return S.error(TensorArg.Loc, "no buffer named '" + TensorArg.Text + "'");
  auto OuterStage = S.Stages.find(TensorArg.Text);
  if (!IsWrite && OuterStage != S.Stages.end() && !OuterStage->second.IsWrite &&
      !OuterStage->second.DoubleBufferApplied) {
    Scope Sc;
    if (!parseStageScope(S, ScopeArg, IsWrite, Sc))
      return false;
    if (!isFreshName(S, NameArg.Text) || S.Stages.count(NameArg.Text))
      return S.error(NameArg.Loc, "name '" + NameArg.Text + "' already exists");
    return makeStageOfStage(S, D, OuterStage->second, Sc);
  }
  // The root form of a stage lies outside an array declared in the nest, and
  // its copy would run before the array's producers: only tensors passed in.
  if (findAllocate(S.Nest.Body, Cached.get()))
    return S.error(TensorArg.Loc, "cannot cache '" + TensorArg.Text +
                                      "': it is declared inside the nest (use set_scope to "
                                      "change its memory)");
  Scope Sc;
  if (!parseStageScope(S, ScopeArg, IsWrite, Sc))
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
  Info.Name = NameArg.Text;
  Info.IsWrite = IsWrite;
  for (size_t Dm = 0; Dm < Cached->Shape.size(); ++Dm) {
    Info.Mins.push_back(makeVar(Info.Name + ".min" + std::to_string(Dm)));
    Info.Extents.push_back(makeVar(Info.Name + ".ext" + std::to_string(Dm)));
  }
  Buffer Stage = makeStageBuffer(Info, Sc);
  if (IsWrite && Sc == Scope::VtaAcc && Cached->Type != DType::Int8 && Cached->Type != DType::UInt8)
    return S.error(ScopeArg.Loc, "cache_write(" + TensorArg.Text + ", vta.acc): VTA stores 8-bit "
                                 "results (its int32 accumulators truncated); '" +
                                 TensorArg.Text + "' is " + dtypeName(Cached->Type));
  Stmt Copy = makeStageLoops(Info, Stage);
  // The computation reads (or, for cache_write, writes and reduces into) the
  // stage, at the tensor's index minus the region's first index.
  Stmt Rest = remapBuffer(S.Nest.Body, Cached.get(), Stage, [&](const std::vector<Expr> &Idx) {
    std::vector<Expr> Out;
    for (size_t Dm = 0; Dm < Idx.size(); ++Dm)
      Out.push_back(Idx[Dm] - Expr(Info.Mins[Dm]));
    return Out;
  });
  if (IsWrite && Sc == Scope::VtaAcc)
    Rest = storeUnnarrowedIntoVtaAcc(Rest, Stage);
  S.Nest.Body = makeAllocate(Stage, IsWrite ? makeSeq({Rest, Copy}) : makeSeq({Copy, Rest}));
  Info.Loc = D.Loc;
  S.Stages[NameArg.Text] = Info;
  if (Sc == Scope::WmmaAccumulator)
    foldAccumulatorIntoStage(S, Stage);
  if (IsWrite && Sc == Scope::VtaAcc) {
    foldAccumulatorIntoStage(S, Stage, /*AllowEpilogue=*/true);
  }
  return true;
}

bool applyCacheRead(ScheduleState &S, const Directive &D) { return makeCacheStage(S, D, false); }

} // namespace schedule
} // namespace sched
