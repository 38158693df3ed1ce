//===- ScheduleImpl.h - Internals shared by the schedule primitives -*- C++ -*-===//
//
// Not a public contract: the directive table (read by the directive parser
// and by isKnownDirective), the state of one applySchedule run, loop lookup
// by name with its diagnostics, and the entry point of each primitive (one
// file per primitive: Split.cpp, Tile.cpp, Reorder.cpp, Fuse.cpp, Bind.cpp,
// Annotate.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_SCHEDULE_SCHEDULEIMPL_H
#define SCHED_SCHEDULE_SCHEDULEIMPL_H

#include "ir/IR.h"
#include "schedule/Schedule.h"
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

/// True for blockIdx.{x,y,z}, threadIdx.{x,y,z}, vthread and cthread.
bool isValidThreadTag(const std::string &Tag);
bool isBlockTag(const std::string &Tag);
bool isThreadIdxTag(const std::string &Tag);

/// The nest being scheduled and the diagnostics of this run.
struct ScheduleState {
  ir::LoopNest &Nest;
  std::vector<Diag> &Diags;

  /// Reports an error at Loc; always returns false so callers can
  /// `return S.error(...)`.
  bool error(int Loc, const std::string &Msg);
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

/// The statements enclosing Target inside Root, outermost first (Target
/// itself excluded). Returns false when Target is not in Root.
bool enclosingStmts(const ir::Stmt &Root, const ir::StmtNode *Target,
                    std::vector<const ir::StmtNode *> &Out);

/// Root with the statement Old (by identity) replaced by New.
ir::Stmt replaceStmt(const ir::Stmt &Root, const ir::StmtNode *Old, const ir::Stmt &New);

/// True when E mentions variable V.
bool usesVar(const ir::Expr &E, const ir::VarNode *V);
bool usesVar(const ir::Stmt &S, const ir::VarNode *V);

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

} // namespace schedule
} // namespace sched

#endif
