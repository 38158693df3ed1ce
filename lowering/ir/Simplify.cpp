//===- Simplify.cpp - Algebraic simplification of index arithmetic --------===//
//
// One bottom-up rewriter with two modes. Without ranges (canonicalize) it
// folds constants and rewrites every integer sum as a linear combination of
// "atoms" (variables and anything that is not +, - or *constant), merging
// equal atoms and keeping them in order of first appearance so that split
// and fuse indices stay readable. With ranges (simplify) it also uses
// boundsOf to decide comparisons, drop min/max arms and cancel divisions and
// modulos by constants: ((i*8) + j)/8 -> i when 0 <= j < 8.
//
//===----------------------------------------------------------------------===//

#include "Simplify.h"
#include "IRMutator.h"
#include "Rewrite.h"
#include "Scope.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>

namespace sched {
namespace ir {

//===----------------------------------------------------------------------===//
// Structural equality
//===----------------------------------------------------------------------===//

bool structurallyEqual(const std::vector<Expr> &A, const std::vector<Expr> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I)
    if (!structurallyEqual(A[I], B[I]))
      return false;
  return true;
}

bool structurallyEqual(const Expr &A, const Expr &B) {
  if (A == B)
    return true;
  if (!A || !B || A->Kind != B->Kind || A->Type != B->Type)
    return false;
  switch (A->Kind) {
  case ExprKind::IntImm:
    return as<IntImmNode>(A)->Value == as<IntImmNode>(B)->Value;
  case ExprKind::FloatImm:
    return as<FloatImmNode>(A)->Value == as<FloatImmNode>(B)->Value;
  case ExprKind::Var:
    return false; // identity was compared above
  case ExprKind::Binary: {
    const auto *X = as<BinaryNode>(A), *Y = as<BinaryNode>(B);
    return X->Op == Y->Op && structurallyEqual(X->A, Y->A) && structurallyEqual(X->B, Y->B);
  }
  case ExprKind::Unary: {
    const auto *X = as<UnaryNode>(A), *Y = as<UnaryNode>(B);
    return X->Op == Y->Op && structurallyEqual(X->A, Y->A);
  }
  case ExprKind::Select: {
    const auto *X = as<SelectNode>(A), *Y = as<SelectNode>(B);
    return structurallyEqual(X->Cond, Y->Cond) && structurallyEqual(X->TrueValue, Y->TrueValue) &&
           structurallyEqual(X->FalseValue, Y->FalseValue);
  }
  case ExprKind::Cast:
    return structurallyEqual(as<CastNode>(A)->Value, as<CastNode>(B)->Value);
  case ExprKind::Load: {
    const auto *X = as<LoadNode>(A), *Y = as<LoadNode>(B);
    return X->Buf == Y->Buf && structurallyEqual(X->Indices, Y->Indices);
  }
  case ExprKind::Call: {
    const auto *X = as<CallNode>(A), *Y = as<CallNode>(B);
    return X->Name == Y->Name && structurallyEqual(X->Args, Y->Args);
  }
  }
  return false;
}

namespace {

//===----------------------------------------------------------------------===//
// Linear combinations of atoms
//===----------------------------------------------------------------------===//

bool intConst(const Expr &E, int64_t &V) { return E && isInt(E->Type) && getConstInt(E, V); }

struct Linear {
  std::vector<std::pair<Expr, int64_t>> Terms; // atom, coefficient (first appearance order)
  int64_t Constant = 0;
};

bool addTerm(Linear &L, const Expr &Atom, int64_t Coef) {
  for (auto &T : L.Terms)
    if (structurallyEqual(T.first, Atom))
      return !__builtin_add_overflow(T.second, Coef, &T.second);
  L.Terms.push_back({Atom, Coef});
  return true;
}

/// Adds Scale*E to L. False on overflow (the caller keeps E as it is).
bool linearize(const Expr &E, int64_t Scale, Linear &L, int Depth = 0) {
  int64_t C;
  if (intConst(E, C)) {
    int64_t Scaled;
    return !__builtin_mul_overflow(C, Scale, &Scaled) &&
           !__builtin_add_overflow(L.Constant, Scaled, &L.Constant);
  }
  if (Depth > 200)
    return addTerm(L, E, Scale);
  if (const auto *B = as<BinaryNode>(E)) {
    if (B->A->Type == E->Type && B->B->Type == E->Type) {
      if (B->Op == BinOp::Add)
        return linearize(B->A, Scale, L, Depth + 1) && linearize(B->B, Scale, L, Depth + 1);
      if (B->Op == BinOp::Sub)
        return linearize(B->A, Scale, L, Depth + 1) && linearize(B->B, -Scale, L, Depth + 1);
      int64_t Factor, Scaled;
      if (B->Op == BinOp::Mul && (intConst(B->B, Factor) || intConst(B->A, Factor))) {
        const Expr &Other = intConst(B->B, Factor) ? B->A : B->B;
        return !__builtin_mul_overflow(Scale, Factor, &Scaled) &&
               linearize(Other, Scaled, L, Depth + 1);
      }
    }
  }
  if (const auto *U = as<UnaryNode>(E))
    if (U->Op == UnOp::Neg)
      return linearize(U->A, -Scale, L, Depth + 1);
  return addTerm(L, E, Scale);
}

/// A literal of T with value V: unsigned arithmetic is modulo 2^bits, so a
/// sum's constant is reduced to T's range (signed sums stay as they are:
/// overflowing them is undefined).
Expr literalOf(int64_t V, DType T) { return makeInt(isUnsigned(T) ? wrapToType(V, T) : V, T); }

Expr scaledTerm(const Expr &Atom, int64_t Coef, DType T) {
  return Coef == 1 ? Atom : makeBinary(BinOp::Mul, Atom, literalOf(Coef, T));
}

/// Positive terms first (in appearance order), then negative ones as
/// subtractions, then the constant: ((io*8) + ii), (M - i), (7 - i).
Expr rebuild(const Linear &L, DType T) {
  Expr Result;
  bool ConstantUsed = false;
  for (const auto &Term : L.Terms)
    if (Term.second > 0)
      Result = Result ? makeBinary(BinOp::Add, Result, scaledTerm(Term.first, Term.second, T))
                      : scaledTerm(Term.first, Term.second, T);
  for (const auto &Term : L.Terms) {
    if (Term.second >= 0)
      continue;
    if (!Result && L.Constant != 0) {
      Result = literalOf(L.Constant, T);
      ConstantUsed = true;
    }
    if (!Result || Term.second == INT64_MIN)
      Result = Result ? makeBinary(BinOp::Add, Result, scaledTerm(Term.first, Term.second, T))
                      : scaledTerm(Term.first, Term.second, T);
    else
      Result = makeBinary(BinOp::Sub, Result, scaledTerm(Term.first, -Term.second, T));
  }
  if (!Result)
    return literalOf(L.Constant, T);
  if (ConstantUsed || L.Constant == 0)
    return Result;
  if (L.Constant > 0 || L.Constant == INT64_MIN)
    return makeBinary(BinOp::Add, Result, literalOf(L.Constant, T));
  return makeBinary(BinOp::Sub, Result, literalOf(-L.Constant, T));
}

bool isLinearOp(const Expr &E) {
  if (const auto *B = as<BinaryNode>(E))
    return isInt(E->Type) &&
           (B->Op == BinOp::Add || B->Op == BinOp::Sub || B->Op == BinOp::Mul);
  if (const auto *U = as<UnaryNode>(E))
    return isInt(E->Type) && U->Op == UnOp::Neg;
  return false;
}

//===----------------------------------------------------------------------===//
// Constant folding helpers
//===----------------------------------------------------------------------===//

bool floatConst(const Expr &E, double &V) {
  const auto *F = as<FloatImmNode>(E);
  if (!F)
    return false;
  V = F->Value;
  return true;
}

/// Rounds a folded value to the precision of its type.
Expr makeFloatOfType(double V, DType T) {
  if (T == DType::Float32 || T == DType::Float16)
    V = static_cast<float>(V);
  return makeFloat(V, T);
}

//===----------------------------------------------------------------------===//
// The rewriter
//===----------------------------------------------------------------------===//

class Simplifier : public IRMutator {
public:
  /// UseBounds: reason with ranges (Ranges plus the loops and lets entered).
  Simplifier(const VarRanges *Initial, bool UseBounds) : UseBounds(UseBounds) {
    if (Initial)
      Ranges = *Initial;
  }

protected:
  Expr mutateBinary(const Expr &E, const BinaryNode *N) override {
    Expr Rebuilt = IRMutator::mutateBinary(E, N);
    const auto *B = as<BinaryNode>(Rebuilt);
    if (!B)
      return Rebuilt;
    if (Expr Folded = foldBinary(B))
      return Folded;
    if (isLinearOp(Rebuilt))
      return canonicalSum(Rebuilt);
    return Rebuilt;
  }

