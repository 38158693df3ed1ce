//===- ExtractLayout.h - Shapes of buffers the extractor finds --*- C++ -*-===//
//
// The extractor sees C++ pointers and one-dimensional arrays indexed by one
// flat expression (`A[i * K + k]`). This file decides which
// multi-dimensional shape such a buffer gets in the IR (A[i, k] with shape
// [M, K]) and rewrites each flat index into per-dimension indices; when that
// is not the same element for every iteration, provably or under
// assumptions over parameters checked at run time, it keeps the buffer
// one-dimensional, which is always correct. It also sizes the outermost dimension of pointers from the
// loop bounds, so that the shape covers every element the nest touches.
//
// Private to the plugin; the IR's own analyses (Affine.h, Bounds.h,
// Simplify.h) do the work, this file only chooses strides.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PLUGIN_EXTRACTLAYOUT_H
#define SCHED_PLUGIN_EXTRACTLAYOUT_H

#include "ir/Bounds.h"
#include "ir/IR.h"

#include <vector>

namespace sched {
namespace extract {

/// Coef * product(Syms): a term of a polynomial over scalar parameters.
struct Monomial {
  int64_t Coef = 1;
  std::vector<ir::Var> Syms; // canonical order (name, then identity)
};

/// A sum of monomials with distinct symbol lists and non-zero coefficients.
using Polynomial = std::vector<Monomial>;

/// Converts an integer expression over +, -, *, literals and variables into a
/// polynomial; false for anything else (division, loads, ...).
bool toPolynomial(const ir::Expr &E, Polynomial &Out);

/// The layout chosen for a buffer indexed through one flat index (a pointer,
/// or an array declared with one dimension).
class FlatLayout {
public:
  /// Chooses a layout for a buffer accessed with FlatIndices, where loop
  /// variables range over Ranges. DeclaredSize is the element count of an
  /// array (the shape then multiplies out to it), null for a pointer (the
  /// outermost extent then covers every index). False when some index
  /// cannot be bounded.
  static bool choose(const std::vector<ir::Expr> &FlatIndices, const ir::VarRanges &Ranges,
                     const ir::Expr &DeclaredSize, FlatLayout &Out);

  /// Row-major extents, outermost first.
  std::vector<ir::Expr> Shape;

  /// Conditions over parameters under which the delinearized indices name
  /// the elements the flat ones do (`N <= ld` for `i*ld + j`, j < N); the
  /// launcher checks them before each launch. Empty when provable.
  std::vector<ir::Expr> Assumptions;

  /// The per-dimension indices of one of the flat indices given to choose.
  std::vector<ir::Expr> delinearize(const ir::Expr &Flat) const;

private:
  /// Makes Candidates (1 among them) the strides if they form a chain and
  /// every access fits inside the shape they give (under run-time
  /// assumptions only when MayAssume).
  bool tryStrides(std::vector<Polynomial> Candidates, const std::vector<ir::Expr> &FlatIndices,
                  const ir::Expr &DeclaredSize, bool MayAssume);
  /// Whether constant strides would need an assumption Assumed that caps a
  /// size the row indices Outer range over (it holds only for tiny arrays).
  bool capsRows(const std::vector<ir::Expr> &Outer, const std::vector<ir::Expr> &Assumed) const;
  /// Splits Flat into one index per stride; false if some term does not fit.
  bool split(const ir::Expr &Flat, std::vector<ir::Expr> &Dims) const;
  /// Moves whole rows between the indices split gave for Flat so that each
  /// inner one stays inside its dimension (the conditions that needs go to
  /// Assumed); false when no such move is found.
  bool fit(const ir::Expr &Flat, std::vector<ir::Expr> &Dims,
           std::vector<ir::Expr> &Assumed) const;

  std::vector<Polynomial> Strides; // outermost first; the last is 1
  std::vector<const ir::VarNode *> IndexVars; // the loop variables
  ir::VarRanges Ranges;                       // their ranges
};

/// Adds Cond to Out unless an identical condition is already there.
void addAssumption(std::vector<ir::Expr> &Out, const ir::Expr &Cond);

/// The extent that covers index 0 .. max of Indices over Ranges (the largest
/// index plus one); false when some index has no upper bound.
bool extentCovering(const std::vector<ir::Expr> &Indices, const ir::VarRanges &Ranges,
                    ir::Expr &Out);

/// True when some index is provably negative at some iteration (its lower
/// bound over Ranges is a negative constant). Lower bounds that depend on
/// parameters are assumed non-negative: a pointer's region starts at 0.
bool someIndexIsNegative(const std::vector<ir::Expr> &Indices, const ir::VarRanges &Ranges);

/// The loop ranges as a box over the parameters: a bound that uses an
/// enclosing loop's variable or min/max (a triangular or clamped loop, `j <
/// min(M, i + 1)`) is replaced by a looser bound without them (`j <= M - 1`:
/// min(a, b) <= a, the enclosing variable at its own bound), so that the
/// layout's polynomial reasoning sees the hull of the nest's iterations. A
/// bound that cannot be loosened so is kept as it is. Of a min (max) with a
/// constant arm, PreferConstant takes that arm (`min(m, 8)`: rows of 8 with
/// no assumption on m); else the arm written without loop variables
/// (`min(M, i)`, i < 16, in rows of 12*M: j <= M - 1 fits them, j <= 14 only
/// where 15 <= M; `min(3, j + 1)`: 3), failing that the one not constant.
ir::VarRanges polynomialBox(const ir::VarRanges &Ranges, bool PreferConstant = true);

} // namespace extract
} // namespace sched

#endif
