//===- ExtractLayout.cpp - Shapes of buffers the extractor finds ----------===//
//
// Delinearization of flat accesses. Every access of the buffer is an affine
// form in the loop variables (Affine.h); its coefficients are polynomials
// over parameters (K, N*K, 2*n - 1, 64). When the coefficients form a
// divisibility chain 1 | S1 | S2 ... (e.g. {1, K}) they become the strides
// of a row-major shape [.., S2/S1, S1], and each access is split into one
// index per dimension (a coefficient that is no stride, like the 2 of
// `i*(2*n-1) + 2*j`, stays inside the innermost index when the chain of all
// coefficients fails).
//
// The split names the same element as the flat index only when every inner
// index stays inside its dimension (0 <= k <= K-1 for `i*K + k`). Where that
// is provable from the loop ranges, nothing more is needed. Where it depends
// on parameters only (`i*ld + j` with j < N: N <= ld, BLAS leading
// dimensions), the split is kept under that condition, an assumption the
// launcher checks before every launch (the original loop runs when it is
// false). Otherwise the buffer stays one-dimensional, which is always
// correct.
//
//===----------------------------------------------------------------------===//

#include "ExtractLayout.h"

#include "ir/Affine.h"
#include "ir/IRVisitor.h"
#include "ir/Simplify.h"

#include <algorithm>
#include <set>

