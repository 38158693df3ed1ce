//===- ExtractLayout.cpp - Shapes of buffers the extractor finds ----------===//
//
// Delinearization of flat accesses. Every access of the buffer is an affine
// form in the loop variables (Affine.h); its coefficients are polynomials
// over parameters (K, N*K, 2*n - 1, 64). When some of the coefficients and
// their common factors form a divisibility chain 1 | S1 | S2 ... (e.g. {1, K};
// {1, K, K*(2*N - 1)} for `(2*N - 1)*K*i + 2*K*j + k`) they become the
// strides of a row-major shape [.., S2/S1, S1], and each access is split
// into one index per dimension (a coefficient that is no stride, like the 2
// of `i*(2*n-1) + 2*j`, stays inside the index of a dimension). Subsets of
// the candidate strides are tried, more strides first.
//
// The split names the same element as the flat index only when every inner
// index stays inside its dimension (0 <= k <= K-1 for `i*K + k`); whole rows
// move between an index and the one outside it where that makes it fit
// (`M*i + M - k - 1` is row i, column M - 1 - k). Where fitting is provable
// from the loop ranges, nothing more is needed. Where it depends on
// parameters only, for the columns of a leading dimension (`i*ld + j` with
// j < N: N <= ld, BLAS), the split is kept under that condition, an
// assumption the launcher checks before every launch (the original loop runs
// when it is false); a moved row that needs none is preferred, and no
// assumption is made that positive sizes cannot satisfy. Otherwise the
// buffer stays one-dimensional, which is always correct.
//
// Bounds of indices whose coefficients are products of parameters, which
// the interval analysis (Bounds.h) leaves open, come from the signs of the
// coefficients: where an access happens, each of its loops runs at least
// once (N >= 1 for j < N), other parameters are sizes (>= 0).
//
//===----------------------------------------------------------------------===//

#include "ExtractLayout.h"

#include "ir/Affine.h"
#include "ir/IRVisitor.h"
#include "ir/Simplify.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
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

