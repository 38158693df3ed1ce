//===- Simplify.h - Algebraic simplification of index arithmetic -*- C++ -*-===//
//
// Constant folding and canonicalization of integer affine arithmetic, so that
// split/fuse index expressions print and compile in their simplest form:
// (io*8 + ii) stays, ((x*1) + 0) becomes x, ((a + 3) + 4) becomes (a + 7),
// (i*8 + j)/8 becomes i when 0 <= j < 8 is known, if (true) drops the branch.
// Never changes the value of an expression for any input.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_SIMPLIFY_H
#define SCHED_IR_SIMPLIFY_H

#include "Bounds.h"
#include "IR.h"

namespace sched {
namespace ir {

/// Simplifies E; Ranges (optional) gives known ranges of variables.
Expr simplify(const Expr &E, const VarRanges *Ranges = nullptr);
/// Simplifies every expression in S; loop variables get their loop's range,
/// and statements under a constant-false condition are dropped.
Stmt simplify(const Stmt &S);

/// Constant folding and affine canonicalization only (no range reasoning):
/// integer sums are collected into terms in order of first appearance, so
/// ((io*8) + ii) stays and ((i + 1) + (i*2)) becomes ((i*3) + 1).
Expr canonicalize(const Expr &E);

/// True when A and B are the same expression tree (variables and buffers
/// compared by identity, literals by type and value).
bool structurallyEqual(const Expr &A, const Expr &B);
/// Element by element, and as many elements.
bool structurallyEqual(const std::vector<Expr> &A, const std::vector<Expr> &B);

} // namespace ir
} // namespace sched

#endif