  Expr mutateUnary(const Expr &E, const UnaryNode *N) override {
    Expr Rebuilt = IRMutator::mutateUnary(E, N);
    const auto *U = as<UnaryNode>(Rebuilt);
    if (!U)
      return Rebuilt;
    int64_t C;
    double F;
    if (U->Op == UnOp::Not && U->A->Type == DType::Bool && getConstInt(U->A, C))
      return makeBool(C == 0);
    if (U->Op == UnOp::Not)
      if (const auto *Inner = as<UnaryNode>(U->A))
        if (Inner->Op == UnOp::Not && Inner->A->Type == DType::Bool)
          return Inner->A;
    if (U->Op == UnOp::BitNot && intConst(U->A, C))
      return makeInt(wrapToType(~C, U->Type), U->Type);
    if (U->Op == UnOp::Neg && floatConst(U->A, F))
      return makeFloatOfType(-F, U->Type);
    if (isLinearOp(Rebuilt))
      return canonicalSum(Rebuilt);
    return Rebuilt;
  }

  Expr mutateSelect(const Expr &E, const SelectNode *N) override {
    Expr Rebuilt = IRMutator::mutateSelect(E, N);
    const auto *S = as<SelectNode>(Rebuilt);
    int64_t C;
    if (S && getConstInt(S->Cond, C))
      return C ? S->TrueValue : S->FalseValue;
    if (S && structurallyEqual(S->TrueValue, S->FalseValue))
      return S->TrueValue;
    // `a < b ? a : b` is min(a, b) on integers (and the other orders and
    // comparisons their min or max): a clamped bound written with ?: gets
    // the min/max rules of bound inference and dependence analysis.
    if (S && isInt(S->Type))
      if (const auto *C = as<BinaryNode>(S->Cond)) {
        bool Less = C->Op == BinOp::LT || C->Op == BinOp::LE;
        bool Greater = C->Op == BinOp::GT || C->Op == BinOp::GE;
        if ((Less || Greater) && C->A->Type == S->Type && C->B->Type == S->Type) {
          if (structurallyEqual(C->A, S->TrueValue) && structurallyEqual(C->B, S->FalseValue))
            return mutate(makeBinary(Less ? BinOp::Min : BinOp::Max, S->TrueValue,
                                     S->FalseValue));
          if (structurallyEqual(C->A, S->FalseValue) && structurallyEqual(C->B, S->TrueValue))
            return mutate(makeBinary(Less ? BinOp::Max : BinOp::Min, S->FalseValue,
                                     S->TrueValue));
        }
      }
    return Rebuilt;
  }

