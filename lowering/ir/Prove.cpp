//===- Prove.cpp - What the simplifier can prove about expressions --------===//
//
// See Prove.h. Built on the IR's visitor, mutator and simplifier only; the
// passes, codegen and the plugin share these.
//
//===----------------------------------------------------------------------===//
#include "ir/Prove.h"
#include "ir/Affine.h"
#include "ir/Printer.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"

namespace sched {
namespace ir {

bool provablyEqual(const Expr &A, const Expr &B) {
  if (!A || !B)
    return false;
  if (A == B)
    return true;
  int64_t X, Y;
  if (getConstInt(A, X) && getConstInt(B, Y))
    return X == Y;
  int64_t Diff;
  if (getConstInt(simplify(A - B), Diff))
    return Diff == 0;
  // Syntactic equality covers symbolic extents the simplifier leaves alone.
  return print(simplify(A)) == print(simplify(B));
}

bool provablyLessOrEqual(const Expr &A, const Expr &B) {
  if (!A || !B)
    return false;
  if (const auto *M = as<BinaryNode>(A)) {
    if (M->Op == BinOp::Min)
      return provablyLessOrEqual(M->A, B) || provablyLessOrEqual(M->B, B);
    if (M->Op == BinOp::Max)
      return provablyLessOrEqual(M->A, B) && provablyLessOrEqual(M->B, B);
  }
  int64_t Diff;
  return getConstInt(simplify(B - A), Diff) && Diff >= 0;
}

Expr divideExactly(const Expr &E, int64_t N) {
  AffineForm F;
  if (!toAffine(simplify(E), [](const VarNode *) { return true; }, F))
    return nullptr;
  int64_t C;
  if (!getConstInt(simplify(F.Constant), C) || C % N)
    return nullptr;
  F.Constant = makeInt(C / N, E->Type);
  for (auto &[V, Coef] : F.Coefs) {
    if (!getConstInt(simplify(Coef), C) || C % N)
      return nullptr;
    Coef = makeInt(C / N, E->Type);
  }
  return simplify(fromAffine(F));
}

bool linearIn(const Expr &E, const std::set<const VarNode *> &Vars, LinearIndex &Out) {
  AffineForm F;
  if (!toAffine(simplify(E), [&](const VarNode *V) { return Vars.count(V) > 0; }, F))
    return false;
  Out.Coef.clear();
  for (const auto &[V, Coef] : F.Coefs) {
    int64_t C;
    if (!getConstInt(simplify(Coef), C))
      return false;
    if (C)
      Out.Coef[V] = C;
  }
  Out.Rest = simplify(F.Constant);
  return true;
}

bool provablyMultipleOf(const Expr &E, int64_t N) { return divideExactly(E, N) != nullptr; }

bool provablyAligned(const LoadNode *L, int64_t Bytes) {
  int64_t Size = dtypeBytes(L->Buf->Type);
  return provablyMultipleOf(flatIndex(L->Buf->Shape, L->Indices) * makeInt(Size), Bytes);
}

} // namespace ir
} // namespace sched
