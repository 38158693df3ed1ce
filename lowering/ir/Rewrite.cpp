//===- Rewrite.cpp - Rebuilding statements: the IR-generic helpers --------===//
//
// See Rewrite.h. Built on the IR's visitor, mutator and simplifier only; the
// passes, codegen and the plugin share these.
//
//===----------------------------------------------------------------------===//
#include "ir/Rewrite.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include <memory>
#include <set>

namespace sched {
namespace ir {

Stmt withBody(const ForNode *N, Stmt Body) {
  return withVar(N, N->LoopVar, N->Min, N->Extent, std::move(Body));
}

Stmt withBounds(const ForNode *N, Expr Min, Expr Extent, Stmt Body) {
  return withVar(N, N->LoopVar, std::move(Min), std::move(Extent), std::move(Body));
}

Stmt withVar(const ForNode *N, Var V, Expr Min, Expr Extent, Stmt Body) {
  return makeFor(std::move(V), std::move(Min), std::move(Extent), std::move(Body), N->LoopKind,
                 N->ThreadTag, N->IsReduction);
}

Stmt withKind(const ForNode *N, ForKind Kind, const std::string &Tag) {
  return makeFor(N->LoopVar, N->Min, N->Extent, N->Body, Kind, Tag, N->IsReduction);
}

ExpandedBuffer expandBuffer(const Buffer &Old, int64_t Count, bool DropUnitShape) {
  bool Drop = DropUnitShape;
  for (const Expr &D : Old->Shape) {
    int64_t V = 0;
    Drop = Drop && getConstInt(D, V) && V == 1;
  }
  std::vector<Expr> Shape{makeInt(Count)};
  if (!Drop)
    Shape.insert(Shape.end(), Old->Shape.begin(), Old->Shape.end());
  return {makeBuffer(Old->Name, Old->Type, Shape, Old->MemScope), Drop};
}

Stmt expandAccesses(const Stmt &S, const BufferExpansions &Expansions, const Expr &Lead) {
  BufferRemaps Remaps;
  for (const auto &[Old, X] : Expansions) {
    bool Drop = X.DropsIndices;
    Remaps[Old] = {X.Wide, [Lead, Drop](const std::vector<Expr> &Indices) {
                     std::vector<Expr> Out{Lead};
                     if (!Drop)
                       Out.insert(Out.end(), Indices.begin(), Indices.end());
                     return Out;
                   }};
  }
  return remapBuffers(S, Remaps);
}

namespace {
/// Copies the second and later occurrences of each leaf statement; the
/// mutator then rebuilds every statement above a copy, so no node is left in
/// two places.
class Unsharer : public IRMutator {
protected:
  Stmt mutateStore(const Stmt &S, const StoreNode *N) override {
    if (Seen.insert(N).second)
      return S;
    return makeStoreLike(N, N->Buf, N->Indices, N->Value);
  }
  Stmt mutateEvaluate(const Stmt &S, const EvaluateNode *N) override {
    if (Seen.insert(N).second)
      return S;
    return makeEvaluate(N->Value);
  }

private:
  std::set<const StmtNode *> Seen;
};
} // namespace

Stmt unshareStatements(const Stmt &S) { return Unsharer().mutate(S); }

Stmt guardWith(const Expr &Cond, const Stmt &Body) {
  const auto *Inner = as<IfThenElseNode>(Body);
  if (Inner && !Inner->Else && !dependsOnMemory(Inner->Cond))
    return makeIf(makeBinary(BinOp::And, Cond, Inner->Cond), Inner->Then);
  return makeIf(Cond, Body);
}

Expr flatIndex(const std::vector<Expr> &Shape, const std::vector<Expr> &Indices) {
  Expr Offset = makeInt(0);
  for (size_t D = 0; D < Shape.size(); ++D) {
    Expr Index = D < Indices.size() ? Indices[D] : makeInt(0);
    Offset = D == 0 ? Index : Offset * Shape[D] + Index;
  }
  return simplify(Offset);
}

namespace {
class LoopFinder : public IRVisitor {
public:
  explicit LoopFinder(const VarNode *V) : V(V) {}
  const ForNode *Found = nullptr;
  std::vector<const ForNode *> Around;

protected:
  void visitFor(const ForNode *N) override {
    if (N->LoopVar.get() == V) {
      Found = N;
      Around = Path;
    }
    Path.push_back(N);
    IRVisitor::visitFor(N);
    Path.pop_back();
  }

private:
  const VarNode *V;
  std::vector<const ForNode *> Path;
};

/// Finds the chain of statements enclosing a target statement.
class PathFinder : public IRVisitor {
public:
  explicit PathFinder(const StmtNode *Target) : Target(Target) {}
  std::vector<const StmtNode *> Stack, Found;
  bool Done = false;