  Expr mutateCast(const Expr &E, const CastNode *N) override {
    Expr Rebuilt = IRMutator::mutateCast(E, N);
    const auto *C = as<CastNode>(Rebuilt);
    if (!C)
      return Rebuilt;
    if (C->Value->Type == C->Type)
      return C->Value;
    int64_t I;
    double F;
    if (getConstInt(C->Value, I)) {
      if (isFloat(C->Type))
        return makeFloatOfType(static_cast<double>(I), C->Type);
      return makeInt(wrapToType(I, C->Type), C->Type);
    }
    if (floatConst(C->Value, F)) {
      if (isFloat(C->Type))
        return makeFloatOfType(F, C->Type);
      if (C->Type == DType::Bool)
        return makeBool(F != 0);
      if (std::isfinite(F) && std::fabs(F) < 9.2e18)
        return makeInt(wrapToType(static_cast<int64_t>(F), C->Type), C->Type);
    }
    return Rebuilt;
  }

  Stmt mutateFor(const Stmt &S, const ForNode *N) override {
    Expr Min = mutate(N->Min), Extent = mutate(N->Extent);
    Stmt Body;
    {
      ScopedEntry<VarRanges> Scope(Ranges, N->LoopVar.get(),
                       {Min, canonicalize(makeBinary(BinOp::Sub, makeBinary(BinOp::Add, Min, Extent),
                                                     makeInt(1, Min->Type)))});
      Body = mutate(N->Body);
    }
    if (Min == N->Min && Extent == N->Extent && Body == N->Body)
      return S;
    return withBounds(N, Min, Extent, Body);
  }

