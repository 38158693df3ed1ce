//===- Bounds.h - Interval bounds of expressions (bound inference core) -*- C++ -*-===//
//
// The one bound analysis of the project: the range [Min, Max] (inclusive,
// symbolic: expressions over parameters) an expression can take when its
// variables range over given intervals. Region analysis (which part of a
// buffer a statement touches), launch regions, guards and (later) cache-stage
// bound inference are all built on it.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_BOUNDS_H
#define SCHED_IR_BOUNDS_H

#include "IR.h"
#include <map>
#include <vector>

namespace sched {
namespace ir {

/// Inclusive interval; a null Min or Max means unbounded on that side.
struct Interval {
  Expr Min, Max;
  bool isBounded() const { return Min && Max; }
  static Interval point(Expr E) { return {E, E}; }
};

/// Known ranges of variables (by identity). Variables not in the map are
/// treated as symbols (their interval is the point {v, v}).
using VarRanges = std::map<const VarNode *, Interval>;

/// The interval of E over Ranges. Exact for affine expressions (sum of
/// terms coef*var); conservative (possibly unbounded) otherwise. Results are
/// simplified.
Interval boundsOf(const Expr &E, const VarRanges &Ranges);

/// Region of a buffer: one Interval per dimension.
using Region = std::vector<Interval>;

/// Whether a region may be narrowed by the guards around its accesses
/// (`if (b*64 + t < n) In[b*64 + t]` reads no further than n - 1). Bounds
/// tightened that way are exact but symbolic: the launcher's copy regions
/// want them (never copy past the user's array); cache stages, which need
/// constant box extents, do not.
enum class GuardUse { Ignore, Tighten };

/// The region of Buf that S reads (Reads=true) or writes (Reads=false),
/// with the variables of loops inside S relaxed over their ranges and the
/// variables in Outer relaxed too. Returns false when S does not touch Buf
/// that way. Dimensions whose bound is unknown come back unbounded.
bool regionTouched(const Stmt &S, const Buffer &Buf, bool Reads, const VarRanges &Outer,
                   Region &Out, GuardUse Guards = GuardUse::Ignore);

} // namespace ir
} // namespace sched

#endif
