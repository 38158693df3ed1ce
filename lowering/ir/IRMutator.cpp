//===- IRMutator.cpp - Rewriting the IR -----------------------------------===//
//
// Default rewriting: mutate every child, and rebuild a node (through the make*
// constructors, so result types stay consistent) only when some child
// changed; unchanged subtrees come back as the very same node. Also the
// variable substitution every pass uses.
//
//===----------------------------------------------------------------------===//

#include "IRMutator.h"
#include "Rewrite.h"
#include "Scope.h"

namespace sched {
namespace ir {

Expr IRMutator::mutate(const Expr &E) {
  if (!E)
    return E;
  switch (E->Kind) {
#define SCHED_EXPR_NODE(K)                                                                         \
  case ExprKind::K:                                                                                \
    return mutate##K(E, as<K##Node>(E));
#include "ir/NodeKinds.def"
  }
  return E;
}

Stmt IRMutator::mutate(const Stmt &S) {
  if (!S)
    return S;
  switch (S->Kind) {
#define SCHED_STMT_NODE(K)                                                                         \
  case StmtKind::K:                                                                                \
    return mutate##K(S, as<K##Node>(S));
#include "ir/NodeKinds.def"
  }
  return S;
}

Expr IRMutator::mutateIntImm(const Expr &E, const IntImmNode *) { return E; }
Expr IRMutator::mutateFloatImm(const Expr &E, const FloatImmNode *) { return E; }
Expr IRMutator::mutateVar(const Expr &E, const VarNode *) { return E; }

namespace {
/// Mutates each element; true when any of them changed.
template <typename T>
bool mutateAll(IRMutator &M, const std::vector<T> &In, std::vector<T> &Out,
               T (IRMutator::*Fn)(const T &)) {
  bool Changed = false;
  Out.reserve(In.size());
  for (const T &X : In) {
    Out.push_back((M.*Fn)(X));
    Changed |= Out.back() != X;
  }
  return Changed;
}
} // namespace

Expr IRMutator::mutateBinary(const Expr &E, const BinaryNode *N) {
  Expr A = mutate(N->A), B = mutate(N->B);
  if (A == N->A && B == N->B)
    return E;
  return makeBinary(N->Op, A, B);
}

Expr IRMutator::mutateUnary(const Expr &E, const UnaryNode *N) {
  Expr A = mutate(N->A);
  if (A == N->A)
    return E;
  return makeUnary(N->Op, A);
}

Expr IRMutator::mutateSelect(const Expr &E, const SelectNode *N) {
  Expr C = mutate(N->Cond), T = mutate(N->TrueValue), F = mutate(N->FalseValue);
  if (C == N->Cond && T == N->TrueValue && F == N->FalseValue)
    return E;
  return makeSelect(C, T, F);
}

Expr IRMutator::mutateCast(const Expr &E, const CastNode *N) {
  Expr V = mutate(N->Value);
  if (V == N->Value)
    return E;
  return makeCast(N->Type, V);
}

Expr IRMutator::mutateLoad(const Expr &E, const LoadNode *N) {
  std::vector<Expr> Indices;
  Expr (IRMutator::*Fn)(const Expr &) = &IRMutator::mutate;
  if (!mutateAll(*this, N->Indices, Indices, Fn))
    return E;
  return std::make_shared<LoadNode>(N->Buf, std::move(Indices), N->Type);
}

Expr IRMutator::mutateCall(const Expr &E, const CallNode *N) {
  std::vector<Expr> Args;
  Expr (IRMutator::*Fn)(const Expr &) = &IRMutator::mutate;
  if (!mutateAll(*this, N->Args, Args, Fn))
    return E;
  return makeCall(N->Name, std::move(Args), N->Type);
}

Stmt IRMutator::mutateFor(const Stmt &S, const ForNode *N) {
  Expr Min = mutate(N->Min), Extent = mutate(N->Extent);
  Stmt Body = mutate(N->Body);
  if (Min == N->Min && Extent == N->Extent && Body == N->Body)
    return S;
  return withBounds(N, Min, Extent, Body);
}

Stmt IRMutator::mutateStore(const Stmt &S, const StoreNode *N) {
  Expr Value = mutate(N->Value);
  std::vector<Expr> Indices;
  Expr (IRMutator::*Fn)(const Expr &) = &IRMutator::mutate;
  bool Changed = mutateAll(*this, N->Indices, Indices, Fn);
  if (!Changed && Value == N->Value)
    return S;
  return makeStoreLike(N, N->Buf, std::move(Indices), Value);
}

Stmt IRMutator::mutateAllocate(const Stmt &S, const AllocateNode *N) {
  // The buffer keeps its identity: loads and stores refer to it.
  Stmt Body = mutate(N->Body);
  if (Body == N->Body)
    return S;
  return makeAllocate(N->Buf, Body);
}

Stmt IRMutator::mutateSeq(const Stmt &S, const SeqNode *N) {
  std::vector<Stmt> Stmts;
  Stmt (IRMutator::*Fn)(const Stmt &) = &IRMutator::mutate;
  if (!mutateAll(*this, N->Stmts, Stmts, Fn))
    return S;
  return makeSeq(std::move(Stmts));
}

Stmt IRMutator::mutateIfThenElse(const Stmt &S, const IfThenElseNode *N) {
  Expr Cond = mutate(N->Cond);
  Stmt Then = mutate(N->Then), Else = mutate(N->Else);
  if (Cond == N->Cond && Then == N->Then && Else == N->Else)
    return S;
  return makeIf(Cond, Then, Else);
}

Stmt IRMutator::mutateLetStmt(const Stmt &S, const LetStmtNode *N) {
  Expr Value = mutate(N->Value);
  Stmt Body = mutate(N->Body);
  if (Value == N->Value && Body == N->Body)
    return S;
  return makeLet(N->LetVar, Value, Body);
}

Stmt IRMutator::mutateEvaluate(const Stmt &S, const EvaluateNode *N) {
  Expr Value = mutate(N->Value);
  if (Value == N->Value)
    return S;
  return makeEvaluate(Value);
}

//===----------------------------------------------------------------------===//
// substitute
//===----------------------------------------------------------------------===//

namespace {
/// Replaces free occurrences; a loop or let that binds a mapped variable
/// shadows the mapping inside its body.
class Substituter : public IRMutator {
public:
  explicit Substituter(const std::map<const VarNode *, Expr> &M) : Map(M) {}

protected:
  Expr mutateVar(const Expr &E, const VarNode *N) override {
    auto It = Map.find(N);
    return It == Map.end() ? E : It->second;
  }