  Stmt mutateLetStmt(const Stmt &S, const LetStmtNode *N) override {
    Expr Value = mutate(N->Value);
    Stmt Body;
    {
      ScopedEntry<VarRanges> Scope(Ranges, N->LetVar.get(), boundsOf(Value, Ranges));
      Body = mutate(N->Body);
    }
    if (Value == N->Value && Body == N->Body)
      return S;
    return makeLet(N->LetVar, Value, Body);
  }

  Stmt mutateIfThenElse(const Stmt &S, const IfThenElseNode *N) override {
    Expr Cond = mutate(N->Cond);
    int64_t C;
    if (getConstInt(Cond, C)) {
      if (C)
        return mutate(N->Then);
      return N->Else ? mutate(N->Else) : makeSeq({});
    }
    Stmt Then = mutate(N->Then), Else = mutate(N->Else);
    if (Cond == N->Cond && Then == N->Then && Else == N->Else)
      return S;
    return makeIf(Cond, Then, Else);
  }

private:
  bool UseBounds;
  VarRanges Ranges;

  Expr canonicalSum(const Expr &E) {
    Linear L;
    if (!linearize(E, 1, L))
      return E;
    Expr Result = rebuild(L, E->Type);
    return structurallyEqual(Result, E) ? E : Result;
  }

  /// The constant bounds of E, where known: HasLo/HasHi say which (one
  /// boundsOf for both ends: it is the costly part of simplify).
  struct ConstRange {
    bool HasLo = false, HasHi = false;
    int64_t Lo = 0, Hi = 0;
  };
  ConstRange constBounds(const Expr &E) {
    ConstRange R;
    if (!UseBounds)
      return R;
    Interval I = boundsOf(E, Ranges);
    R.HasLo = I.Min && getConstInt(I.Min, R.Lo);
    R.HasHi = I.Max && getConstInt(I.Max, R.Hi);
    return R;
  }

  Expr foldBinary(const BinaryNode *B) {
    int64_t X, Y, R;
    double F, G;
    bool XC = intConst(B->A, X), YC = intConst(B->B, Y);
    if (XC && YC) {
      if (B->Op == BinOp::And || B->Op == BinOp::Or)
        return makeBool(B->Op == BinOp::And ? (X && Y) : (X || Y));
      // Operands are wrapped to their type first: a literal need not be.
      DType T = B->A->Type;
      if (evalIntBinary(B->Op, T, wrapToType(X, T), wrapToType(Y, T), R))
        return isComparison(B->Op) ? makeBool(R != 0) : makeInt(R, B->Type);
    }
    if (B->Op == BinOp::And || B->Op == BinOp::Or)
      return foldLogic(B);
    if (floatConst(B->A, F) && floatConst(B->B, G))
      return foldFloat(B, F, G);
    if (isFloat(B->Type) && B->Op == BinOp::Mul) {
      if (floatConst(B->B, G) && G == 1.0)
        return B->A;
      if (floatConst(B->A, F) && F == 1.0)
        return B->B;
    }
    // Reasoning from bounds treats values as integers, which an unsigned
    // operand that may have wrapped is not: only constants fold there.
    if (isComparison(B->Op) && isInt(B->A->Type) && !isUnsigned(B->A->Type))
      return decideComparison(B);
    if (!isInt(B->Type))
      return nullptr;
    if (isUnsigned(B->Type))
      return foldUnsignedMinMax(B);
    switch (B->Op) {
    case BinOp::Min:
    case BinOp::Max:
      return foldMinMax(B);
    case BinOp::Div:
    case BinOp::Mod:
      return foldDivMod(B);
    default:
      return nullptr;
    }
  }

  Expr foldLogic(const BinaryNode *B) {
    int64_t C;
    bool IsAnd = B->Op == BinOp::And;
    for (int Side = 0; Side < 2; ++Side) {
      const Expr &K = Side ? B->B : B->A;
      const Expr &Other = Side ? B->A : B->B;
      if (!getConstInt(K, C) || K->Type != DType::Bool || Other->Type != DType::Bool)
        continue;
      if (IsAnd)
        return C ? Other : makeBool(false);
      return C ? makeBool(true) : Other;
    }
    return nullptr;
  }

