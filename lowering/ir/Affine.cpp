//===- Affine.cpp - Linear forms of integer expressions -------------------===//
//
// Linearization with respect to a chosen set of "index" variables; every
// other subexpression free of them (parameters, outer loop variables) is a
// symbolic coefficient or constant. Coefficients are kept canonical so that
// two forms compare by structural equality.
//
//===----------------------------------------------------------------------===//

#include "Affine.h"
#include "IRVisitor.h"
#include "Simplify.h"

#include <algorithm>
#include <cstdlib>

namespace sched {
namespace ir {

namespace {

using IndexPred = std::function<bool(const VarNode *)>;

/// Whether E mentions an index variable or reads memory (neither can be a
/// coefficient: a load may differ between iterations).
class Dependence : public IRVisitor {
public:
  explicit Dependence(const IndexPred &P) : IsIndexVar(P) {}
  bool HasIndexVar = false, HasLoad = false;

protected:
  void visitVar(const VarNode *N) override { HasIndexVar |= IsIndexVar(N); }
  void visitLoad(const LoadNode *N) override {
    HasLoad = true;
    IRVisitor::visitLoad(N);
  }

private:
  const IndexPred &IsIndexVar;
};

/// Whether a conversion keeps the value of its operand: widening from a
/// signed type to a signed one, or from an unsigned type to any wider one;
/// any conversion to a 64-bit type (it wraps like the address it becomes);
/// or a conversion of an index variable itself (the extractor gives an
/// unsigned loop variable an int64 counter whose values all fit its
/// declared type, and converts its uses to that type). Anything else may
/// truncate or change sign (int8(i), uint32(i - 1)).
bool exactCast(const CastNode *C, const IndexPred &IsIndexVar) {
  DType From = C->Value->Type, To = C->Type;
  if (dtypeBytes(To) == 8)
    return true;
  if (const auto *V = as<VarNode>(C->Value))
    if (IsIndexVar(V) && From == DType::Int64 && isUnsigned(To))
      return true;
  if (From == DType::Bool)
    return true;
  if (isUnsigned(From))
    return dtypeBytes(To) > dtypeBytes(From) || (To == From);
  return !isUnsigned(To) && dtypeBytes(To) >= dtypeBytes(From);
}

Expr addExprs(const Expr &A, const Expr &B) { return canonicalize(makeBinary(BinOp::Add, A, B)); }
Expr mulExprs(const Expr &A, const Expr &B) { return canonicalize(makeBinary(BinOp::Mul, A, B)); }

bool isZero(const Expr &E) {
  int64_t V;
  return getConstInt(E, V) && V == 0;
}

void addScaled(AffineForm &Out, const AffineForm &In, const Expr &Scale) {
  Out.Constant = addExprs(Out.Constant, mulExprs(In.Constant, Scale));
  for (const auto &Term : In.Coefs) {
    Expr Scaled = mulExprs(Term.second, Scale);
    auto It = Out.Coefs.find(Term.first);
    Expr Sum = It == Out.Coefs.end() ? Scaled : addExprs(It->second, Scaled);
    if (isZero(Sum)) {
      Out.Coefs.erase(Term.first);
      continue;
    }
    Out.Coefs[Term.first] = Sum;
    Out.VarsByNode[Term.first] = In.VarsByNode.at(Term.first);
  }
}

bool linearize(const Expr &E, const IndexPred &IsIndexVar, AffineForm &Out, int Depth) {
  Out.Constant = makeInt(0, E ? E->Type : DType::Int32);
  if (!E || !isInt(E->Type) || Depth > 200)
    return false;
  Dependence D(IsIndexVar);
  D.visit(E);
  if (!D.HasIndexVar) {
    if (D.HasLoad)
      return false;
    Out.Constant = canonicalize(E);
    return true;
  }
  if (const auto *V = as<VarNode>(E)) {
    Out.Coefs[V] = makeInt(1, E->Type);
    Out.VarsByNode[V] = std::static_pointer_cast<const VarNode>(E);
    return true;
  }
  Expr One = makeInt(1, E->Type);
  if (const auto *C = as<CastNode>(E))
    return isInt(C->Value->Type) && exactCast(C, IsIndexVar) &&
           linearize(C->Value, IsIndexVar, Out, Depth + 1);
  // Arithmetic in a 32-bit (or narrower) unsigned type wraps modulo 2^32
  // where the integers it stands for would not (i - 1u at i = 0 indexes
  // element 4294967295): not linear. 64-bit arithmetic, signed or not, wraps
  // like the 64-bit address it becomes, and signed overflow is undefined.
  if (isUnsigned(E->Type) && dtypeBytes(E->Type) < 8)
    return false;
  if (const auto *U = as<UnaryNode>(E)) {
    AffineForm A;
    if (U->Op != UnOp::Neg || !linearize(U->A, IsIndexVar, A, Depth + 1))
      return false;
    addScaled(Out, A, makeInt(-1, E->Type));
    return true;
  }
  const auto *B = as<BinaryNode>(E);
  if (!B)
    return false;
  AffineForm A, C;
  if (!linearize(B->A, IsIndexVar, A, Depth + 1) || !linearize(B->B, IsIndexVar, C, Depth + 1))
    return false;
  switch (B->Op) {
  case BinOp::Add:
    addScaled(Out, A, One);
    addScaled(Out, C, One);
    return true;
  case BinOp::Sub:
    addScaled(Out, A, One);
    addScaled(Out, C, makeInt(-1, E->Type));
    return true;
  case BinOp::Mul:
    if (A.Coefs.empty()) {
      addScaled(Out, C, A.Constant);
      return true;
    }
    if (C.Coefs.empty()) {
      addScaled(Out, A, C.Constant);
      return true;
    }
    return false; // product of two index expressions
  default:
    return false; // division, modulo, min/max of an index variable
  }
}

/// Deterministic term order: symbolic coefficients, then larger constant
/// coefficients, then names - so i*K + k and io*8 + ii come out that way.
bool termBefore(const std::pair<const VarNode *, Expr> &A,
                const std::pair<const VarNode *, Expr> &B) {
  int64_t CA, CB;
  bool ConstA = getConstInt(A.second, CA), ConstB = getConstInt(B.second, CB);
  if (ConstA != ConstB)
    return !ConstA;
  if (ConstA && std::llabs(CA) != std::llabs(CB))
    return std::llabs(CA) > std::llabs(CB);
  return A.first->Name < B.first->Name;
}

/// Finds the first unsigned operation that may wrap (see mayWrap).
class WrapFinder : public IRVisitor {
public:
  bool Found = false;

protected:
  void visitIntImm(const IntImmNode *N) override {
    Found |= N->Type == DType::UInt64 && N->Value < 0;
  }
  void visitBinary(const BinaryNode *N) override {
    if (isUnsigned(N->Type))
      Found |= N->Op == BinOp::Sub || N->Op == BinOp::Shl ||
               ((N->Op == BinOp::Add || N->Op == BinOp::Mul) && dtypeBytes(N->Type) < 8);
    IRVisitor::visitBinary(N);
  }
  void visitUnary(const UnaryNode *N) override {
    Found |= isUnsigned(N->Type) && N->Op != UnOp::Not;
    IRVisitor::visitUnary(N);
  }
  void visitCast(const CastNode *N) override {
    DType From = N->Value->Type;
    bool LoopCounter = as<VarNode>(N->Value) && From == DType::Int64;
    Found |= isUnsigned(N->Type) && isInt(From) && !isUnsigned(From) && !LoopCounter;
    IRVisitor::visitCast(N);
  }
};

} // namespace

bool mayWrap(const Expr &E) {
  WrapFinder F;
  F.visit(E);
  return F.Found;
}

bool toAffineImpl(const Expr &E, const std::function<bool(const VarNode *)> &IsIndexVar,
                  AffineForm &Out) {
  AffineForm Result;
  if (!linearize(E, IsIndexVar, Result, 0))
    return false;
  Out = std::move(Result);
  return true;
}

Expr fromAffine(const AffineForm &F) {
  std::vector<std::pair<const VarNode *, Expr>> Terms(F.Coefs.begin(), F.Coefs.end());
  std::sort(Terms.begin(), Terms.end(), termBefore);
  Expr Sum;
  for (const auto &Term : Terms) {
    auto It = F.VarsByNode.find(Term.first);
    if (It == F.VarsByNode.end())
      continue;
    Expr Product = makeBinary(BinOp::Mul, It->second, Term.second);
    Sum = Sum ? makeBinary(BinOp::Add, Sum, Product) : Product;
  }
  Expr Constant = F.Constant ? F.Constant : makeInt(0);
  Sum = Sum ? makeBinary(BinOp::Add, Sum, Constant) : Constant;
  return canonicalize(Sum);
}

} // namespace ir
} // namespace sched
