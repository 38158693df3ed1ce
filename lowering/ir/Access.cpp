//===- Access.cpp - The one access analysis -------------------------------===//
//
// collectAccesses walks a statement once, recording every load and store with
// its enclosing loops and guards; intrinsic calls contribute the buffer
// operands their declarations name (Intrinsics.h). isParallelLoop is the
// dependence test schedule legality uses, built on that list and on affine
// forms of the indices.
//
//===----------------------------------------------------------------------===//

#include "Access.h"
#include "Affine.h"
#include "IRMutator.h"
#include "IRVisitor.h"
#include "Intrinsics.h"
#include "Simplify.h"

#include <set>

namespace sched {
namespace ir {

namespace {

class AccessCollector : public IRVisitor {
public:
  std::vector<Access> Accesses;

protected:
  void visitLoad(const LoadNode *N) override {
    IRVisitor::visitLoad(N); // loads inside the indices happen first
    record(N->Buf, N->Indices, false);
  }

  void visitCall(const CallNode *N) override {
    const IntrinsicInfo *Info = lookupIntrinsic(N->Name);
    for (size_t I = 0; I < N->Args.size(); ++I) {
      OperandRole Role = Info && I < Info->Operands.size() ? Info->Operands[I] : OperandRole::Value;
      const auto *BufArg = as<LoadNode>(N->Args[I]);
      if (!BufArg || Role == OperandRole::Value || Role == OperandRole::FragmentIndex) {
        visit(N->Args[I]);
        continue;
      }
      for (const Expr &Index : BufArg->Indices)
        visit(Index);
      if (Role == OperandRole::ReadBuffer || Role == OperandRole::ReadWriteBuffer)
        record(BufArg->Buf, BufArg->Indices, false);
      if (Role == OperandRole::WriteBuffer || Role == OperandRole::ReadWriteBuffer)
        record(BufArg->Buf, BufArg->Indices, true);
    }
  }

  void visitStore(const StoreNode *N) override {
    StatementScope Scope(Current, N);
    IRVisitor::visitStore(N);
    record(N->Buf, N->Indices, true);
  }

  void visitEvaluate(const EvaluateNode *N) override {
    StatementScope Scope(Current, N);
    IRVisitor::visitEvaluate(N);
  }

  void visitFor(const ForNode *N) override {
    {
      StatementScope Scope(Current, N);
      visit(N->Min);
      visit(N->Extent);
    }
    Loops.push_back(N);
    visit(N->Body);
    Loops.pop_back();
  }

  void visitIfThenElse(const IfThenElseNode *N) override {
    {
      StatementScope Scope(Current, N);
      visit(N->Cond);
    }
    Guards.push_back(N->Cond);
    visit(N->Then);
    Guards.back() = makeUnary(UnOp::Not, N->Cond);
    visit(N->Else);
    Guards.pop_back();
  }

  void visitLetStmt(const LetStmtNode *N) override {
    {
      StatementScope Scope(Current, N);
      visit(N->Value);
    }
    visit(N->Body);
  }

private:
  std::vector<const ForNode *> Loops;
  std::vector<Expr> Guards;
  const StmtNode *Current = nullptr;

  struct StatementScope {
    const StmtNode *&Slot;
    const StmtNode *Saved;
    StatementScope(const StmtNode *&S, const StmtNode *N) : Slot(S), Saved(S) { Slot = N; }
    ~StatementScope() { Slot = Saved; }
  };