  Expr foldFloat(const BinaryNode *B, double F, double G) {
    if (isComparison(B->Op)) {
      bool R = B->Op == BinOp::EQ ? F == G : B->Op == BinOp::NE ? F != G
             : B->Op == BinOp::LT ? F < G : B->Op == BinOp::LE ? F <= G
             : B->Op == BinOp::GT ? F > G : F >= G;
      return makeBool(R);
    }
    switch (B->Op) {
    case BinOp::Add: return makeFloatOfType(F + G, B->Type);
    case BinOp::Sub: return makeFloatOfType(F - G, B->Type);
    case BinOp::Mul: return makeFloatOfType(F * G, B->Type);
    case BinOp::Div: return G == 0 ? nullptr : makeFloatOfType(F / G, B->Type);
    case BinOp::Min: return makeFloatOfType(std::min(F, G), B->Type);
    case BinOp::Max: return makeFloatOfType(std::max(F, G), B->Type);
    default: return nullptr;
    }
  }

  /// Decides an integer comparison from the bounds of (A - B).
  Expr decideComparison(const BinaryNode *B) {
    Expr Diff = canonicalSum(makeBinary(BinOp::Sub, B->A, B->B));
    int64_t D;
    if (getConstInt(Diff, D))
      return makeBool(evalIntBinary(B->Op, DType::Int64, D, 0, D) && D != 0);
    const auto [HasLo, HasHi, Lo, Hi] = constBounds(Diff);
    switch (B->Op) {
    case BinOp::LT:
      if (HasHi && Hi < 0) return makeBool(true);
      if (HasLo && Lo >= 0) return makeBool(false);
      break;
    case BinOp::LE:
      if (HasHi && Hi <= 0) return makeBool(true);
      if (HasLo && Lo > 0) return makeBool(false);
      break;
    case BinOp::GT:
      if (HasLo && Lo > 0) return makeBool(true);
      if (HasHi && Hi <= 0) return makeBool(false);
      break;
    case BinOp::GE:
      if (HasLo && Lo >= 0) return makeBool(true);
      if (HasHi && Hi < 0) return makeBool(false);
      break;
    case BinOp::EQ:
    case BinOp::NE:
      if ((HasLo && Lo > 0) || (HasHi && Hi < 0))
        return makeBool(B->Op == BinOp::NE);
      break;
    default:
      break;
    }
    return nullptr;
  }

  /// No unsigned value is below 0: max(x, 0) = x and min(x, 0) = 0.
  Expr foldUnsignedMinMax(const BinaryNode *B) {
    if (B->Op != BinOp::Min && B->Op != BinOp::Max)
      return nullptr;
    if (structurallyEqual(B->A, B->B))
      return B->A;
    int64_t C;
    for (int Side = 0; Side < 2; ++Side)
      if (intConst(Side ? B->B : B->A, C) && C == 0)
        return B->Op == BinOp::Max ? (Side ? B->A : B->B) : makeInt(0, B->Type);
    return nullptr;
  }

  Expr foldMinMax(const BinaryNode *B) {
    if (structurallyEqual(B->A, B->B))
      return B->A;
    // min(a, b) is a when a - b <= 0 for every value in range.
    Expr Diff = canonicalSum(makeBinary(BinOp::Sub, B->A, B->B));
    int64_t D;
    bool Min = B->Op == BinOp::Min;
    if (getConstInt(Diff, D))
      return (D <= 0) == Min ? B->A : B->B;
    const ConstRange R = constBounds(Diff);
    if (R.HasHi && R.Hi <= 0)
      return Min ? B->A : B->B;
    if (R.HasLo && R.Lo >= 0)
      return Min ? B->B : B->A;
    return nullptr;
  }

