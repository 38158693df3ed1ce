//===- Access.cpp - The one access analysis -------------------------------===//
//
// collectAccesses walks a statement once, recording every load and store with
// its enclosing loops and guards; intrinsic calls contribute the buffer
// operands their declarations name (Intrinsics.h). The dependence analysis
// (Dependence.h) asks its questions about these lists.
//
//===----------------------------------------------------------------------===//

#include "Access.h"
#include "IRVisitor.h"
#include "Intrinsics.h"
#include "Printer.h"

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

} // namespace

std::vector<Access> collectAccesses(const Stmt &S) {
  AccessCollector C;
  C.visit(S);
  for (Access &A : C.Accesses)
    A.Root = S;
  return std::move(C.Accesses);
}

std::string describeAccess(const Access &A) {
  return print(makeLoad(A.Buf, A.Indices)) + (A.IsWrite ? " (written)" : " (read)");
}

} // namespace ir
} // namespace sched