  void record(const Buffer &B, const std::vector<Expr> &Indices, bool IsWrite) {
    Access A;
    A.Buf = B;
    A.Indices = Indices;
    A.IsWrite = IsWrite;
    A.Loops = Loops;
    A.Guards = Guards;
    A.Statement = Current;
    Accesses.push_back(std::move(A));
  }
};

/// Buffers allocated in a statement, and calls whose effects are unknown.
class BodyFacts : public IRVisitor {
public:
  std::set<const BufferNode *> Allocated;
  std::string UnknownCall;

protected:
  void visitAllocate(const AllocateNode *N) override {
    Allocated.insert(N->Buf.get());
    IRVisitor::visitAllocate(N);
  }
  void visitCall(const CallNode *N) override {
    if (!lookupIntrinsic(N->Name) && UnknownCall.empty())
      UnknownCall = N->Name;
    IRVisitor::visitCall(N);
  }
};

bool sameIndices(const std::vector<Expr> &A, const std::vector<Expr> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t D = 0; D < A.size(); ++D) {
    int64_t Diff;
    if (!structurallyEqual(A[D], B[D]) &&
        !(getConstInt(canonicalize(makeBinary(BinOp::Sub, A[D], B[D])), Diff) && Diff == 0))
      return false;
  }
  return true;
}

enum class Disjointness { Disjoint, Invariant, Unknown };

/// Matches `X / C` or `X % C` with a positive constant C.
bool matchDivMod(const Expr &E, BinOp Op, Expr &X, int64_t &C) {
  const auto *B = as<BinaryNode>(E);
  if (!B || B->Op != Op || !getConstInt(B->B, C) || C <= 0)
    return false;
  X = B->A;
  return true;
}

/// The indices of an access plus the linear indices they determine. A fused
/// loop f reaches a buffer as [f / E, f % E] (fuse, or a split of a fused
/// loop): neither dimension is affine, but since X == C * (X / C) + X % C
/// (for C's truncating division as well), the pair determines X, so two
/// accesses with different X touch different elements. Adding X lets the
/// stride test below see through the fuse.
std::vector<Expr> withRecoveredLinearIndices(const std::vector<Expr> &Indices) {
  std::vector<Expr> Result = Indices;
  for (const Expr &Quotient : Indices) {
    Expr X;
    int64_t C;
    if (!matchDivMod(Quotient, BinOp::Div, X, C))
      continue;
    for (const Expr &Remainder : Indices) {
      Expr Y;
      int64_t C2;
      if (matchDivMod(Remainder, BinOp::Mod, Y, C2) && C2 == C && structurallyEqual(X, Y))
        Result.push_back(X);
    }
  }
  return Result;
}

/// Whether different iterations of L write different elements through
/// Indices: some dimension moves by a constant stride on L's variable that
/// the loops inside L (constant extents and coefficients) cannot make up.
Disjointness iterationsDisjoint(const ForNode *L, const std::vector<Expr> &Indices,
                                const std::vector<const ForNode *> &Inner) {
  std::map<const VarNode *, const ForNode *> LoopOf;
  for (const ForNode *F : Inner)
    LoopOf[F->LoopVar.get()] = F;
  LoopOf[L->LoopVar.get()] = L;
  auto IsIndexVar = [&](const VarNode *V) { return LoopOf.count(V) != 0; };
  bool DependsOnL = false;
  for (const Expr &Index : withRecoveredLinearIndices(Indices)) {
    AffineForm F;
    if (!toAffine(Index, IsIndexVar, F)) {
      // Proves nothing itself; another (or a recovered) index may.
      DependsOnL = true;
      continue;
    }
    auto It = F.Coefs.find(L->LoopVar.get());
    int64_t Stride;
    if (It == F.Coefs.end())
      continue;
    DependsOnL = true;
    if (!getConstInt(It->second, Stride) || Stride == 0)
      continue;
    bool Bounded = true;
    int64_t Reach = 0;
    for (const auto &Term : F.Coefs) {
      if (Term.first == L->LoopVar.get())
        continue;
      int64_t Coef, Extent;
      const ForNode *F2 = LoopOf.at(Term.first);
      if (!getConstInt(Term.second, Coef) || !getConstInt(F2->Extent, Extent)) {
        Bounded = false;
        break;
      }
      Reach += (Coef < 0 ? -Coef : Coef) * (Extent > 0 ? Extent - 1 : 0);
    }
    if (Bounded && Reach < (Stride < 0 ? -Stride : Stride))
      return Disjointness::Disjoint;
  }
  return DependsOnL ? Disjointness::Unknown : Disjointness::Invariant;
}

} // namespace

std::vector<Access> collectAccesses(const Stmt &S) {
  AccessCollector C;
  C.visit(S);
  return std::move(C.Accesses);
}

namespace {
bool parallelOver(const ForNode *L, const std::set<const BufferNode *> *Only, std::string *Why) {
  auto Fail = [&](const std::string &Reason) {
    if (Why)
      *Why = Reason;
    return false;
  };
  if (!L || !L->LoopVar)
    return Fail("not a loop");
  // Let-bound indices are seen in terms of loop variables.
  Stmt Body = inlineLets(L->Body);
  BodyFacts Facts;
  Facts.visit(Body);
  if (!Facts.UnknownCall.empty())
    return Fail("call to '" + Facts.UnknownCall + "' with unknown effects");
  std::vector<Access> Accesses = collectAccesses(Body);
  std::set<const BufferNode *> Checked;
  for (const Access &W : Accesses) {
    const BufferNode *B = W.Buf.get();
    if (!W.IsWrite || Facts.Allocated.count(B) || (Only && !Only->count(B)) ||
        !Checked.insert(B).second)
      continue;
    for (const Access &Other : Accesses)
      if (Other.Buf.get() == B && !sameIndices(Other.Indices, W.Indices))
        return Fail("loop-carried dependence on '" + B->Name + "'");
    switch (iterationsDisjoint(L, W.Indices, W.Loops)) {
    case Disjointness::Disjoint:
      break;
    case Disjointness::Invariant:
      return Fail("'" + B->Name + "' is reduced over '" + L->LoopVar->Name + "'");
    case Disjointness::Unknown:
      return Fail("loop-carried dependence on '" + B->Name + "'");
    }
  }
  return true;
}
} // namespace

bool isParallelLoop(const ForNode *L, std::string *Why) { return parallelOver(L, nullptr, Why); }

bool isParallelLoopOver(const ForNode *L, const std::set<const BufferNode *> &Only,
                        std::string *Why) {
  return parallelOver(L, &Only, Why);
}

} // namespace ir
} // namespace sched