  /// x/1, x%1, and the split of (Q*c + R) by a positive constant c when the
  /// numerator and R are provably non-negative (then / and % truncate like
  /// floor): (Q*c + R)/c = Q + R/c and (Q*c + R)%c = R%c.
  Expr foldDivMod(const BinaryNode *B) {
    int64_t C;
    if (!intConst(B->B, C) || C <= 0)
      return nullptr;
    bool IsDiv = B->Op == BinOp::Div;
    DType T = B->Type;
    if (C == 1)
      return IsDiv ? B->A : makeInt(0, T);
    Linear L, Quot, Rem;
    if (!linearize(B->A, 1, L))
      return nullptr;
    for (const auto &Term : L.Terms)
      if (Term.second % C == 0)
        Quot.Terms.push_back({Term.first, Term.second / C});
      else
        Rem.Terms.push_back(Term);
    int64_t Q = L.Constant / C, R = L.Constant % C;
    if (R < 0) {
      R += C;
      --Q;
    }
    Quot.Constant = Q;
    Rem.Constant = R;
    Expr RemExpr = rebuild(Rem, T);
    const ConstRange Num = constBounds(B->A);
    if (!Num.HasLo || Num.Lo < 0)
      return nullptr;
    const ConstRange RemRange = constBounds(RemExpr);
    if (!RemRange.HasLo || RemRange.Lo < 0)
      return nullptr;
    bool RemSmall = RemRange.HasHi && RemRange.Hi < C;
    if (Quot.Terms.empty() && Quot.Constant == 0 && !RemSmall)
      return nullptr; // nothing to take out
    if (!IsDiv)
      return RemSmall ? RemExpr : makeBinary(BinOp::Mod, RemExpr, B->B);
    Expr QuotExpr = rebuild(Quot, T);
    if (RemSmall)
      return QuotExpr;
    return canonicalSum(makeBinary(BinOp::Add, QuotExpr, makeBinary(BinOp::Div, RemExpr, B->B)));
  }
};

} // namespace

namespace {

/// A hash of an expression's structure as canonicalize reads it: kinds,
/// types, operators, literals (floats by their bits), and variables and
/// buffers by identity (sameStructure is the equality that goes with it).
uint64_t structureHash(const Expr &E) {
  auto Mix = [](uint64_t H, uint64_t V) {
    return (H ^ V) * 0x100000001b3ull + (H >> 29);
  };
  if (!E)
    return 0x9e3779b97f4a7c15ull;
  uint64_t H = Mix(0xcbf29ce484222325ull,
                   static_cast<uint64_t>(E->Kind) << 8 | static_cast<uint64_t>(E->Type));
  switch (E->Kind) {
  case ExprKind::IntImm:
    return Mix(H, static_cast<uint64_t>(as<IntImmNode>(E)->Value));
  case ExprKind::FloatImm: {
    double V = as<FloatImmNode>(E)->Value;
    uint64_t Bits;
    std::memcpy(&Bits, &V, sizeof Bits);
    return Mix(H, Bits);
  }
  case ExprKind::Var:
    return Mix(H, reinterpret_cast<uintptr_t>(E.get()));
  case ExprKind::Binary: {
    const auto *B = as<BinaryNode>(E);
    H = Mix(H, static_cast<uint64_t>(B->Op));
    H = Mix(H, structureHash(B->A));
    return Mix(H, structureHash(B->B));
  }
  case ExprKind::Unary: {
    const auto *U = as<UnaryNode>(E);
    return Mix(Mix(H, static_cast<uint64_t>(U->Op)), structureHash(U->A));
  }
  case ExprKind::Select: {
    const auto *S = as<SelectNode>(E);
    H = Mix(H, structureHash(S->Cond));
    H = Mix(H, structureHash(S->TrueValue));
    return Mix(H, structureHash(S->FalseValue));
  }
  case ExprKind::Cast:
    return Mix(H, structureHash(as<CastNode>(E)->Value));
  case ExprKind::Load: {
    const auto *L = as<LoadNode>(E);
    H = Mix(H, reinterpret_cast<uintptr_t>(L->Buf.get()));
    for (const Expr &I : L->Indices)
      H = Mix(H, structureHash(I));
    return Mix(H, L->Indices.size());
  }
  case ExprKind::Call: {
    const auto *C = as<CallNode>(E);
    H = Mix(H, std::hash<std::string>()(C->Name));
    for (const Expr &A : C->Args)
      H = Mix(H, structureHash(A));
    return Mix(H, C->Args.size());
  }
  }
  return H;
}

/// structurallyEqual, with floating-point literals compared by their bits
/// (0.0 and -0.0 fold differently).
bool sameStructure(const Expr &A, const Expr &B);

bool sameStructure(const std::vector<Expr> &A, const std::vector<Expr> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I)
    if (!sameStructure(A[I], B[I]))
      return false;
  return true;
}

bool sameStructure(const Expr &A, const Expr &B) {
  if (A == B)
    return true;
  if (!A || !B || A->Kind != B->Kind || A->Type != B->Type)
    return false;
  switch (A->Kind) {
  case ExprKind::FloatImm:
    return std::memcmp(&as<FloatImmNode>(A)->Value, &as<FloatImmNode>(B)->Value,
                       sizeof(double)) == 0;
  case ExprKind::Binary: {
    const auto *X = as<BinaryNode>(A), *Y = as<BinaryNode>(B);
    return X->Op == Y->Op && sameStructure(X->A, Y->A) && sameStructure(X->B, Y->B);
  }
  case ExprKind::Unary: {
    const auto *X = as<UnaryNode>(A), *Y = as<UnaryNode>(B);
    return X->Op == Y->Op && sameStructure(X->A, Y->A);
  }
  case ExprKind::Select: {
    const auto *X = as<SelectNode>(A), *Y = as<SelectNode>(B);
    return sameStructure(X->Cond, Y->Cond) && sameStructure(X->TrueValue, Y->TrueValue) &&
           sameStructure(X->FalseValue, Y->FalseValue);
  }
  case ExprKind::Cast:
    return sameStructure(as<CastNode>(A)->Value, as<CastNode>(B)->Value);
  case ExprKind::Load: {
    const auto *X = as<LoadNode>(A), *Y = as<LoadNode>(B);
    return X->Buf == Y->Buf && sameStructure(X->Indices, Y->Indices);
  }
  case ExprKind::Call: {
    const auto *X = as<CallNode>(A), *Y = as<CallNode>(B);
    return X->Name == Y->Name && sameStructure(X->Args, Y->Args);
  }
  case ExprKind::IntImm:
  case ExprKind::Var:
    return structurallyEqual(A, B);
  }
  return false;
}

/// canonicalize's answers, remembered by structure for the thread (one
/// compile): bound inference asks it of the same few sums again and again
/// (boundsOf canonicalizes each question and both ends of its answer;
/// issue 24). An entry holds the expression it was computed for, which
/// keeps the variables and buffers its hash took by address alive.
struct CanonicalAnswer {
  Expr In, Out;
};

/// Bounds the memory of a very long compile.
constexpr size_t MaxCanonicalAnswers = 1 << 16;

std::unordered_multimap<uint64_t, CanonicalAnswer> &canonicalAnswers() {
  thread_local std::unordered_multimap<uint64_t, CanonicalAnswer> Answers;
  return Answers;
}

Expr canonicalizeUncached(const Expr &E) {
  Simplifier S(nullptr, /*UseBounds=*/false);
  return S.mutate(E);
}

} // namespace

