//===- Prove.h - What the simplifier can prove about expressions -*- C++ -*-===//
//
// Equalities, bounds and divisibility of integer expressions, as far as the
// simplifier and affine forms can tell: false means "not proven", never
// "different". Asked by passes (is this guard redundant, is this access
// aligned) and by codegen (is this loop exactly the launch extent).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_PROVE_H
#define SCHED_IR_PROVE_H

#include "ir/IR.h"
#include <cstdint>
#include <map>
#include <set>

namespace sched {
namespace ir {

/// True when A and B are equal for every value of their variables, as far
/// as the simplifier can tell (false means "not proven", not "different").
bool provablyEqual(const Expr &A, const Expr &B);

/// The same number of indices, each pair provablyEqual.
bool provablyEqualIndices(const std::vector<Expr> &A, const std::vector<Expr> &B);

/// True when A <= B for every value of their variables, as far as the
/// simplifier can tell: B - A folds to a non-negative constant, or A is a
/// min with one such operand (a max with both).
bool provablyLessOrEqual(const Expr &A, const Expr &B);

/// E / N where E is affine with every coefficient and the constant provably
/// multiples of N (simplified); null otherwise.
Expr divideExactly(const Expr &E, int64_t N);

/// A number E is a multiple of for all values of its variables, by the
/// structure of E (0 when E is 0): constants, sums, products, `x % c` and
/// exact divisions by constants (Halide's modulus analysis, without the
/// remainder). 1 when nothing is known.
int64_t knownDivisor(const Expr &E);

/// Divisors known of variables where a condition holds: `K % 8 == 0`
/// gives K -> 8 (the full-tile copy of a tensor-core kernel runs under
/// such conditions, and its 16-byte copies need them).
/// By variable: the variable (as an expression) and its divisor.
using DivisorFacts = std::map<const VarNode *, std::pair<Expr, int64_t>>;

/// Adds the facts the conjuncts `v % c == 0` (c a positive constant) of
/// Cond state to Facts.
void addDivisorFacts(const Expr &Cond, DivisorFacts &Facts);

/// Shape with each variable v of Facts written `(v / c) * c` (equal to v
/// where the facts hold), so that the flat index of an access shows the
/// divisor to provablyMultipleOf.
std::vector<Expr> withDivisorFacts(const std::vector<Expr> &Shape, const DivisorFacts &Facts);

/// Whether E is provably a multiple of N for all values of its variables:
/// affine with every coefficient and the constant multiples of N, or so by
/// knownDivisor.
bool provablyMultipleOf(const Expr &E, int64_t N);

/// Whether the element L loads is provably a multiple of Bytes from the start
/// of its buffer (whose start is aligned: cudaMalloc, __align__(32)): its
/// flat offset, an affine form, has every coefficient and the constant a
/// multiple of Bytes once multiplied by the element size.
bool provablyAligned(const LoadNode *L, int64_t Bytes);

/// An integer expression as Rest + sum(Coef[v] * v) over the variables Vars,
/// with constant coefficients (linearIn is false otherwise, or when E is not
/// affine in them). Rest holds everything else (other variables, constants).
struct LinearIndex {
  std::map<const VarNode *, int64_t> Coef; // zero coefficients omitted
  Expr Rest;
  int64_t coef(const VarNode *V) const {
    auto It = Coef.find(V);
    return It == Coef.end() ? 0 : It->second;
  }
};
bool linearIn(const Expr &E, const std::set<const VarNode *> &Vars, LinearIndex &Out);

} // namespace ir
} // namespace sched

#endif