  void walk(const Stmt &S) {
    if (Done || !S)
      return;
    if (S.get() == Target) {
      Found = Stack;
      Done = true;
      return;
    }
    Stack.push_back(S.get());
    visit(S);
    Stack.pop_back();
  }

protected:
  // Statement children go through walk() so the stack tracks them;
  // expressions cannot contain statements and are skipped.
  void visitFor(const ForNode *N) override { walk(N->Body); }
  void visitAllocate(const AllocateNode *N) override { walk(N->Body); }
  void visitSeq(const SeqNode *N) override {
    for (const Stmt &S : N->Stmts)
      walk(S);
  }
  void visitIfThenElse(const IfThenElseNode *N) override {
    walk(N->Then);
    walk(N->Else);
  }
  void visitLetStmt(const LetStmtNode *N) override { walk(N->Body); }
  void visitStore(const StoreNode *) override {}
  void visitEvaluate(const EvaluateNode *) override {}

private:
  const StmtNode *Target;
};

class StmtReplacer : public IRMutator {
public:
  StmtReplacer(const StmtNode *Old, Stmt New) : Old(Old), New(std::move(New)) {}

protected:
  Stmt mutateFor(const Stmt &S, const ForNode *N) override {
    return S.get() == Old ? New : IRMutator::mutateFor(S, N);
  }
  Stmt mutateStore(const Stmt &S, const StoreNode *N) override {
    return S.get() == Old ? New : IRMutator::mutateStore(S, N);
  }
  Stmt mutateAllocate(const Stmt &S, const AllocateNode *N) override {
    return S.get() == Old ? New : IRMutator::mutateAllocate(S, N);
  }
  Stmt mutateSeq(const Stmt &S, const SeqNode *N) override {
    return S.get() == Old ? New : IRMutator::mutateSeq(S, N);
  }
  Stmt mutateIfThenElse(const Stmt &S, const IfThenElseNode *N) override {
    return S.get() == Old ? New : IRMutator::mutateIfThenElse(S, N);
  }
  Stmt mutateLetStmt(const Stmt &S, const LetStmtNode *N) override {
    return S.get() == Old ? New : IRMutator::mutateLetStmt(S, N);
  }
  Stmt mutateEvaluate(const Stmt &S, const EvaluateNode *N) override {
    return S.get() == Old ? New : IRMutator::mutateEvaluate(S, N);
  }

private:
  const StmtNode *Old;
  Stmt New;
};
} // namespace

const ForNode *findLoop(const Stmt &Root, const VarNode *V,
                            std::vector<const ForNode *> *Around) {
  LoopFinder Finder(V);
  Finder.visit(Root);
  if (Around)
    *Around = Finder.Around;
  return Finder.Found;
}

Stmt replaceLoop(const Stmt &Root, const ForNode *Old, const Stmt &New) {
  return replaceStmt(Root, Old, New);
}

bool enclosingStmts(const Stmt &Root, const StmtNode *Target, std::vector<const StmtNode *> &Out) {
  PathFinder F(Target);
  F.walk(Root);
  Out = F.Found;
  return F.Done;
}

Stmt replaceStmt(const Stmt &Root, const StmtNode *Old, const Stmt &New) {
  StmtReplacer R(Old, New);
  return R.mutate(Root);
}

Stmt borrow(const StmtNode *N) { return Stmt(N, [](const StmtNode *) {}); }
Expr borrow(const ExprNode *N) { return Expr(N, [](const ExprNode *) {}); }

std::string stmtText(const StmtNode *S) {
  std::string Text = print(borrow(S));
  while (!Text.empty() && (Text.back() == '\n' || Text.back() == ' '))
    Text.pop_back();
  return Text;
}

Expr conjunction(const std::vector<Expr> &Conds) {
  Expr Out;
  for (const Expr &C : Conds)
    Out = Out ? makeBinary(BinOp::And, Out, C) : C;
  return Out;
}

namespace {

class DeclarationCloner : public IRMutator {
protected:
  Stmt mutateFor(const Stmt &, const ForNode *N) override {
    Var V = makeVar(N->LoopVar->Name, N->LoopVar->Type);
    Stmt Body = mutate(substitute(N->Body, {{N->LoopVar.get(), Expr(V)}}));
    return withVar(N, V, N->Min, N->Extent, Body);
  }
  Stmt mutateLetStmt(const Stmt &, const LetStmtNode *N) override {
    Var V = makeVar(N->LetVar->Name, N->LetVar->Type);
    Stmt Body = mutate(substitute(N->Body, {{N->LetVar.get(), Expr(V)}}));
    return makeLet(V, mutate(N->Value), Body);
  }
  Stmt mutateAllocate(const Stmt &, const AllocateNode *N) override {
    Buffer New = std::make_shared<BufferNode>(*N->Buf);
    Stmt Body = remapBuffer(N->Body, N->Buf.get(), New,
                            [](const std::vector<Expr> &I) { return I; });
    return makeAllocate(New, mutate(Body));
  }
};

} // namespace

Stmt cloneDeclarations(const Stmt &S) { return DeclarationCloner().mutate(S); }

} // namespace ir
} // namespace sched