Expr canonicalize(const Expr &E) {
  if (!E || E->Kind == ExprKind::IntImm || E->Kind == ExprKind::Var)
    return canonicalizeUncached(E); // nothing to fold: as cheap as a look-up
  std::unordered_multimap<uint64_t, CanonicalAnswer> &Answers = canonicalAnswers();
  const uint64_t Hash = structureHash(E);
  for (auto [It, End] = Answers.equal_range(Hash); It != End; ++It)
    if (sameStructure(It->second.In, E))
      // An expression canonicalize leaves as it is comes back itself
      // (callers tell "unchanged" by identity); any other answer is a new
      // tree, which the remembered one is, structurally.
      return It->second.Out == It->second.In ? E : It->second.Out;
  Expr Out = canonicalizeUncached(E);
  if (Answers.size() >= MaxCanonicalAnswers)
    Answers.clear();
  Answers.emplace(Hash, CanonicalAnswer{E, Out});
  return Out;
}

Expr simplify(const Expr &E, const VarRanges *Ranges) {
  Simplifier S(Ranges, /*UseBounds=*/true);
  return S.mutate(E);
}

Stmt simplify(const Stmt &S) {
  Simplifier Simp(nullptr, /*UseBounds=*/true);
  return Simp.mutate(S);
}

} // namespace ir
} // namespace sched
