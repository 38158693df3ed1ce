//===- Reduction.cpp - What a reduction loop reduces into ----------------===//
#include "ir/Reduction.h"
#include "ir/Access.h"
#include "ir/Dependence.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Printer.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"

#include <cmath>
#include <limits>
#include <set>

namespace sched {
namespace ir {

namespace {

/// The buffers allocated inside S.
class Allocations : public IRVisitor {
public:
  std::set<const BufferNode *> Bufs;

protected:
  void visitAllocate(const AllocateNode *N) override {
    Bufs.insert(N->Buf.get());
    IRVisitor::visitAllocate(N);
  }
};

/// `t[i]`: an access as the source writes it.
std::string elementText(const Access &A) {
  std::string Out = A.Buf->Name + "[";
  for (size_t D = 0; D < A.Indices.size(); ++D)
    Out += (D ? ", " : "") + print(A.Indices[D]);
  return Out + "]";
}

bool fail(std::string *Why, const std::string &Message) {
  if (Why)
    *Why = Message;
  return false;
}

} // namespace

bool reductionUpdatesOf(const ForNode *L, std::vector<ReductionUpdate> &Out,
                        std::string *Why) {
  Out.clear();
  Allocations Private;
  Private.visit(L->Body);
  std::vector<Access> Accesses = collectAccesses(L->Body);
  // The writes: each an update of one element no loop from L inward moves.
  for (const Access &A : Accesses) {
    if (!A.IsWrite || Private.Bufs.count(A.Buf.get()))
      continue;
    const std::string Name = A.Buf->Name;
    if (A.ByWarp)
      return fail(Why, "'" + Name + "' is written by a warp collective");
    BinOp Op;
    if (!isCommutativeUpdate(A.Statement, A.Buf.get(), Op))
      return fail(Why, "'" + stmtText(A.Statement) +
                           "' is not an update of '" + Name +
                           "' by +, -, *, min, max, &, |, ^, && or ||");
    std::vector<const VarNode *> Moving{L->LoopVar.get()};
    for (const ForNode *Inner : A.Loops)
      Moving.push_back(Inner->LoopVar.get());
    for (const Expr &I : A.Indices)
      for (const VarNode *V : Moving)
        if (usesVar(I, V))
          return fail(Why, "it writes '" + elementText(A) + "', an element that moves with '" +
                               V->Name + "'");
    const auto *St = static_cast<const StoreNode *>(A.Statement);
    ReductionUpdate *U = nullptr;
    for (ReductionUpdate &Known : Out)
      if (Known.Buf.get() == A.Buf.get())
        U = &Known;
    if (!U) {
      Out.push_back({A.Buf, A.Indices, Op, {}});
      U = &Out.back();
    } else if (!structurallyEqual(U->Indices, A.Indices) || U->Combine != Op) {
      return fail(Why, "'" + Name + "' is updated at two elements or with two operations");
    }
    U->Stores.push_back(St);
  }
  if (Out.empty())
    return fail(Why, "it writes nothing outside itself");
  // The reads of a reduced element: only its own updates' self-reads.
  for (const Access &A : Accesses) {
    if (A.IsWrite)
      continue;
    for (const ReductionUpdate &U : Out) {
      if (A.Buf.get() != U.Buf.get())
        continue;
      if (!U.updatedBy(A.Statement) || !structurallyEqual(A.Indices, U.Indices))
        return fail(Why, "it reads '" + elementText(A) + "' besides updating '" + U.Buf->Name +
                             "'");
    }
  }
  return true;
}

namespace {

/// Whether a value reads element Indices of Buf.
class ReadsElement : public IRVisitor {
public:
  ReadsElement(const BufferNode *Buf, const std::vector<Expr> &Indices)
      : Buf(Buf), Indices(Indices) {}
  bool Found = false;

protected:
  void visitLoad(const LoadNode *N) override {
    Found |= N->Buf.get() == Buf && structurallyEqual(N->Indices, Indices);
    IRVisitor::visitLoad(N);
  }

private:
  const BufferNode *Buf;
  const std::vector<Expr> &Indices;
};

class ReductionFinder : public IRVisitor {
public:
  explicit ReductionFinder(const VarNode *LoopVar) : LoopVar(LoopVar) {}
  bool Found = false;

