//===- Prove.cpp - What the simplifier can prove about expressions --------===//
//
// See Prove.h. Built on the IR's visitor, mutator and simplifier only; the
// passes, codegen and the plugin share these.
//
//===----------------------------------------------------------------------===//
#include "ir/Prove.h"
#include "ir/Affine.h"
#include "ir/IRMutator.h"
#include "ir/Bounds.h"
#include "ir/Printer.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"

#include <numeric>

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

bool provablyEqualIndices(const std::vector<Expr> &A, const std::vector<Expr> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I)
    if (!provablyEqual(A[I], B[I]))
      return false;
  return true;
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

int64_t knownDivisor(const Expr &E) {
  if (const auto *I = as<IntImmNode>(E))
    return I->Value < 0 ? -I->Value : I->Value;
  if (const auto *C = as<CastNode>(E))
    return isInt(C->Value->Type) && isInt(C->Type) && dtypeBytes(C->Type) >= dtypeBytes(C->Value->Type) ? knownDivisor(C->Value) : 1;
  if (const auto *S = as<SelectNode>(E))
    return std::gcd(knownDivisor(S->TrueValue), knownDivisor(S->FalseValue));
  const auto *B = as<BinaryNode>(E);
  if (!B)
    return 1;
  int64_t X = knownDivisor(B->A), Y = knownDivisor(B->B);
  switch (B->Op) {
  case BinOp::Add:
  case BinOp::Sub:
  case BinOp::Min:
  case BinOp::Max:
    return std::gcd(X, Y);
  case BinOp::Mul: {
    int64_t P;
    return __builtin_mul_overflow(X, Y, &P) ? X : P;
  }
  case BinOp::Mod: // x % y = x - (x / y) * y: both terms are multiples of gcd(X, Y)
    return std::gcd(X, Y);
  case BinOp::Div: { // exact when the dividend is a multiple of a constant divisor
    int64_t D;
    return getConstInt(B->B, D) && D && X % D == 0 ? (X / D < 0 ? -X / D : X / D) : 1;
  }
  default:
    return 1;
  }
}

bool provablyMultipleOf(const Expr &E, int64_t N) {
  if (divideExactly(E, N))
    return true;
  int64_t D = knownDivisor(simplify(E));
  return N && D % N == 0;
}

void addDivisorFacts(const Expr &Cond, DivisorFacts &Facts) {
  for (const Expr &C : conjunctsOf(Cond)) {
    const auto *Eq = as<BinaryNode>(C);
    const auto *Mod = Eq && Eq->Op == BinOp::EQ ? as<BinaryNode>(Eq->A) : nullptr;
    int64_t Zero, D;
    if (!Mod || Mod->Op != BinOp::Mod || !getConstInt(Eq->B, Zero) || Zero != 0 ||
        !getConstInt(Mod->B, D) || D <= 0)
      continue;
    if (const auto *V = as<VarNode>(Mod->A)) {
      auto &Known = Facts[V];
      Known = {Mod->A, Known.second ? std::lcm(Known.second, D) : D};
    }
  }
}

std::vector<Expr> withDivisorFacts(const std::vector<Expr> &Shape, const DivisorFacts &Facts) {
  if (Facts.empty())
    return Shape;
  std::map<const VarNode *, Expr> Map;
  for (const auto &[V, Fact] : Facts)
    Map[V] = (Fact.first / makeInt(Fact.second, Fact.first->Type)) *
             makeInt(Fact.second, Fact.first->Type);
  std::vector<Expr> Out;
  for (const Expr &Dim : Shape)
    Out.push_back(substitute(Dim, Map));
  return Out;
}

bool provablyAligned(const LoadNode *L, int64_t Bytes) {
  int64_t Size = dtypeBytes(L->Buf->Type);
  return provablyMultipleOf(flatIndex(L->Buf->Shape, L->Indices) * makeInt(Size), Bytes);
}

} // namespace ir
} // namespace sched
