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
#include "Scope.h"

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
      TileDecl Tile = Info->tile(I);
      ByWarp = Info->IsWarpCollective;
      ByWarpgroup = ByWarp && Info->CollectiveThreads == 128;
      Atomic = Info->IsAtomic && Role == OperandRole::ReadWriteBuffer;
      if (Role == OperandRole::ReadBuffer || Role == OperandRole::ReadWriteBuffer)
        recordOperand(N, Tile, BufArg, false);
      if (Role == OperandRole::WriteBuffer || Role == OperandRole::ReadWriteBuffer)
        recordOperand(N, Tile, BufArg, true);
      ByWarp = ByWarpgroup = Atomic = false;
    }
  }

  void visitStore(const StoreNode *N) override {
    ScopedValue<const StmtNode *> Scope(Current, N);
    IRVisitor::visitStore(N);
    record(N->Buf, N->Indices, true);
  }

  void visitEvaluate(const EvaluateNode *N) override {
    ScopedValue<const StmtNode *> Scope(Current, N);
    IRVisitor::visitEvaluate(N);
  }

  void visitFor(const ForNode *N) override {
    {
      ScopedValue<const StmtNode *> Scope(Current, N);
      visit(N->Min);
      visit(N->Extent);
    }
    Loops.push_back(N);
    visit(N->Body);
    Loops.pop_back();
  }

  void visitIfThenElse(const IfThenElseNode *N) override {
    {
      ScopedValue<const StmtNode *> Scope(Current, N);
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
      ScopedValue<const StmtNode *> Scope(Current, N);
      visit(N->Value);
    }
    visit(N->Body);
  }

private:
  std::vector<const ForNode *> Loops;
  std::vector<Expr> Guards;
  const StmtNode *Current = nullptr;

  /// A buffer operand: its element, or every element of its tile.
  void recordOperand(const CallNode *Call, const TileDecl &Tile, const LoadNode *Arg,
                     bool IsWrite) {
    int64_t Rows, Cols, Layout = 0;
    auto Operand = [&](int I) { return I >= 0 && size_t(I) < Call->Args.size() ? Call->Args[I] : Expr(); };
    if (!Tile.isTile() || !getConstInt(Operand(Tile.RowsFrom), Rows) ||
        !getConstInt(Operand(Tile.ColsFrom), Cols) ||
        (Tile.LayoutFrom >= 0 && !getConstInt(Operand(Tile.LayoutFrom), Layout)) ||
        Arg->Indices.empty()) {
      record(Arg->Buf, Arg->Indices, IsWrite);
      return;
    }
    // Loops over the tile's rows and columns, innermost; (r, c) is element
    // (c, r) of a column-major tile's memory.
    Var R = makeVar(Arg->Buf->Name + ".row"), C = makeVar(Arg->Buf->Name + ".col");
    Expr Major = Layout == WmmaColMajor ? Expr(C) : Expr(R);
    Expr Minor = Layout == WmmaColMajor ? Expr(R) : Expr(C);
    std::vector<Expr> Indices = Arg->Indices;
    if (Indices.size() >= 2) {
      Indices[Indices.size() - 2] = Indices[Indices.size() - 2] + Major;
      Indices.back() = Indices.back() + Minor;
    } else {
      Expr Stride = Tile.StrideFrom >= 0 ? Operand(Tile.StrideFrom)
                                         : makeInt(Layout == WmmaColMajor ? Rows : Cols);
      Indices.back() = Indices.back() + Major * Stride + Minor;
    }
    Stmt Leaf = makeEvaluate(makeInt(0));
    Stmt ColLoop = makeFor(C, makeInt(0), makeInt(Cols), Leaf);
    Stmt RowLoop = makeFor(R, makeInt(0), makeInt(Rows), ColLoop);
    Loops.push_back(as<ForNode>(RowLoop));
    Loops.push_back(as<ForNode>(ColLoop));
    record(Arg->Buf, Indices, IsWrite);
    Loops.pop_back();
    Loops.pop_back();
    Accesses.back().TileLoops = {RowLoop, ColLoop};
  }

  bool ByWarp = false; // recording a warp-collective intrinsic's operand
  bool ByWarpgroup = false;
  bool Atomic = false;

  void record(const Buffer &B, const std::vector<Expr> &Indices, bool IsWrite) {
    Access A;
    A.Buf = B;
    A.Indices = Indices;
    A.IsWrite = IsWrite;
    A.Loops = Loops;
    A.Guards = Guards;
    A.Statement = Current;
    A.ByWarp = ByWarp;
    A.ByWarpgroup = ByWarpgroup;
    A.Atomic = Atomic;
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
