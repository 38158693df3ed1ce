//===- Schedule.h - Applying #pragma sched directives to a nest -*- C++ -*-===//
//
// The frontend parses `#pragma sched` lines into Directives (no Clang types
// here: locations are opaque ids the frontend maps back to SourceLocations so
// diagnostics can put the caret on the offending token). applySchedule runs
// the primitives in order, each after its legality check.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_SCHEDULE_SCHEDULE_H
#define SCHED_SCHEDULE_SCHEDULE_H

#include "ir/Diag.h"
#include "ir/IR.h"
#include <string>
#include <vector>

namespace sched {

/// One argument of a directive, as written: an identifier (`io`, `As.ax0`),
/// a thread tag (`blockIdx.x`), an integer (`64`), a key=value (`nparts=4`).
struct DirectiveArg {
  std::string Text;
  int Loc = -1; // opaque source location id (frontend-defined)
};

struct Directive {
  std::string Name;                // "split", "tile", "bind", ...
  std::vector<DirectiveArg> Args;
  int Loc = -1;                    // location id of the directive name
};

/// Applies Dirs to Nest in order. `target(...)` sets Nest.Target. Returns
/// false (Nest unspecified) if any directive is illegal; every problem found
/// is appended to Diags.
bool applySchedule(ir::LoopNest &Nest, const std::vector<Directive> &Dirs,
                   std::vector<Diag> &Diags);

/// Checks Dirs against a nest known only by its loops (Loops: the nest's
/// `for`s with no statements, where the frontend could not translate the
/// nest itself): directives that name only loops are applied, the others
/// (and those that name what they make) skipped. Appends every problem found
/// to Diags, as applySchedule would have.
void checkDirectivesOnLoops(const ir::Stmt &Loops, const std::vector<Directive> &Dirs,
                            std::vector<Diag> &Diags);

/// The directive names applySchedule understands (for the parser's
/// "unknown directive" diagnostic and its arity table).
bool isKnownDirective(const std::string &Name);

} // namespace sched

#endif
