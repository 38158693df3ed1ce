//===- ScheduleImpl.h - Internals shared by the schedule primitives -*- C++ -*-===//
//
// Not a public contract: the directive table (read by the directive parser
// and by isKnownDirective), the state of one applySchedule run, loop lookup
// by name with its diagnostics, and the entry point of each primitive (one
// file per primitive: Split.cpp, Tile.cpp, Reorder.cpp, Fuse.cpp, Bind.cpp,
// Annotate.cpp, CacheRead.cpp, CacheWrite.cpp, ComputeAt.cpp, SetScope.cpp,
// StorageAlign.cpp, DoubleBuffer.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_SCHEDULE_SCHEDULEIMPL_H
#define SCHED_SCHEDULE_SCHEDULEIMPL_H

#include "ir/IR.h"
#include "ir/Rewrite.h"
#include "schedule/Schedule.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace sched {
namespace schedule {

/// What the parser knows about one directive. ArgKinds has one letter per
/// argument (see DirectiveParser.cpp); Variadic directives repeat the last
/// letter and take at least MinArgs arguments.
struct DirectiveSpec {
  const char *Name;
  const char *ArgKinds;
  unsigned MinArgs;
  bool Variadic;
  bool Implemented; // false: parsed and arity-checked, rejected when applied
};

/// The spec of Name, or nullptr for an unknown directive.
const DirectiveSpec *lookupDirectiveSpec(const std::string &Name);

/// The names of every directive, for suggestions.
std::vector<std::string> directiveNames();

/// `; did you mean 'x'?` for the candidate closest to Name (at most a third
/// of its length in edits, rounded up), or "" when none is close.
std::string didYouMean(const std::string &Name, const std::vector<std::string> &Candidates);

/// True for blockIdx.{x,y,z}, threadIdx.{x,y,z}, vthread and cthread (the
/// predicates for each kind are ir::isBlockTag and its siblings).
bool isValidThreadTag(const std::string &Tag);

/// A cache stage made by cache_read or cache_write. Its region stays symbolic
/// until lowering: the stage's shape, copy loops and consumer offsets are
/// written in terms of the placeholders Mins[d] and Extents[d] (`As.min0`,
/// `As.ext0`; see ir::StageRegion), which bound inference replaces. While not
/// computed at a loop the stage sits at the root: Allocate(Stage, Seq{copy
/// loops, rest}) for a read stage, Allocate(Stage, Seq{rest, write-back
/// loops}) for a write stage; compute_at moves the allocation and the copy.
struct StageInfo {
  ir::Buffer Cached; // the tensor the stage copies (A of cache_read(A, ...))
  std::string Name;  // the stage buffer's name (its node changes as it is rebuilt)
  bool IsWrite = false;
  std::vector<ir::Var> Mins, Extents; // placeholders, one per dimension of Cached
  bool ComputedAt = false;
  ir::Expr Parity; // (attach loop var - min) % 2, set by compute_at
  bool DoubleBuffer = false; // requested by double_buffer
  int DoubleBufferLoc = -1;
  bool DoubleBufferApplied = false; // the leading copy dimension exists
  int64_t AlignFactor = 0, AlignOffset = 0; // storage_align (0: none)
  int AlignAxis = -1; // the aligned axis (-1: the second-innermost)
  int Loc = -1; // the directive that placed it: cache_read/cache_write, then compute_at
};

/// The nest being scheduled and the diagnostics of this run.
struct ScheduleState {
  ir::LoopNest &Nest;
  std::vector<Diag> &Diags;
  /// Cache stages by name.
  std::map<std::string, StageInfo> Stages = {};
  /// Arrays set_scope made shared, with the location of its scope argument:
  /// checked again once every bind is known (finishStages).
  std::map<std::string, int> MadeShared = {};
  /// Loops reorder distributed over the statements of a sequence: the loop
  /// left on the path (by its variable) and the copies made for the other
  /// statements. bind applies to all of them.
  struct Distributed {
    ir::Var Loop;
    std::vector<ir::Var> Copies;
  };
  std::vector<Distributed> DistributedCopies = {};
  /// Reports an error at Loc; always returns false so callers can
  /// `return S.error(...)`.
  bool error(int Loc, const std::string &Msg);
  /// A remark at Loc (shown with -Rpass=sched).
  void remark(int Loc, const std::string &Msg);
};

/// Every loop of S in pre-order (outermost first).
std::vector<const ir::ForNode *> collectLoops(const ir::Stmt &S);

/// The loop named Arg.Text. Reports "no loop named ..." or an ambiguity at
/// Arg.Loc and returns nullptr when there is not exactly one.
const ir::ForNode *findLoop(ScheduleState &S, const DirectiveArg &Arg);

/// The loop whose variable is V (by identity), or nullptr.
const ir::ForNode *findLoopByVar(const ir::Stmt &Root, const ir::VarNode *V);

/// Checks that Arg.Text may name a new loop: no loop, parameter or
/// allocated buffer of the nest already has that name.
bool checkFreshName(ScheduleState &S, const DirectiveArg &Arg);
bool isFreshName(const ScheduleState &S, const std::string &Name);

/// S with every access to Old (by identity), and its Allocate, rewritten to
/// New; indices are shifted by -Offset[d] when Offset is not empty.
ir::Stmt replaceBuffer(const ir::Stmt &S, const ir::BufferNode *Old, const ir::Buffer &New,
                       const std::vector<ir::Expr> &Offset = {});

/// The Allocate of the buffer Buf (by identity) in Root, or nullptr.
const ir::AllocateNode *findAllocate(const ir::Stmt &Root, const ir::BufferNode *Buf);

/// The buffer parameter of the nest (an array it is given) named Name, or
/// nullptr.
ir::Buffer findParameterBuffer(const ScheduleState &S, const std::string &Name);

/// The buffer named Name: a buffer parameter or an allocation in the nest.
ir::Buffer findBufferByName(const ScheduleState &S, const std::string &Name);

/// The copy loops of a cache stage: loops Name.ax<d> over [0, Extents[d])
/// copying Cached[Mins + ax] into Stage[ax] (a read stage) or back (a write
/// stage). Unguarded: bound inference guards the copy once it knows the
/// region.
ir::Stmt makeStageLoops(const StageInfo &Info, const ir::Buffer &Stage);

/// The stage buffer Info describes, in scope Sc: shape Extents, the last
/// dimension padded by storage_align, a leading dimension of 2 once double
/// buffered.
ir::Buffer makeStageBuffer(const StageInfo &Info, ir::Scope Sc);

/// Rebuilds the allocated stage buffer from Info (after a directive changed
/// its shape) and rewrites every access; the first time a double-buffered
/// stage has its parity, accesses get it as a leading index.
bool rebuildStage(ScheduleState &S, StageInfo &Info, int Loc);

/// Whether E is built from stage sizes (As.ext<d>) and constants only: a
/// constant once bound inference has replaced the placeholders.
bool isStageSize(const ScheduleState &S, const ir::Expr &E);

/// A double-buffered stage's copy index must depend on serial loops only;
/// otherwise the stage keeps one copy, with a warning at the directive.
bool checkDoubleBufferLoop(ScheduleState &S, StageInfo &Info);

/// set_scope(a, shared) is refused for an array declared inside a loop bound
/// to threadIdx.*; reports at Loc.
bool checkSharedOutsideThreads(ScheduleState &S, const std::string &Array, int Loc);

/// The nest as the legality checks should see it (bind, reorder, fuse):
/// without its cache stages. A stage only renames what the computation
/// touches: every access to a stage becomes an access to its tensor at the
/// tensor's index (As[(i - As.min0), k] reads A[i, k]), and each stage's copy
/// or write-back and its allocation are gone. With the stages in, a
/// write-back's C[(Cl.min0 + Cl.ax0), ...] is the same element in every
/// iteration of the loops around it as far as an analysis can tell (the
/// region stays symbolic until bound inference), so every such loop would
/// seem to carry a dependence; bound inference makes the write-back store
/// exactly what the computation writes, so the computation's dependences are
/// the ones that count. Loops keep their variables (find them with
/// findLoopByVar). A stage's own loops (As.ax0, ...) are not in the view:
/// check those on the nest itself.
ir::Stmt withoutStages(const ScheduleState &S);

/// Checks what only the whole schedule decides (double_buffer's loop is
/// serial, set_scope's shared arrays are outside thread loops) and hands the
/// stages to bound inference (Nest.Stages).
bool finishStages(ScheduleState &S);

/// Parses a cache scope (global, shared or local); reports at Arg otherwise.
bool parseCacheScope(ScheduleState &S, const DirectiveArg &Arg, ir::Scope &Out);

/// Parses a stage's scope: global, shared or local, or a tensor-core
/// fragment scope (wmma.matrix_a/b for a read stage, wmma.accumulator for a
/// write stage); reports at Arg otherwise.
bool parseStageScope(ScheduleState &S, const DirectiveArg &Arg, bool IsWrite, ir::Scope &Out);

/// A write stage in a fragment scope: where the computation accumulates in
/// a local array of its own (`float acc = 0; ... acc += ...; C[..] = acc`)
/// and copies it into Stage, it accumulates in Stage instead (the fragment
/// is the accumulator, as in TVM's tensor-core schedules, and its
/// initialisation becomes a fill). Leaves the nest as it is otherwise.
/// AllowEpilogue (vta.acc): a copy Stage[g] = f(acc[h]) folds too, and stays
/// as the in-place epilogue Stage[g] = f(Stage[g]).
void foldAccumulatorIntoStage(ScheduleState &S, const ir::Buffer &Stage,
                              bool AllowEpilogue = false);

/// A vta.acc write stage holds int32 while the cached tensor is 8-bit: the
/// computation's stores `Stage[g] = (int8)e` keep e (the write-back narrows,
/// as VTA's store does), unless the computation reads the stage.
ir::Stmt storeUnnarrowedIntoVtaAcc(const ir::Stmt &Computation, const ir::Buffer &Stage);

/// Creates a cache stage named by D.Args[2] for the tensor D.Args[0].
bool makeCacheStage(ScheduleState &S, const Directive &D, bool IsWrite);

/// How a loop's kind reads in a message: "bound to threadIdx.x", "unrolled".
std::string describeLoopKind(const ir::ForNode *L);

/// Primitives. Each checks legality, reports at the offending argument, and
/// rewrites S.Nest.Body only when it succeeds.
bool applySplit(ScheduleState &S, const Directive &D);
bool splitLoop(ScheduleState &S, const DirectiveArg &Loop, const DirectiveArg &Outer,
               const DirectiveArg &Inner, const DirectiveArg &Factor);
bool applyTile(ScheduleState &S, const Directive &D);
bool applyReorder(ScheduleState &S, const Directive &D);
bool reorderLoops(ScheduleState &S, const std::vector<DirectiveArg> &Order);
bool applyFuse(ScheduleState &S, const Directive &D);
bool applyBind(ScheduleState &S, const Directive &D);
bool applyUnroll(ScheduleState &S, const Directive &D);
bool applyVectorize(ScheduleState &S, const Directive &D);
bool applyCacheRead(ScheduleState &S, const Directive &D);
bool applyCacheWrite(ScheduleState &S, const Directive &D);
bool applyComputeAt(ScheduleState &S, const Directive &D);
bool applySetScope(ScheduleState &S, const Directive &D);
bool applyStorageAlign(ScheduleState &S, const Directive &D);
bool applyDoubleBuffer(ScheduleState &S, const Directive &D);
bool applyTensorize(ScheduleState &S, const Directive &D);
bool applyTensorCore(ScheduleState &S, const Directive &D);
bool applyPragma(ScheduleState &S, const Directive &D);
bool applyPipeline(ScheduleState &S, const Directive &D);
bool applyRFactor(ScheduleState &S, const Directive &D);
bool applyAtomic(ScheduleState &S, const Directive &D);

} // namespace schedule
} // namespace sched

#endif
