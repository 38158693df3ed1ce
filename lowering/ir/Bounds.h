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
#include <set>
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

/// Expressions over unranged variables known to be >= 0 where an expression
/// is evaluated: an access happens only where its loops run (`for (k, 0, K)`
/// gives K - 1 >= 0) and its guards hold. They give the sign of a size that
/// multiplies a ranged variable, so `(i - 1)*K` is bounded below by -K.
using NonNegativeFacts = std::vector<Expr>;

/// The interval of E over Ranges. Exact for affine expressions (sum of
/// terms coef*var); conservative (possibly unbounded) otherwise. A product
/// of a ranged value and an unranged factor is bounded where Facts prove the
/// factor's sign. Results are simplified.
Interval boundsOf(const Expr &E, const VarRanges &Ranges, const NonNegativeFacts &Facts = {});

/// The values a loop's variable takes, [Min, Min + Extent - 1].
Interval loopRange(const ForNode *L);

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

/// The region an index tuple takes under Guards when the variables in Ranges
/// range (regionTouched's per-access step). Dimensions whose bound is unknown
/// come back unbounded. Facts: what holds where the access happens (see
/// accessFacts).
Region boxOf(const std::vector<Expr> &Indices, const std::vector<Expr> &Guards,
             const VarRanges &Ranges, GuardUse Use, const NonNegativeFacts &Facts = {});

/// What holds where an access under Guards happens, its variables over
/// Ranges: each ranged variable's range is non-empty (its loop runs: Max -
/// Min >= 0) and each comparison guard holds somewhere in the ranges (`ko*8 +
/// ki < K` gives K - 1 >= 0).
NonNegativeFacts accessFacts(const std::vector<Expr> &Guards, const VarRanges &Ranges);

/// Whether the index tuple takes every value in boxOf(Indices, Guards,
/// Ranges, Tighten): each dimension a dense mixed-radix sum of ranged
/// variables (`ty*8 + ii`, ty < 8) that no other dimension uses, every
/// range non-empty and independent of the others, every guard on them a
/// bound on one whole index (what Tighten narrows the box by). The other
/// ranged variables and the guards on them only decide whether the access
/// happens: that existence condition (existenceCondition) and the guards free
/// of ranged variables are appended to FixedGuards; where one of them is false
/// nothing is touched. FixedGuards use no ranged variable: a condition that
/// does (a reduction loop whose extent depends on an index variable) must
/// hold for all of their values, else the box is not covered. Context gives
/// ranges of other variables. Conservative: false when it cannot tell.
/// (A cache_write's write-back copies a box only where the computation
/// writes all of it.)
bool coversBox(const std::vector<Expr> &Indices, const std::vector<Expr> &Guards,
               const VarRanges &Ranges, const VarRanges &Context,
               std::vector<Expr> &FixedGuards);

/// The conditions on the other variables under which some values of the
/// variables in Free (each over its range) satisfy every condition in Conds:
/// each range is non-empty, and each condition, a comparison with an affine
/// sum of free variables on one side that no other condition shares, holds
/// at that side's extreme (`ko*8 + ki < K` for ko, ki free becomes `0 < K`).
/// False when the conditions do not have that form. (A loop no index uses
/// only decides whether an access happens.)
bool existenceCondition(const std::vector<Expr> &Conds, const VarRanges &Free,
                        std::vector<Expr> &Out);

/// A constant C with E <= C for every value of the variables in Ranges.
/// min/max inside sums are distributed first, so min(a*8 + 7, n - 1) - a*8 + 1
/// is bounded by 8.
bool constantUpperBound(const Expr &E, const VarRanges &Ranges, int64_t &Out);

/// Whether A <= B for every value of the variables in Ranges, as far as
/// interval reasoning (with min/max split into their arms) can prove.
bool provablyLessEq(const Expr &A, const Expr &B, const VarRanges &Ranges);

/// Bounds E is the min (Arms = Min) or max (Max) of: E itself, or the arms
/// of a min/max E is (with min/max inside sums distributed out), so that
/// `x <= min(a, b)` can be checked, and guarded, arm by arm.
std::vector<Expr> minMaxArms(const Expr &E, BinOp Arms);

/// Whether S writes Buf (a store, or an intrinsic declaring it written).
/// A cache stage's copy is the statement of its allocation that writes the
/// stage (a read stage) or the tensor (a write-back).
bool writesBuffer(const Stmt &S, const BufferNode *Buf);

/// Whether E loads from one of Bufs (a guard or bound that does cannot be
/// evaluated at another time than the computation's; an update that reads
/// its own accumulator).
bool loadsFrom(const Expr &E, const std::set<const BufferNode *> &Bufs);

/// The conjuncts of a condition (`a && b` gives a and b).
std::vector<Expr> conjunctsOf(const Expr &Cond);

/// A guard comparison as Lo < Hi (Strict) or Lo <= Hi.
struct Ordering {
  Expr Lo, Hi;
  bool Strict;
  /// Hi - Lo, less 1 when strict: >= 0 exactly where the comparison holds.
  Expr slack() const;
};

/// The integer comparisons among the conjuncts of Guards that read no memory
/// and are not == or !=, each as an Ordering: what bounds a variable or an
/// index where an access happens.
std::vector<Ordering> orderingsOf(const std::vector<Expr> &Guards);

} // namespace ir
} // namespace sched

#endif