  std::set<const BufferNode *> Private; // allocated inside the body

protected:
  void visitStore(const StoreNode *N) override {
    if (Found || Private.count(N->Buf.get()))
      return;
    for (const Expr &Index : N->Indices)
      if (usesVar(Index, LoopVar))
        return;
    ReadsElement Reads(N->Buf.get(), N->Indices);
    Reads.visit(N->Value);
    Found = Reads.Found;
  }

private:
  const VarNode *LoopVar;
};

class ReductionFlags : public IRMutator {
protected:
  Stmt mutateFor(const Stmt &S, const ForNode *N) override {
    Stmt Body = mutate(N->Body);
    bool Reduction = carriesReduction(Body, N->LoopVar.get());
    if (Body == N->Body && Reduction == N->IsReduction)
      return S;
    return makeFor(N->LoopVar, N->Min, N->Extent, Body, N->LoopKind, N->ThreadTag, Reduction);
  }
};

class UpdateRedirector : public IRMutator {
public:
  UpdateRedirector(const ReductionUpdate &U, const Buffer &To, const std::vector<Expr> &At)
      : U(U), To(To), At(At) {}

protected:
  Stmt mutateStore(const Stmt &S, const StoreNode *N) override {
    if (!U.updatedBy(N))
      return IRMutator::mutateStore(S, N);
    Redirecting = true;
    Expr Value = mutate(N->Value);
    Redirecting = false;
    return makeStoreLike(N, To, At, Value);
  }
  Expr mutateLoad(const Expr &E, const LoadNode *L) override {
    if (Redirecting && L->Buf.get() == U.Buf.get())
      return makeLoad(To, At);
    return IRMutator::mutateLoad(E, L);
  }

private:
  const ReductionUpdate &U;
  const Buffer &To;
  const std::vector<Expr> &At;
  bool Redirecting = false;
};

/// Finds `if (e CMP M[i]) { ... M[i] = e ... another store ... }`.
class ExtremumWithPayload : public IRVisitor {
public:
  const BufferNode *Found = nullptr;

protected:
  void visitIfThenElse(const IfThenElseNode *N) override {
    const auto *C = as<BinaryNode>(N->Cond);
    if (!Found && C && !N->Else &&
        (C->Op == BinOp::GT || C->Op == BinOp::GE || C->Op == BinOp::LT || C->Op == BinOp::LE)) {
      for (const auto &[Kept, Candidate] : {std::pair(C->A, C->B), std::pair(C->B, C->A)}) {
        const auto *M = as<LoadNode>(Kept);
        if (!M)
          continue;
        bool Replaced = false, Other = false;
        for (const Access &A : collectAccesses(N->Then))
          if (A.IsWrite) {
            const auto *S = as<StoreNode>(borrow(A.Statement));
            if (A.Buf.get() == M->Buf.get() && S && structurallyEqual(A.Indices, M->Indices) &&
                structurallyEqual(S->Value, Candidate))
              Replaced = true;
            else if (A.Buf.get() != M->Buf.get())
              Other = true;
          }
        if (Replaced && Other) {
          Found = M->Buf.get();
          return;
        }
      }
    }
    IRVisitor::visitIfThenElse(N);
  }
};

} // namespace

const BufferNode *extremumWithPayload(const Stmt &Body) {
  ExtremumWithPayload F;
  F.visit(Body);
  return F.Found;
}

bool carriesReduction(const Stmt &Body, const VarNode *LoopVar) {
  Allocations Private;
  Private.visit(Body);
  ReductionFinder F(LoopVar);
  F.Private = std::move(Private.Bufs);
  F.visit(Body);
  return F.Found;
}

Stmt refreshReductionFlags(const Stmt &S) { return ReductionFlags().mutate(S); }

Stmt redirectUpdates(const Stmt &Body, const ReductionUpdate &U, const Buffer &To,
                     const std::vector<Expr> &At) {
  return UpdateRedirector(U, To, At).mutate(Body);
}

Expr combineIn(BinOp Combine, DType T, Expr A, Expr B) {
  Expr V = makeBinary(Combine, std::move(A), std::move(B));
  return V->Type == T ? V : makeCast(T, V);
}

Expr reductionIdentity(BinOp Combine, DType T) {
  const bool Float = isFloat(T);
  const int Bits = dtypeBytes(T) * 8;
  const bool Unsigned = isUnsigned(T);
  auto largest = [&]() -> Expr {
    if (Float)
      return makeFloat(std::numeric_limits<double>::infinity(), T);
    if (T == DType::Bool)
      return makeBool(true);
    if (Unsigned)
      return makeInt(Bits == 64 ? -1 : int64_t((uint64_t(1) << Bits) - 1), T);
    return makeInt(Bits == 64 ? std::numeric_limits<int64_t>::max()
                              : (int64_t(1) << (Bits - 1)) - 1,
                   T);
  };
  auto smallest = [&]() -> Expr {
    if (Float)
      return makeFloat(-std::numeric_limits<double>::infinity(), T);
    if (T == DType::Bool)
      return makeBool(false);
    if (Unsigned)
      return makeInt(0, T);
    return makeInt(Bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (Bits - 1)),
                   T);
  };
  auto number = [&](int64_t V) -> Expr {
    if (T == DType::Bool)
      return makeBool(V != 0);
    return Float ? makeFloat(double(V), T) : makeInt(V, T);
  };
  switch (Combine) {
  case BinOp::Add:
  case BinOp::BitOr:
  case BinOp::BitXor:
    return number(0);
  case BinOp::Mul:
    return number(1);
  case BinOp::Min:
    return largest();
  case BinOp::Max:
    return smallest();
  case BinOp::BitAnd:
    return Float ? nullptr : makeInt(-1, T);
  case BinOp::And:
    return makeBool(true);
  case BinOp::Or:
    return makeBool(false);
  default:
    return nullptr;
  }
}

} // namespace ir
} // namespace sched