namespace sched {
namespace extract {

using namespace ir;

//===----------------------------------------------------------------------===//
// Polynomials over parameters
//===----------------------------------------------------------------------===//

namespace {

bool symLess(const Var &A, const Var &B) {
  if (A->Name != B->Name)
    return A->Name < B->Name;
  return A.get() < B.get();
}

bool sameSyms(const Monomial &A, const Monomial &B) {
  if (A.Syms.size() != B.Syms.size())
    return false;
  for (size_t I = 0; I < A.Syms.size(); ++I)
    if (A.Syms[I] != B.Syms[I])
      return false;
  return true;
}

/// A graded order of monomials (higher degree first, then by symbols): the
/// leading term of a product is the product of the leading terms, which
/// makes division by a sum decidable (dividePoly).
bool termBefore(const Monomial &A, const Monomial &B) {
  if (A.Syms.size() != B.Syms.size())
    return A.Syms.size() > B.Syms.size();
  for (size_t I = 0; I < A.Syms.size(); ++I)
    if (A.Syms[I] != B.Syms[I])
      return symLess(A.Syms[I], B.Syms[I]);
  return false;
}

/// Merges terms with equal symbol lists, drops zero coefficients and sorts
/// the terms (termBefore), so equal polynomials have equal term lists.
Polynomial normalize(Polynomial P) {
  Polynomial Out;
  for (Monomial &M : P) {
    std::sort(M.Syms.begin(), M.Syms.end(), symLess);
    auto It = std::find_if(Out.begin(), Out.end(),
                           [&](const Monomial &O) { return sameSyms(O, M); });
    if (It != Out.end())
      It->Coef += M.Coef;
    else
      Out.push_back(M);
  }
  Out.erase(std::remove_if(Out.begin(), Out.end(), [](const Monomial &M) { return M.Coef == 0; }),
            Out.end());
  std::sort(Out.begin(), Out.end(), termBefore);
  return Out;
}

Polynomial scaled(Polynomial P, int64_t Factor) {
  for (Monomial &M : P)
    M.Coef *= Factor;
  return P;
}

Polynomial sum(Polynomial A, const Polynomial &B) {
  A.insert(A.end(), B.begin(), B.end());
  return normalize(A);
}

Polynomial difference(const Polynomial &A, const Polynomial &B) { return sum(A, scaled(B, -1)); }

Polynomial product(const Polynomial &A, const Polynomial &B) {
  Polynomial Out;
  for (const Monomial &X : A)
    for (const Monomial &Y : B) {
      Monomial M;
      M.Coef = X.Coef * Y.Coef;
      M.Syms = X.Syms;
      M.Syms.insert(M.Syms.end(), Y.Syms.begin(), Y.Syms.end());
      Out.push_back(M);
    }
  return normalize(Out);
}

bool samePoly(const Polynomial &A, const Polynomial &B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I)
    if (A[I].Coef != B[I].Coef || !sameSyms(A[I], B[I]))
      return false;
  return true;
}

/// True (and the constant) when P has no symbols.
bool constantOf(const Polynomial &P, int64_t &Out) {
  Out = 0;
  for (const Monomial &M : P) {
    if (!M.Syms.empty())
      return false;
    Out += M.Coef;
  }
  return true;
}

bool isOne(const Polynomial &P) {
  int64_t V;
  return constantOf(P, V) && V == 1;
}

/// Q = M / D when D divides M (its coefficient and its symbols).
bool divides(const Monomial &D, const Monomial &M, Monomial &Q) {
  if (D.Coef == 0 || M.Coef % D.Coef != 0)
    return false;
  std::vector<Var> Rest = M.Syms;
  for (const Var &S : D.Syms) {
    auto It = std::find(Rest.begin(), Rest.end(), S);
    if (It == Rest.end())
      return false;
    Rest.erase(It);
  }
  Q.Coef = M.Coef / D.Coef;
  Q.Syms = Rest;
  return true;
}

/// Q = P / D when the division is exact: term by term when D is one
/// monomial; when D is a sum, only a monomial quotient is recognized (the
/// leading terms fix it, the product confirms it).
bool dividePoly(const Polynomial &P, const Polynomial &D, Polynomial &Q) {
  Q.clear();
  if (D.empty() || P.empty())
    return false;
  if (D.size() == 1) {
    for (const Monomial &M : P) {
      Monomial Term;
      if (!divides(D[0], M, Term))
        return false;
      Q.push_back(Term);
    }
    Q = normalize(Q);
    return true;
  }
  Monomial Lead;
  if (!divides(D[0], P[0], Lead))
    return false;
  Q = {Lead};
  return samePoly(product(Q, D), P);
}

/// The largest number of symbols in one term.
size_t degree(const Polynomial &P) { return P.empty() ? 0 : P.front().Syms.size(); }

Expr fromMonomial(const Monomial &M, DType T) {
  Expr E;
  for (const Var &S : M.Syms) {
    Expr Sym = S->Type == T ? Expr(S) : makeCast(T, S);
    E = E ? makeBinary(BinOp::Mul, E, Sym) : Sym;
  }
  if (!E)
    return makeInt(M.Coef, T);
  if (M.Coef != 1)
    E = makeBinary(BinOp::Mul, makeInt(M.Coef, T), E);
  return E;
}

Expr fromPolynomial(const Polynomial &P, DType T) {
  Expr Sum;
  for (const Monomial &M : P) {
    Expr Term = fromMonomial(M, T);
    Sum = Sum ? makeBinary(BinOp::Add, Sum, Term) : Term;
  }
  return Sum ? simplify(Sum) : makeInt(0, T);
}

/// Sum of Terms (null terms skipped), 0 when empty.
Expr sumOf(const std::vector<Expr> &Terms, DType T) {
  Expr Sum;
  for (const Expr &E : Terms)
    if (E)
      Sum = Sum ? makeBinary(BinOp::Add, Sum, E) : E;
  return Sum ? Sum : makeInt(0, T);
}

} // namespace

bool toPolynomial(const Expr &E, Polynomial &Out) {
  Out.clear();
  if (!E || !isInt(E->Type))
    return false;
  int64_t V;
  if (getConstInt(E, V)) {
    Out = normalize({Monomial{V, {}}});
    return true;
  }
  if (as<VarNode>(E)) {
    Out = {Monomial{1, {std::static_pointer_cast<const VarNode>(E)}}};
    return true;
  }
  if (const auto *C = as<CastNode>(E))
    return isInt(C->Value->Type) && toPolynomial(C->Value, Out);
  if (const auto *U = as<UnaryNode>(E)) {
    if (U->Op != UnOp::Neg || !toPolynomial(U->A, Out))
      return false;
    Out = scaled(Out, -1);
    return true;
  }
  const auto *B = as<BinaryNode>(E);
  if (!B)
    return false;
  Polynomial L, R;
  if (!toPolynomial(B->A, L) || !toPolynomial(B->B, R))
    return false;
  switch (B->Op) {
  case BinOp::Add:
    Out = sum(L, R);
    return true;
  case BinOp::Sub:
    Out = difference(L, R);
    return true;
  case BinOp::Mul:
    Out = product(L, R);
    return true;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// Layout choice
//===----------------------------------------------------------------------===//

namespace {

/// Loop variables in order of first appearance in E (deterministic term order).
void varsInOrder(const Expr &E, const VarRanges &Ranges, std::vector<const VarNode *> &Out) {
  if (!E)
    return;
  if (const auto *V = as<VarNode>(E)) {
    if (Ranges.count(V) && std::find(Out.begin(), Out.end(), V) == Out.end())
      Out.push_back(V);
    return;
  }
  if (const auto *C = as<CastNode>(E))
    return varsInOrder(C->Value, Ranges, Out);
  if (const auto *U = as<UnaryNode>(E))
    return varsInOrder(U->A, Ranges, Out);
  if (const auto *B = as<BinaryNode>(E)) {
    varsInOrder(B->A, Ranges, Out);
    varsInOrder(B->B, Ranges, Out);
  }
}

bool isIndexVarOf(const std::vector<const VarNode *> &Vars, const VarNode *V) {
  return std::find(Vars.begin(), Vars.end(), V) != Vars.end();
}

/// The coefficients of Flat's loop variables, signs dropped, added to
/// Strides once each.
bool collectStrides(const Expr &Flat, const std::vector<const VarNode *> &IndexVars,
                    std::vector<Polynomial> &Strides) {
  AffineForm F;
  if (!toAffine(Flat, [&](const VarNode *V) { return isIndexVarOf(IndexVars, V); }, F))
    return false;
  for (const auto &Entry : F.Coefs) {
    Polynomial P;
    if (!toPolynomial(Entry.second, P) || P.empty())
      return false;
    if (P.front().Coef < 0)
      P = scaled(P, -1);
    bool Seen = std::any_of(Strides.begin(), Strides.end(),
                            [&](const Polynomial &S) { return samePoly(S, P); });
    if (!Seen)
      Strides.push_back(P);
  }
  return true;
}

/// Orders the strides outermost (largest) first; false unless each one
/// divides the previous.
bool orderAsChain(std::vector<Polynomial> &Strides) {
  std::sort(Strides.begin(), Strides.end(), [](const Polynomial &A, const Polynomial &B) {
    if (degree(A) != degree(B))
      return degree(A) > degree(B);
    if (A.front().Coef != B.front().Coef)
      return A.front().Coef > B.front().Coef;
    return A.size() > B.size();
  });
  for (size_t I = 1; I < Strides.size(); ++I) {
    Polynomial Q;
    if (!dividePoly(Strides[I - 1], Strides[I], Q))
      return false;
  }
  return true;
}

/// `Neg <= Pos` for P = Pos - Neg (both with positive coefficients), the
/// way a person writes the condition P >= 0: `N <= ld` for ld - N.
Expr nonNegativeCondition(const Polynomial &P, DType T) {
  Polynomial Pos, Neg;
  for (const Monomial &M : P)
    (M.Coef > 0 ? Pos : Neg).push_back(M);
  return makeBinary(BinOp::LE, fromPolynomial(scaled(Neg, -1), T), fromPolynomial(Pos, T));
}

/// Whether P >= 0 for the arguments of a launch, where P (over parameters)
/// is the room an index leaves in a dimension of extent Row (null: no
/// extent). True when P is a non-negative constant; false when it is a
/// negative one, and when a parameter of the row itself makes it negative as
/// it grows (`1 - K`: a column `2*k` with k < K in rows of K), a condition
/// that nearly every launch would fail, so the buffer stays flat. Otherwise
/// (`ld - N`: columns j < N in rows of ld) P >= 0 becomes a run-time
/// assumption.
bool nonNegative(const Polynomial &P, const Polynomial &Row, const VarRanges &Ranges, DType T,
                 std::vector<Expr> &Assumptions) {
  int64_t Value;
  if (constantOf(P, Value))
    return Value >= 0;
  std::set<const VarNode *> RowSyms;
  for (const Monomial &M : Row)
    for (const Var &S : M.Syms)
      RowSyms.insert(S.get());
  for (const Monomial &M : P) {
    bool OfTheRow = !M.Syms.empty() && std::all_of(M.Syms.begin(), M.Syms.end(), [&](const Var &S) {
                      return RowSyms.count(S.get()) != 0;
                    });
    if (M.Coef < 0 && OfTheRow)
      return false;
    // Loop variables are relaxed by boundsOf: what is left are parameters.
    for (const Var &S : M.Syms)
      if (Ranges.count(S.get()))
        return false;
  }
  addAssumption(Assumptions, simplify(nonNegativeCondition(P, T)));
  return true;
}

/// Whether 0 <= Index < Extent at every iteration: provably from the loop
/// ranges, or under conditions over parameters added to Assumptions (checked
/// at run time).
bool fitsInside(const Expr &Index, const Expr &Extent, const VarRanges &Ranges,
                std::vector<Expr> &Assumptions) {
  Interval I = boundsOf(Index, Ranges);
  Polynomial Lo, Hi, Ext;
  if (!I.isBounded() || !toPolynomial(I.Min, Lo) || !toPolynomial(I.Max, Hi) ||
      !toPolynomial(Extent, Ext))
    return false;
  DType T = Index->Type;
  // Room below: Min >= 0; room above: Extent - (Max + 1) >= 0.
  return nonNegative(Lo, {}, Ranges, T, Assumptions) &&
         nonNegative(difference(Ext, sum(Hi, {Monomial{1, {}}})), Ext, Ranges, T, Assumptions);
}

/// The largest value of Index when boundsOf cannot tell because a
/// coefficient is a parameter (`i*K`): parameters that scale an index are
/// assumed non-negative (they are sizes), so each term is largest at the end
/// of its loop's range when all its monomials are positive, at the start
/// when all are negative.
Expr assumedMax(const Expr &Index, const VarRanges &Ranges) {
  AffineForm F;
  if (!toAffine(Index, [&](const VarNode *V) { return Ranges.count(V) != 0; }, F))
    return nullptr;
  Expr Max = F.Constant;
  for (const auto &Entry : F.Coefs) {
    Polynomial P;
    if (!toPolynomial(Entry.second, P) || P.empty())
      return nullptr;
    bool Positive = std::all_of(P.begin(), P.end(), [](const Monomial &M) { return M.Coef > 0; });
    bool Negative = std::all_of(P.begin(), P.end(), [](const Monomial &M) { return M.Coef < 0; });
    const Interval &Range = Ranges.at(Entry.first);
    Expr End = Positive ? Range.Max : Negative ? Range.Min : nullptr;
    if (!End)
      return nullptr;
    Max = makeBinary(BinOp::Add, Max, makeBinary(BinOp::Mul, Entry.second, End));
  }
  return simplify(Max);
}

} // namespace

void addAssumption(std::vector<Expr> &Out, const Expr &Cond) {
  for (const Expr &A : Out)
    if (structurallyEqual(A, Cond))
      return;
  Out.push_back(Cond);
}

bool extentCovering(const std::vector<Expr> &Indices, const VarRanges &Ranges, Expr &Out) {
  Out = nullptr;
  Polynomial OutPoly;
  bool OutIsPoly = false;
  for (const Expr &Index : Indices) {
    Expr Max = boundsOf(Index, Ranges).Max;
    if (!Max)
      Max = assumedMax(Index, Ranges);
    if (!Max)
      return false;
    Expr Extent = simplify(makeBinary(BinOp::Add, Max, makeInt(1, Max->Type)));
    if (!Out) {
      Out = Extent;
      OutIsPoly = toPolynomial(Extent, OutPoly);
      continue;
    }
    // Keep the larger of two extents whose difference is a known constant,
    // otherwise take their max().
    Polynomial P;
    int64_t D;
    if (OutIsPoly && toPolynomial(Extent, P) && constantOf(difference(P, OutPoly), D)) {
      if (D > 0) {
        Out = Extent;
        OutPoly = P;
      }
      continue;
    }
    if (!structurallyEqual(Out, Extent)) {
      Out = makeBinary(BinOp::Max, Out, Extent);
      OutIsPoly = false;
    }
  }
  return Out != nullptr;
}

bool someIndexIsNegative(const std::vector<Expr> &Indices, const VarRanges &Ranges) {
  for (const Expr &Index : Indices) {
    Polynomial Lo;
    int64_t Value;
    Expr Min = boundsOf(Index, Ranges).Min;
    if (Min && toPolynomial(Min, Lo) && constantOf(Lo, Value) && Value < 0)
      return true;
  }
  return false;
}

bool FlatLayout::tryStrides(std::vector<Polynomial> Candidates,
                            const std::vector<Expr> &FlatIndices, const VarRanges &Ranges,
                            const Expr &DeclaredSize) {
  if (Candidates.size() < 2 || !orderAsChain(Candidates))
    return false;
  Strides = Candidates;
  DType T = FlatIndices.front()->Type;
  std::vector<Expr> Dims, Outer, Shape(Strides.size()), Assumed;
  for (size_t R = 1; R < Strides.size(); ++R) {
    Polynomial Q;
    dividePoly(Strides[R - 1], Strides[R], Q);
    Shape[R] = fromPolynomial(Q, T);
  }
  for (const Expr &Flat : FlatIndices) {
    if (!split(Flat, Dims))
      return false;
    Outer.push_back(Dims[0]);
    for (size_t R = 1; R < Dims.size(); ++R)
      if (!fitsInside(Dims[R], Shape[R], Ranges, Assumed))
        return false;
  }
  int64_t Size, Row, Covered;
  if (DeclaredSize && constantOf(Strides.front(), Row)) {
    // An array's rows are the whole rows it holds; a partial last row (410
    // elements in rows of 20) must be one no access reaches.
    if (!getConstInt(DeclaredSize, Size) || Row <= 0)
      return false;
    Expr Needed;
    if (Size % Row != 0 && (!extentCovering(Outer, Ranges, Needed) ||
                            !getConstInt(Needed, Covered) || Covered > Size / Row))
      return false;
    Shape[0] = makeInt(Size / Row, DeclaredSize->Type);
  } else if (!extentCovering(Outer, Ranges, Shape[0])) {
    return false;
  } else if (DeclaredSize) {
    // Rows of a run-time length (`A[r*C + c]` of `float A[400]`): as many as
    // the accesses need, under the assumption that they fit in the array,
    // so that no copy of the whole buffer can reach past its end.
    Expr Elements = makeBinary(BinOp::Mul, Shape[0], fromPolynomial(Strides.front(), T));
    Expr Fits = simplify(makeBinary(BinOp::LE, Elements, DeclaredSize));
    int64_t Known;
    if (getConstInt(Fits, Known)) {
      if (!Known)
        return false;
    } else {
      addAssumption(Assumed, Fits);
    }
  }
  this->Shape = Shape;
  Assumptions = Assumed;
  return true;
}

bool FlatLayout::choose(const std::vector<Expr> &FlatIndices, const VarRanges &Ranges,
                        const Expr &DeclaredSize, FlatLayout &Out) {
  Out = FlatLayout();
  for (const auto &Entry : Ranges)
    Out.IndexVars.push_back(Entry.first);
  std::vector<Polynomial> All;
  bool Affine = !FlatIndices.empty();
  for (const Expr &Flat : FlatIndices)
    Affine = Affine && collectStrides(Flat, Out.IndexVars, All);
  if (Affine) {
    // Every coefficient a stride; failing that, only the symbolic ones (a
    // constant factor like the 2 of `2*j` then stays in its index).
    std::vector<Polynomial> Symbolic;
    for (const Polynomial &S : All)
      if (degree(S) > 0)
        Symbolic.push_back(S);
    for (std::vector<Polynomial> *Set : {&All, &Symbolic}) {
      if (!std::any_of(Set->begin(), Set->end(), isOne))
        Set->push_back(Polynomial{Monomial{1, {}}});
      if (Out.tryStrides(*Set, FlatIndices, Ranges, DeclaredSize))
        return true;
    }
  }
  // One dimension: always the same element, whatever the coefficients.
  Out.Strides = {Polynomial{Monomial{1, {}}}};
  Out.Assumptions.clear();
  Out.Shape.assign(1, DeclaredSize);
  return DeclaredSize || extentCovering(FlatIndices, Ranges, Out.Shape[0]);
}

std::vector<Expr> FlatLayout::delinearize(const Expr &Flat) const {
  std::vector<Expr> Dims;
  if (Strides.size() <= 1 || !split(Flat, Dims))
    return {Flat};
  return Dims;
}

bool FlatLayout::split(const Expr &Flat, std::vector<Expr> &Dims) const {
  Dims.clear();
  DType T = Flat->Type;
  AffineForm F;
  std::vector<std::vector<Expr>> Terms(Strides.size());
  auto IsIndex = [&](const VarNode *V) { return isIndexVarOf(IndexVars, V); };
  if (!toAffine(Flat, IsIndex, F))
    return false;
  // Puts P * Factor (Factor null: 1) into the dimensions, each part under
  // the outermost stride that divides it; the last stride, 1, takes the rest.
  auto Place = [&](Polynomial P, const Expr &Factor) {
    for (size_t R = 0; R < Strides.size() && !P.empty(); ++R) {
      Polynomial Q, Rest;
      if (Strides[R].size() > 1) {
        if (!dividePoly(P, Strides[R], Q))
          continue;
      } else {
        for (const Monomial &M : P) {
          Monomial Term;
          if (divides(Strides[R][0], M, Term))
            Q.push_back(Term);
          else
            Rest.push_back(M);
        }
      }
      if (Q.empty())
        continue;
      Expr Term = fromPolynomial(normalize(Q), T);
      int64_t One;
      if (Factor)
        Term = getConstInt(Term, One) && One == 1 ? Factor : makeBinary(BinOp::Mul, Term, Factor);
      Terms[R].push_back(Term);
      P = Rest;
    }
  };
  std::vector<const VarNode *> Order;
  VarRanges InOrder;
  for (const VarNode *V : IndexVars)
    InOrder[V] = Interval();
  varsInOrder(Flat, InOrder, Order);
  for (const VarNode *V : Order) {
    auto It = F.Coefs.find(V);
    if (It == F.Coefs.end())
      continue;
    Polynomial P;
    auto VarIt = F.VarsByNode.find(V);
    if (!toPolynomial(It->second, P) || VarIt == F.VarsByNode.end())
      return false;
    Expr VarExpr = VarIt->second;
    Place(P, VarExpr->Type == T ? VarExpr : makeCast(T, VarExpr));
  }
  if (Order.size() != F.Coefs.size())
    return false;
  Polynomial Const;
  if (!toPolynomial(F.Constant, Const))
    return false;
  Place(Const, nullptr);
  for (auto &DimTerms : Terms)
    Dims.push_back(simplify(sumOf(DimTerms, T)));
  return true;
}

} // namespace extract
} // namespace sched