/// Q = P / D when the division is exact, with integer coefficients: the
/// division algorithm in the graded order of termBefore (a monomial order),
/// which leaves no remainder exactly when D divides P, since the leading
/// term of every multiple of D is a multiple of D's leading term
/// (`2*K*N + 4*K - N - 2` / `2*K - 1` = `N + 2`).
bool dividePoly(const Polynomial &P, const Polynomial &D, Polynomial &Q) {
  Q.clear();
  if (D.empty() || P.empty())
    return false;
  Polynomial Rest = P;
  // Each step removes the leading term; the bound only guards against
  // pathological inputs.
  for (int Step = 0; !Rest.empty(); ++Step) {
    Monomial Term;
    if (Step == 64 || !divides(D[0], Rest[0], Term))
      return false;
    Q.push_back(Term);
    Rest = difference(Rest, product({Term}, D));
  }
  Q = normalize(Q);
  return true;
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
// Bounds of indices whose coefficients are polynomials
//===----------------------------------------------------------------------===//

namespace {

/// Lower bounds of parameters. Where an access happens, every loop whose
/// variable its index uses runs at least once, so that loop's last value is
/// at least its first (`j < N`: N >= 1). Parameters without such a bound
/// are sizes, taken as non-negative (the policy of Extractor.cpp).
using ParamFloors = std::map<const VarNode *, int64_t>;

/// The floors that the loops of Index imply.
ParamFloors floorsFor(const Expr &Index, const VarRanges &Ranges) {
  ParamFloors Out;
  for (const VarNode *V : varsOf(Index)) {
    auto It = Ranges.find(V);
    Polynomial First, Last;
    if (It == Ranges.end() || !It->second.isBounded() || !toPolynomial(It->second.Min, First) ||
        !toPolynomial(It->second.Max, Last))
      continue;
    // Last - First = A*p + C >= 0 with A > 0 gives p >= ceil(-C / A).
    const Monomial *Lead = nullptr;
    int64_t C = 0;
    bool Linear = true;
    Polynomial Span = difference(Last, First);
    for (const Monomial &M : Span) {
      if (M.Syms.empty())
        C = M.Coef;
      else if (!Lead && M.Syms.size() == 1 && M.Coef > 0 && !Ranges.count(M.Syms[0].get()))
        Lead = &M;
      else
        Linear = false;
    }
    if (!Linear || !Lead)
      continue;
    int64_t A = Lead->Coef;
    int64_t Floor = C <= 0 ? (-C + A - 1) / A : -(C / A);
    auto Old = Out.find(Lead->Syms[0].get());
    if (Old == Out.end() || Old->second < Floor)
      Out[Lead->Syms[0].get()] = Floor;
  }
  return Out;
}

/// P with each parameter p written Floor(p) + p (the new p >= 0); parameters
/// without a floor in Floors have floor Default.
Polynomial shiftedToFloors(const Polynomial &P, const ParamFloors &Floors, int64_t Default) {
  Polynomial Out;
  for (const Monomial &M : P) {
    Polynomial Term{Monomial{M.Coef, {}}};
    for (const Var &S : M.Syms) {
      auto It = Floors.find(S.get());
      int64_t Floor = It == Floors.end() ? Default : It->second;
      Term = product(Term, normalize({Monomial{1, {S}}, Monomial{Floor, {}}}));
    }
    Out = sum(Out, Term);
  }
  return Out;
}

/// +1 when P >= 0, -1 when P <= 0 for all parameters at or above their
/// floors, 0 when neither is certain: shifted to the floors, P's sign is
/// certain when all its coefficients share it.
int signOf(const Polynomial &P, const ParamFloors &Floors) {
  Polynomial Shifted = shiftedToFloors(P, Floors, 0);
  if (std::all_of(Shifted.begin(), Shifted.end(), [](const Monomial &M) { return M.Coef >= 0; }))
    return 1;
  if (std::all_of(Shifted.begin(), Shifted.end(), [](const Monomial &M) { return M.Coef <= 0; }))
    return -1;
  return 0;
}

/// Lo <= Index <= Hi, polynomials over the parameters, at every iteration
/// where the access happens (Floors: those of its loops). Index is affine in
/// the loop variables with polynomial coefficients (`(2*K*N - K)*i + 2*K*j +
/// k`), each of a certain sign, so each term takes its extremes at the ends
/// of its loop's range: the exact bounds over the loop box, where boundsOf
/// gives up on products of parameters.
bool polynomialBounds(const Expr &Index, const VarRanges &Ranges, const ParamFloors &Floors,
                      Polynomial &Lo, Polynomial &Hi) {
  AffineForm F;
  if (!toAffine(Index, [&](const VarNode *V) { return Ranges.count(V) != 0; }, F) ||
      !toPolynomial(F.Constant, Lo))
    return false;
  Hi = Lo;
  auto OverParameters = [&](const Polynomial &P) {
    return std::all_of(P.begin(), P.end(), [&](const Monomial &M) {
      return std::none_of(M.Syms.begin(), M.Syms.end(),
                          [&](const Var &S) { return Ranges.count(S.get()) != 0; });
    });
  };
  for (const auto &Entry : F.Coefs) {
    const Interval &Range = Ranges.at(Entry.first);
    Polynomial Coef, First, Last;
    if (!toPolynomial(Entry.second, Coef) || !Range.isBounded() ||
        !toPolynomial(Range.Min, First) || !toPolynomial(Range.Max, Last) ||
        !OverParameters(First) || !OverParameters(Last))
      return false;
    int Sign = signOf(Coef, Floors);
    if (!Sign)
      return false;
    Lo = sum(Lo, product(Coef, Sign > 0 ? First : Last));
    Hi = sum(Hi, product(Coef, Sign > 0 ? Last : First));
  }
  return true;
}

/// Lo <= Index <= Hi over Ranges: from boundsOf, or where it gives up, from
/// polynomialBounds.
bool indexBounds(const Expr &Index, const VarRanges &Ranges, const ParamFloors &Floors,
                 Polynomial &Lo, Polynomial &Hi) {
  Interval I = boundsOf(Index, Ranges);
  if (I.isBounded() && toPolynomial(I.Min, Lo) && toPolynomial(I.Max, Hi))
    return true;
  return polynomialBounds(Index, Ranges, Floors, Lo, Hi);
}

} // namespace

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

void addOnce(std::vector<Polynomial> &Set, const Polynomial &P) {
  if (std::none_of(Set.begin(), Set.end(), [&](const Polynomial &S) { return samePoly(S, P); }))
    Set.push_back(P);
}

/// Whether the loop of V runs one iteration only (its first and last values
/// are equal).
bool singleIteration(const VarNode *V, const VarRanges &Ranges) {
  const Interval &Range = Ranges.at(V);
  Polynomial First, Last;
  return Range.isBounded() && toPolynomial(Range.Min, First) && toPolynomial(Range.Max, Last) &&
         difference(Last, First).empty();
}

/// The coefficients of Flat's loop variables, signs dropped, added to
/// Strides once each. A loop of one iteration adds a constant to the index,
/// no dimension: its constant coefficient is no stride (the 6 of `3*i + 6*j
/// + k` with j < 1, which would make the column `3*i + k` fit a row of 6
/// only for i < 2). A symbolic one still names a row length the program
/// uses (`i*ld + j` with i < 1).
bool collectStrides(const Expr &Flat, const std::vector<const VarNode *> &IndexVars,
                    const VarRanges &Ranges, std::vector<Polynomial> &Strides) {
  AffineForm F;
  if (!toAffine(Flat, [&](const VarNode *V) { return isIndexVarOf(IndexVars, V); }, F))
    return false;
  for (const auto &Entry : F.Coefs) {
    Polynomial P;
    if (!toPolynomial(Entry.second, P) || P.empty())
      return false;
    int64_t Constant;
    if (!constantOf(P, Constant) || !singleIteration(Entry.first, Ranges))
      addOnce(Strides, P.front().Coef < 0 ? scaled(P, -1) : P);
  }
  return true;
}

/// The largest monomial dividing both A and B (shared symbols, gcd of the
/// coefficients).
Monomial commonFactor(const Monomial &A, const Monomial &B) {
  Monomial Out;
  int64_t Gcd = std::gcd(A.Coef, B.Coef);
  Out.Coef = Gcd ? Gcd : 1;
  std::vector<Var> Rest = B.Syms;
  for (const Var &S : A.Syms) {
    auto It = std::find(Rest.begin(), Rest.end(), S);
    if (It == Rest.end())
      continue;
    Out.Syms.push_back(S);
    Rest.erase(It);
  }
  return Out;
}

/// The monomial dividing every term of P (`K` for `2*K*N - K`).
Monomial contentOf(const Polynomial &P) {
  Monomial Out = P.front();
  for (const Monomial &M : P)
    Out = commonFactor(Out, M);
  return Out;
}

/// Strides the coefficients share without being coefficients themselves:
/// the row of `(2*N - 1)*K*i + 2*K*j + k` is K, the factor of both (giving
/// [.., 2*N - 1, K] with column `2*j`); the row of `(22*N - 11)*i + (4*N -
/// 2)*j + 2*k` is 2*N - 1, what is left of each coefficient without its
/// monomial factor (giving [.., 11, 2*N - 1] with columns `2*j` and `2*k`).
/// Symbolic common factors of the coefficients, and of pairs of them, and
/// the symbolic coefficients divided by their monomial factors are added to
/// Strides.
void addCommonFactors(std::vector<Polynomial> &Strides) {
  std::vector<Monomial> Contents;
  std::vector<Polynomial> Factors;
  for (const Polynomial &P : Strides) {
    if (degree(P) == 0)
      continue;
    Contents.push_back(contentOf(P));
    Polynomial Rest;
    if (dividePoly(P, {Contents.back()}, Rest) && degree(Rest) > 0)
      addOnce(Factors, Rest);
  }
  for (size_t I = 0; I < Contents.size(); ++I)
    for (size_t J = I; J < Contents.size(); ++J) {
      Monomial F = commonFactor(Contents[I], Contents[J]);
      if (!F.Syms.empty())
        addOnce(Factors, normalize({F}));
    }
  for (const Polynomial &F : Factors)
    addOnce(Strides, F);
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

/// Whether some positive sizes satisfy P >= 0 (P over parameters): not
/// `-M >= 0` (M <= 0), which with every parameter at 1 or above has only
/// non-positive coefficients and a negative constant. A kernel under such an
/// assumption would never run.
bool satisfiable(const Polynomial &P) {
  Polynomial AtOne = shiftedToFloors(P, {}, 1);
  int64_t Constant = 0;
  bool NonPositive = true;
  for (const Monomial &M : AtOne) {
    NonPositive = NonPositive && M.Coef <= 0;
    if (M.Syms.empty())
      Constant = M.Coef;
  }
  return !NonPositive || Constant >= 0;
}

/// Whether P, the room a column leaves in a row of constant length, fails
/// as a condition P >= 0 as soon as every size is 2 (each loop over a size
/// runs twice) and fails more as sizes grow together: `1 - M` (a column
/// j + 1 with j < M in a row of 2), `2 - 2*K`. A launch of any real size
/// would fail such an assumption. Not so `20 - n` (n columns of a row of
/// 20); rows of a run-time length (`ld - 2*M + 1`: columns 2*k of a leading
/// dimension) are the caller's to size and never rejected here.
bool shrinksWithSizes(const Polynomial &P) {
  double Growing = 0, AtTwo = 0;
  for (const Monomial &M : P) {
    AtTwo += static_cast<double>(M.Coef) * std::pow(2.0, M.Syms.size());
    if (!M.Syms.empty())
      Growing += static_cast<double>(M.Coef) * std::pow(1000.0, M.Syms.size());
  }
  return Growing < 0 && AtTwo < 0;
}

/// Whether P >= 0 for the arguments of a launch, where P (over parameters)
/// is the room an index leaves in a dimension of extent Row (empty: no
/// extent). True when P is a non-negative constant, or provably non-negative
/// with the parameters at or above Floors; false when it is a negative
/// constant, when a parameter of the row itself makes it negative as it
/// grows (`1 - K`: a column `2*k` with k < K in rows of K), a condition that
/// nearly every launch would fail, when no positive sizes satisfy it
/// (`-M >= 0`), and when, in a row of constant length, sizes growing
/// together make it negative (`1 - M`): the buffer then stays flat.
/// Otherwise (`ld - N`: columns j < N in rows of ld) P >= 0 becomes a
/// run-time assumption.
bool nonNegative(const Polynomial &P, const Polynomial &Row, const VarRanges &Ranges,
                 const ParamFloors &Floors, DType T, std::vector<Expr> &Assumptions) {
  int64_t Value;
  if (constantOf(P, Value))
    return Value >= 0;
  if (signOf(P, Floors) > 0)
    return true;
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
    // Loop variables are relaxed by the bounds: what is left are parameters.
    for (const Var &S : M.Syms)
      if (Ranges.count(S.get()))
        return false;
  }
  int64_t RowLength;
  if (!satisfiable(P) || (constantOf(Row, RowLength) && shrinksWithSizes(P)))
    return false;
  addAssumption(Assumptions, simplify(nonNegativeCondition(P, T)));
  return true;
}

/// Whether Index is loop variables with constant factors plus an offset over
/// parameters (`j`, `j + 1`, `2*k + off`; with AnySign also `M - 1 - k`): the
/// columns a leading dimension holds, moving with each loop.
bool columnsOfALeadingDimension(const Expr &Index, const VarRanges &Ranges, bool AnySign) {
  AffineForm F;
  if (!toAffine(Index, [&](const VarNode *V) { return Ranges.count(V) != 0; }, F))
    return false;
  return std::all_of(F.Coefs.begin(), F.Coefs.end(), [&](const auto &Entry) {
    int64_t Factor;
    return getConstInt(Entry.second, Factor) && (Factor > 0 || (AnySign && Factor != 0));
  });
}

/// Whether 0 <= Index < Extent at every iteration: provably from the loop
/// ranges, or under conditions over parameters added to Assumptions (checked
/// at run time). Conditions are made for the columns of a leading dimension
/// only (`j < N` in rows of ld: N <= ld; also `N - 1 - j`, whose room below
/// is proved and whose room above needs the same N <= ld). A column with a symbolic or
/// negative factor holds a part of a term that the split could not put
/// under its own stride (`i*K` in rows of 2; `n - i` with n < N in rows of
/// N): the condition for it to fit (`K*M <= K + 1`, `M <= 1`) ties sizes
/// that nearly every launch keeps apart, so the shape is not taken.
bool fitsInside(const Expr &Index, const Polynomial &Extent, const VarRanges &Ranges,
                const ParamFloors &Floors, std::vector<Expr> &Assumptions) {
  Polynomial Lo, Hi;
  if (!indexBounds(Index, Ranges, Floors, Lo, Hi))
    return false;
  DType T = Index->Type;
  // Room below: Min >= 0; room above: Extent - (Max + 1) >= 0.
  std::vector<Expr> Below, Above;
  if (!nonNegative(Lo, {}, Ranges, Floors, T, Below) ||
      !nonNegative(difference(Extent, sum(Hi, {Monomial{1, {}}})), Extent, Ranges, Floors, T,
                   Above))
    return false;
  // A column running backwards (`M - 1 - k` in rows of ld) whose room below
  // is proved needs only the condition of its forward twin (M <= ld).
  if (!Below.empty() && !columnsOfALeadingDimension(Index, Ranges, /*AnySign=*/false))
    return false;
  if (!Above.empty() && !columnsOfALeadingDimension(Index, Ranges, /*AnySign=*/Below.empty()))
    return false;
  for (const Expr &Cond : Below)
    addAssumption(Assumptions, Cond);
  for (const Expr &Cond : Above)
    addAssumption(Assumptions, Cond);
  return true;
}

/// The subsets of Candidates (indices into it) that contain One and at
/// least one other stride, in the order they are tried: more strides first,
/// then more symbolic ones, then the order of the candidates. Empty when
/// there are too many candidates to try every subset; the caller then tries
/// the whole set and its symbolic part only.
std::vector<std::vector<size_t>> strideSubsets(const std::vector<Polynomial> &Candidates,
                                               size_t One) {
  std::vector<size_t> Others;
  for (size_t I = 0; I < Candidates.size(); ++I)
    if (I != One)
      Others.push_back(I);
  std::vector<std::vector<size_t>> Out;
  if (Others.empty() || Others.size() > 9)
    return Out;
  auto Symbolic = [&](const std::vector<size_t> &Set) {
    return std::count_if(Set.begin(), Set.end(),
                         [&](size_t I) { return degree(Candidates[I]) > 0; });
  };
  for (unsigned Mask = (1u << Others.size()) - 1; Mask > 0; --Mask) {
    std::vector<size_t> Set;
    for (size_t B = 0; B < Others.size(); ++B)
      if (Mask & (1u << B))
        Set.push_back(Others[B]);
    Set.push_back(One);
    Out.push_back(Set);
  }
  std::vector<size_t> Order(Out.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    if (Out[A].size() != Out[B].size())
      return Out[A].size() > Out[B].size();
    if (Symbolic(Out[A]) != Symbolic(Out[B]))
      return Symbolic(Out[A]) > Symbolic(Out[B]);
    return A < B;
  });
  std::vector<std::vector<size_t>> Sorted;
  for (size_t I : Order)
    Sorted.push_back(Out[I]);
  return Sorted;
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
    Polynomial Lo, Hi;
    if (!Max && polynomialBounds(Index, Ranges, floorsFor(Index, Ranges), Lo, Hi))
      Max = fromPolynomial(Hi, Index->Type);
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

namespace {

bool hasLoopVarOrMinMax(const Expr &E, const VarRanges &Ranges) {
  if (const auto *V = as<VarNode>(E))
    return Ranges.count(V) != 0;
  if (const auto *B = as<BinaryNode>(E))
    return B->Op == BinOp::Min || B->Op == BinOp::Max || hasLoopVarOrMinMax(B->A, Ranges) ||
           hasLoopVarOrMinMax(B->B, Ranges);
  if (const auto *C = as<CastNode>(E))
    return hasLoopVarOrMinMax(C->Value, Ranges);
  if (const auto *U = as<UnaryNode>(E))
    return hasLoopVarOrMinMax(U->A, Ranges);
  return as<SelectNode>(E) != nullptr || as<LoadNode>(E) != nullptr;
}

/// A bound of E (an upper one when Upper) without loop variables or
/// min/max; null when there is none of that shape. Depth stops a cycle.
Expr looseBound(const Expr &E, bool Upper, const VarRanges &Ranges, bool PreferConstant,
                int Depth = 0) {
  if (!E || Depth > 32)
    return nullptr;
  if (!hasLoopVarOrMinMax(E, Ranges))
    return E;
  if (const auto *V = as<VarNode>(E)) {
    const Interval &R = Ranges.at(V);
    return looseBound(Upper ? R.Max : R.Min, Upper, Ranges, PreferConstant, Depth + 1);
  }
  if (const auto *C = as<CastNode>(E)) {
    Expr Inner = looseBound(C->Value, Upper, Ranges, PreferConstant, Depth + 1);
    return Inner ? makeCast(C->Type, Inner) : nullptr;
  }
  const auto *B = as<BinaryNode>(E);
  if (!B)
    return nullptr;
  auto Both = [&](bool UpA, bool UpB) -> std::pair<Expr, Expr> {
    return {looseBound(B->A, UpA, Ranges, PreferConstant, Depth + 1),
            looseBound(B->B, UpB, Ranges, PreferConstant, Depth + 1)};
  };
  int64_t C = 0;
  switch (B->Op) {
  case BinOp::Add: {
    auto [X, Y] = Both(Upper, Upper);
    return X && Y ? makeBinary(BinOp::Add, X, Y) : nullptr;
  }
  case BinOp::Sub: {
    auto [X, Y] = Both(Upper, !Upper);
    return X && Y ? makeBinary(BinOp::Sub, X, Y) : nullptr;
  }
  case BinOp::Mul:
    // A constant factor keeps or flips the direction.
    if (getConstInt(B->B, C)) {
      Expr X = looseBound(B->A, C >= 0 ? Upper : !Upper, Ranges, PreferConstant, Depth + 1);
      return X ? makeBinary(BinOp::Mul, X, B->B) : nullptr;
    }
    if (getConstInt(B->A, C)) {
      Expr Y = looseBound(B->B, C >= 0 ? Upper : !Upper, Ranges, PreferConstant, Depth + 1);
      return Y ? makeBinary(BinOp::Mul, B->A, Y) : nullptr;
    }
    return nullptr;
  case BinOp::Min:
  case BinOp::Max:
    // min(a, b) <= a and <= b; max(a, b) >= a and >= b: either operand.
    if ((B->Op == BinOp::Min) == Upper) {
      // A constant operand is often the tighter choice for a layout
      // (`min(m, 8)`: rows of 8, with no assumption on m); a size where the
      // rows are of that size, unless the constant is written and the size
      // reached through a loop (`min(3, j + 1)`; polynomialBox).
      Expr X = looseBound(B->A, Upper, Ranges, PreferConstant, Depth + 1);
      Expr Y = looseBound(B->B, Upper, Ranges, PreferConstant, Depth + 1);
      if (!X || !Y)
        return X ? X : Y;
      bool WrittenX = !hasLoopVarOrMinMax(B->A, Ranges);
      bool WrittenY = !hasLoopVarOrMinMax(B->B, Ranges);
      if (!PreferConstant && WrittenX != WrittenY)
        return WrittenY ? Y : X;
      if (getConstInt(X, C) != getConstInt(Y, C))
        return getConstInt(Y, C) == PreferConstant ? Y : X;
      return X;
    }
    return nullptr;
  default:
    return nullptr;
  }
}

} // namespace

VarRanges polynomialBox(const VarRanges &Ranges, bool PreferConstant) {
  VarRanges Box = Ranges;
  for (auto &[V, R] : Box) {
    if (!R.isBounded())
      continue;
    if (hasLoopVarOrMinMax(R.Min, Ranges))
      if (Expr Lo = looseBound(R.Min, false, Ranges, PreferConstant))
        R.Min = simplify(Lo);
    if (hasLoopVarOrMinMax(R.Max, Ranges))
      if (Expr Hi = looseBound(R.Max, true, Ranges, PreferConstant))
        R.Max = simplify(Hi);
  }
  return Box;
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

/// Whether rows of constant lengths would need an assumption that caps a
/// size the row index ranges over: `L[i*5 + j - i + 2]` under a band guard is
/// `4*i + j + 2`, rows of 4 with the column j + 2 for j < n, which needs n <=
/// 2, but n is the number of rows too, so the assumption holds only for a
/// matrix of at most 2 rows and fails at every real size (the kernel would
/// never run). A leading dimension (`i*ld + j`: N <= ld) or a capacity
/// (`A[i*64 + j]` with j < m: m <= 64) caps only the columns and is taken.
bool FlatLayout::capsRows(const std::vector<Expr> &Outer,
                          const std::vector<Expr> &Assumed) const {
  for (const Polynomial &S : Strides) {
    int64_t C;
    if (!constantOf(S, C))
      return false;
  }
  std::set<const VarNode *> RowSizes;
  for (const Expr &Row : Outer)
    for (const VarNode *V : varsOf(Row)) {
      auto It = Ranges.find(V);
      if (It == Ranges.end() || !It->second.isBounded())
        continue;
      for (const Expr &Bound : {It->second.Min, It->second.Max})
        for (const VarNode *P : varsOf(Bound))
          if (std::find(IndexVars.begin(), IndexVars.end(), P) == IndexVars.end())
            RowSizes.insert(P);
    }
  for (const Expr &A : Assumed)
    for (const VarNode *P : varsOf(A))
      if (RowSizes.count(P))
        return true;
  return false;
}

bool FlatLayout::tryStrides(std::vector<Polynomial> Candidates,
                            const std::vector<Expr> &FlatIndices, const Expr &DeclaredSize,
                            bool MayAssume) {
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
  // An inner index made of parameters alone (`x[n - 3*i]` split as
  // [-i, n] in rows of 3) is no column of the loops: it fits its row only
  // for small parameters (n <= 2), an assumption that fails at every real
  // size. Such a layout is not taken when it needs assuming.
  bool ParameterColumn = false;
  for (const Expr &Flat : FlatIndices) {
    if (!split(Flat, Dims) || !fit(Flat, Dims, Assumed))
      return false;
    Outer.push_back(Dims[0]);
    for (size_t R = 1; R < Dims.size(); ++R) {
      bool LoopVar = false, Param = false;
      for (const VarNode *V : varsOf(Dims[R]))
        (std::find(IndexVars.begin(), IndexVars.end(), V) != IndexVars.end() ? LoopVar : Param) =
            true;
      ParameterColumn |= Param && !LoopVar;
    }
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
  if ((!MayAssume || ParameterColumn || capsRows(Outer, Assumed)) && !Assumed.empty())
    return false;
  this->Shape = Shape;
  Assumptions = Assumed;
  return true;
}

bool FlatLayout::choose(const std::vector<Expr> &FlatIndices, const VarRanges &Ranges,
                        const Expr &DeclaredSize, FlatLayout &Out) {
  Out = FlatLayout();
  Out.Ranges = Ranges;
  for (const auto &Entry : Ranges)
    Out.IndexVars.push_back(Entry.first);
  std::vector<Polynomial> Candidates;
  bool Affine = !FlatIndices.empty();
  for (const Expr &Flat : FlatIndices)
    Affine = Affine && collectStrides(Flat, Out.IndexVars, Ranges, Candidates);
  if (Affine) {
    std::vector<Polynomial> Coefficients = Candidates;
    addCommonFactors(Candidates);
    auto OneIt = std::find_if(Candidates.begin(), Candidates.end(), isOne);
    if (OneIt == Candidates.end()) {
      Candidates.push_back(Polynomial{Monomial{1, {}}});
      OneIt = Candidates.end() - 1;
    }
    std::vector<std::vector<Polynomial>> Sets;
    for (const std::vector<size_t> &Subset :
         strideSubsets(Candidates, static_cast<size_t>(OneIt - Candidates.begin()))) {
      Sets.emplace_back();
      for (size_t I : Subset)
        Sets.back().push_back(Candidates[I]);
    }
    if (Sets.empty()) {
      // Too many to try them all: every coefficient a stride; failing that,
      // only the symbolic ones (a constant factor like the 2 of `2*j` then
      // stays in its index).
      Sets.push_back(Coefficients);
      Sets.emplace_back();
      for (const Polynomial &S : Coefficients)
        if (degree(S) > 0)
          Sets.back().push_back(S);
      for (std::vector<Polynomial> &Set : Sets)
        if (std::none_of(Set.begin(), Set.end(), isOne))
          Set.push_back(Polynomial{Monomial{1, {}}});
    }
    // Among shapes with as many dimensions, one that needs no assumption
    // first: rows of 2*N - 1 in `(22*N - 11)*i + (4*N - 2)*j + 2*k` hold
    // every access, rows of 4*N - 2 would need the column `11*i` to fit.
    for (size_t First = 0, Last; First < Sets.size(); First = Last) {
      for (Last = First; Last < Sets.size() && Sets[Last].size() == Sets[First].size(); ++Last)
        ;
      for (bool MayAssume : {false, true})
        for (size_t I = First; I < Last; ++I)
          if (Out.tryStrides(Sets[I], FlatIndices, DeclaredSize, MayAssume))
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
  std::vector<Expr> Dims, Assumed;
  if (Strides.size() <= 1 || !split(Flat, Dims) || !fit(Flat, Dims, Assumed))
    return {Flat};
  return Dims;
}

bool FlatLayout::fit(const Expr &Flat, std::vector<Expr> &Dims,
                     std::vector<Expr> &Assumed) const {
  // A split puts every part of a term under the outermost stride that
  // divides it, so `M*i + M - k - 1` (rows of M) gives row i + 1, column
  // -1 - k: the same element as row i, column M - 1 - k, which lies in its
  // row for every M. Moving whole rows between an index and the one
  // outside it, innermost first, finds the split whose indices stay inside
  // their dimensions, without assumptions where one exists.
  ParamFloors Floors = floorsFor(Flat, Ranges);
  DType T = Flat->Type;
  for (size_t R = Dims.size() - 1; R >= 1; --R) {
    Polynomial Row;
    dividePoly(Strides[R - 1], Strides[R], Row);
    Expr RowExpr = fromPolynomial(Row, T);
    bool Placed = false;
    for (bool Assuming : {false, true}) {
      if (Placed)
        break;
      for (int64_t Rows : {0, 1, -1, 2, -2}) {
        // Under assumptions, the split as it is: a moved row would trade
        // one condition on the sizes for others (`j + N - M` for `j + N`).
        if (Assuming && Rows)
          break;
        Expr Inner = Dims[R];
        if (Rows)
          Inner = simplify(makeBinary(BinOp::Add, Inner,
                                      makeBinary(BinOp::Mul, makeInt(Rows, T), RowExpr)));
        std::vector<Expr> Needed;
        if (!fitsInside(Inner, Row, Ranges, Floors, Needed) ||
            (!Assuming && !Needed.empty()))
          continue;
        Dims[R] = Inner;
        if (Rows)
          Dims[R - 1] = simplify(makeBinary(BinOp::Sub, Dims[R - 1], makeInt(Rows, T)));
        for (const Expr &A : Needed)
          addAssumption(Assumed, A);
        Placed = true;
        break;
      }
    }
    if (!Placed)
      return false;
  }
  return true;
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
