//===- ExtractLayout.cpp - Shapes of buffers the extractor finds ----------===//
//
// Delinearization of flat pointer accesses. Every access of the buffer is an
// affine form in the loop variables (Affine.h); its coefficients are
// monomials over parameters (K, N*K, 64). When those coefficients form a
// divisibility chain 1 | S1 | S2 ... (e.g. {1, K}) they become the strides of
// a row-major shape [.., S2/S1, S1], and each access is split into one index
// per dimension. The split is kept only when every inner index provably stays
// inside its dimension (0 <= k <= K-1 for `i*K + k`): otherwise two shapes
// would disagree about which element an index names at some iteration, and
// the buffer stays one-dimensional.
//
//===----------------------------------------------------------------------===//

#include "ExtractLayout.h"

#include "ir/Affine.h"
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

/// Merges terms with equal symbol lists and drops zero coefficients.
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
  return Out;
}

Polynomial scaled(Polynomial P, int64_t Factor) {
  for (Monomial &M : P)
    M.Coef *= Factor;
  return P;
}

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
  if (const auto *VN = as<VarNode>(E)) {
    Var Sym = std::static_pointer_cast<const VarNode>(E);
    (void)VN;
    Out = {Monomial{1, {Sym}}};
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
    L.insert(L.end(), R.begin(), R.end());
    Out = normalize(L);
    return true;
  case BinOp::Sub: {
    Polynomial NegR = scaled(R, -1);
    L.insert(L.end(), NegR.begin(), NegR.end());
    Out = normalize(L);
    return true;
  }
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

/// The coefficient monomials of Flat's loop variables (absolute values).
bool collectStrides(const Expr &Flat, const std::vector<const VarNode *> &IndexVars,
                    std::vector<Monomial> &Strides) {
  AffineForm F;
  if (!toAffine(Flat, [&](const VarNode *V) { return isIndexVarOf(IndexVars, V); }, F))
    return false;
  for (const auto &Entry : F.Coefs) {
    Polynomial P;
    if (!toPolynomial(Entry.second, P) || P.size() != 1 || P[0].Coef == 0)
      return false;
    Monomial M = P[0];
    M.Coef = M.Coef < 0 ? -M.Coef : M.Coef;
    bool Seen = std::any_of(Strides.begin(), Strides.end(), [&](const Monomial &S) {
      return S.Coef == M.Coef && sameSyms(S, M);
    });
    if (!Seen)
      Strides.push_back(M);
  }
  return true;
}

/// Orders the strides outermost (largest) first; false unless each one
/// divides the previous.
bool orderAsChain(std::vector<Monomial> &Strides) {
  std::sort(Strides.begin(), Strides.end(), [](const Monomial &A, const Monomial &B) {
    if (A.Syms.size() != B.Syms.size())
      return A.Syms.size() > B.Syms.size();
    return A.Coef > B.Coef;
  });
  for (size_t I = 1; I < Strides.size(); ++I) {
    Monomial Q;
    if (!divides(Strides[I], Strides[I - 1], Q))
      return false;
  }
  return true;
}

/// Index Max of every access stays below Extent and Min is at least 0.
bool provablyInside(const Expr &Index, const Expr &Extent, const VarRanges &Ranges) {
  Interval I = boundsOf(Index, Ranges);
  if (!I.isBounded())
    return false;
  Polynomial Lo, Hi, Ext;
  int64_t LoConst, Slack;
  if (!toPolynomial(I.Min, Lo) || !constantOf(Lo, LoConst) || LoConst < 0)
    return false;
  if (!toPolynomial(I.Max, Hi) || !toPolynomial(Extent, Ext))
    return false;
  Polynomial Diff = Ext;
  Polynomial NegHi = scaled(Hi, -1);
  Diff.insert(Diff.end(), NegHi.begin(), NegHi.end());
  return constantOf(normalize(Diff), Slack) && Slack >= 1;
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
    Polynomial P, Diff;
    int64_t D;
    if (OutIsPoly && toPolynomial(Extent, P)) {
      Diff = P;
      Polynomial NegOut = scaled(OutPoly, -1);
      Diff.insert(Diff.end(), NegOut.begin(), NegOut.end());
      if (constantOf(normalize(Diff), D)) {
        if (D > 0) {
          Out = Extent;
          OutPoly = P;
        }
        continue;
      }
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

bool FlatLayout::choose(const std::vector<Expr> &FlatIndices, const VarRanges &Ranges,
                        FlatLayout &Out) {
  Out = FlatLayout();
  for (const auto &Entry : Ranges)
    Out.IndexVars.push_back(Entry.first);
  std::vector<Monomial> Strides;
  bool Affine = true;
  for (const Expr &Flat : FlatIndices)
    Affine = Affine && collectStrides(Flat, Out.IndexVars, Strides);
  bool HasUnit = std::any_of(Strides.begin(), Strides.end(), [](const Monomial &S) {
    return S.Coef == 1 && S.Syms.empty();
  });
  if (!HasUnit)
    Strides.push_back(Monomial{1, {}});

  if (Affine && Strides.size() > 1 && orderAsChain(Strides)) {
    Out.Strides = Strides;
    DType T = FlatIndices.empty() ? DType::Int32 : FlatIndices.front()->Type;
    std::vector<Expr> Shape(Strides.size());
    for (size_t R = 1; R < Strides.size(); ++R) {
      Monomial Q;
      divides(Strides[R], Strides[R - 1], Q);
      Shape[R] = fromMonomial(Q, T);
    }
    std::vector<Expr> Outer;
    bool Inside = true;
    for (const Expr &Flat : FlatIndices) {
      std::vector<Expr> Dims;
      if (!Out.split(Flat, Dims)) {
        Inside = false;
        break;
      }
      Outer.push_back(Dims[0]);
      for (size_t R = 1; R < Dims.size() && Inside; ++R)
        Inside = provablyInside(Dims[R], Shape[R], Ranges);
    }
    if (Inside && extentCovering(Outer, Ranges, Shape[0])) {
      Out.Shape = Shape;
      return true;
    }
  }
  // One dimension: always the same element, whatever the coefficients.
  Out.Strides = {Monomial{1, {}}};
  Out.Shape.assign(1, nullptr);
  return extentCovering(FlatIndices, Ranges, Out.Shape[0]);
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
  auto Place = [&](const Monomial &M, const Expr &Factor) {
    // The largest stride that divides the term; the last stride is 1.
    for (size_t R = 0; R < Strides.size(); ++R) {
      Monomial Q;
      if (!divides(Strides[R], M, Q))
        continue;
      Expr Term = fromMonomial(Q, T);
      if (Factor)
        Term = (Q.Coef == 1 && Q.Syms.empty()) ? Factor : makeBinary(BinOp::Mul, Term, Factor);
      Terms[R].push_back(Term);
      return;
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
    if (!toPolynomial(It->second, P) || P.size() != 1 || VarIt == F.VarsByNode.end())
      return false;
    Expr VarExpr = VarIt->second;
    Place(P[0], VarExpr->Type == T ? VarExpr : makeCast(T, VarExpr));
  }
  if (Order.size() != F.Coefs.size())
    return false;
  Polynomial Const;
  if (!toPolynomial(F.Constant, Const))
    return false;
  for (const Monomial &M : Const)
    Place(M, nullptr);
  for (auto &DimTerms : Terms)
    Dims.push_back(simplify(sumOf(DimTerms, T)));
  return true;
}

} // namespace extract
} // namespace sched