  Stmt mutateFor(const Stmt &S, const ForNode *N) override {
    ScopedEntry<std::map<const VarNode *, Expr>> Shadow(Map, N->LoopVar.get());
    return IRMutator::mutateFor(S, N);
  }

  Stmt mutateLetStmt(const Stmt &S, const LetStmtNode *N) override {
    Expr Value = mutate(N->Value);
    Stmt Body;
    {
      ScopedEntry<std::map<const VarNode *, Expr>> Shadow(Map, N->LetVar.get());
      Body = mutate(N->Body);
    }
    if (Value == N->Value && Body == N->Body)
      return S;
    return makeLet(N->LetVar, Value, Body);
  }

private:
  std::map<const VarNode *, Expr> Map;
};
} // namespace

Expr substitute(const Expr &E, const std::map<const VarNode *, Expr> &Map) {
  if (Map.empty())
    return E;
  Substituter S(Map);
  return S.mutate(E);
}

Stmt substitute(const Stmt &S, const std::map<const VarNode *, Expr> &Map) {
  if (Map.empty())
    return S;
  Substituter Sub(Map);
  return Sub.mutate(S);
}

namespace {
class LetInliner : public IRMutator {
public:
  explicit LetInliner(std::function<bool(const LetStmtNode *)> Which) : Which(std::move(Which)) {}

protected:
  Stmt mutateLetStmt(const Stmt &S, const LetStmtNode *N) override {
    if (Which && !Which(N))
      return IRMutator::mutateLetStmt(S, N);
    Expr Value = mutate(N->Value);
    return mutate(substitute(N->Body, {{N->LetVar.get(), Value}}));
  }

private:
  std::function<bool(const LetStmtNode *)> Which; // null: every let
};
} // namespace

Stmt inlineLets(const Stmt &S) {
  LetInliner L(nullptr);
  return L.mutate(S);
}

Stmt inlineLets(const Stmt &S, const std::function<bool(const LetStmtNode *)> &Which) {
  LetInliner L(Which);
  return L.mutate(S);
}

namespace {
class BufferRemapper : public IRMutator {
public:
  explicit BufferRemapper(const BufferRemaps &Map) : Map(Map) {}

protected:
  Expr mutateLoad(const Expr &E, const LoadNode *N) override {
    Expr M = IRMutator::mutateLoad(E, N);
    const auto *L = as<LoadNode>(M);
    const BufferRemap *R = L ? remapOf(L->Buf.get()) : nullptr;
    return R ? makeLoad(R->New, R->MapIndices(L->Indices)) : M;
  }
  Stmt mutateStore(const Stmt &S, const StoreNode *N) override {
    Stmt M = IRMutator::mutateStore(S, N);
    const auto *St = as<StoreNode>(M);
    const BufferRemap *R = St ? remapOf(St->Buf.get()) : nullptr;
    return R ? makeStoreLike(St, R->New, R->MapIndices(St->Indices), St->Value) : M;
  }
  Stmt mutateAllocate(const Stmt &S, const AllocateNode *N) override {
    Stmt M = IRMutator::mutateAllocate(S, N);
    const auto *A = as<AllocateNode>(M);
    const BufferRemap *R = A ? remapOf(A->Buf.get()) : nullptr;
    return R ? makeAllocate(R->New, A->Body) : M;
  }

private:
  const BufferRemaps &Map;

  const BufferRemap *remapOf(const BufferNode *B) const {
    auto It = Map.find(B);
    return It == Map.end() ? nullptr : &It->second;
  }
};
} // namespace

Stmt remapBuffers(const Stmt &S, const BufferRemaps &Map) {
  BufferRemapper R(Map);
  return R.mutate(S);
}

Stmt remapBuffer(const Stmt &S, const BufferNode *Old, const Buffer &New,
                 const IndexMap &MapIndices) {
  return remapBuffers(S, {{Old, {New, MapIndices}}});
}

} // namespace ir
} // namespace sched
