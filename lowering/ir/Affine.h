//===- Affine.h - Linear forms of integer expressions ----------*- C++ -*-===//
//
// An integer expression as Constant + sum(Coef_v * v). The extractor uses it
// to recognize and delinearize accesses (A[i*K + k] -> A[i, k]), schedule
// legality and the access analysis use it to compare indices.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_AFFINE_H
#define SCHED_IR_AFFINE_H

#include "IR.h"
#include <functional>
#include <map>

namespace sched {
namespace ir {

/// Constant + sum of Coefs[v] * v, where coefficients are themselves
/// expressions free of the variables in the form (e.g. `i*K + k` has
/// Coefs[i] = K, Coefs[k] = 1 when only i and k are "indexing" variables).
struct AffineForm {
  std::map<const VarNode *, Expr> Coefs; // zero coefficients are omitted
  std::map<const VarNode *, Var> VarsByNode; // keeps the Var handles alive
  Expr Constant;                          // never null (0 when absent)
};

/// Linearizes E with respect to the variables for which IsIndexVar returns
/// true; other variables (parameters) may appear in coefficients and the
/// constant. Returns false when E is not affine in those variables (products
/// of two index variables, division or modulo of an index variable, loads).
template <typename Pred>
bool toAffine(const Expr &E, Pred IsIndexVar, AffineForm &Out);
bool toAffineImpl(const Expr &E, const std::function<bool(const VarNode *)> &IsIndexVar,
                  AffineForm &Out);
template <typename Pred>
bool toAffine(const Expr &E, Pred IsIndexVar, AffineForm &Out) {
  return toAffineImpl(E, IsIndexVar, Out);
}

/// Rebuilds an expression from a form (simplified).
Expr fromAffine(const AffineForm &F);

/// Whether E's value may differ from the integer its arithmetic stands for
/// because an unsigned operation wrapped: an unsigned -, unary - or ~, <<,
/// an unsigned + or * narrower than 64 bits, an unsigned literal at or above
/// 2^63, or a conversion to an unsigned type from a signed value (other than
/// an int64 loop counter, see exactCast in Affine.cpp). A comparison of
/// unsigned values constrains the integers only where neither side may wrap.
bool mayWrap(const Expr &E);

} // namespace ir
} // namespace sched

#endif
