//===- DistributeOverThreads.cpp - Cooperative fetch into shared memory --===//
//
// Code inside threadIdx loops runs once per thread. A statement there that
// does not depend on the thread would be executed redundantly by every
// thread; for a write to shared memory that is wasted work at best and a
// write-write race at worst. This pass gives such code to the block's threads:
//  - a perfect nest of parallel serial loops that writes shared memory and
//    uses none of the enclosing thread variables (a cache stage `As.ax0,
//    As.ax1` computed at `ko`) is fused and distributed over all T threads of
//    the enclosing threadIdx loops (tid linearized, x fastest):
//      for (As.k, 0, ceil(total / T)) {
//        let As.f = As.k*T + tid { if (As.f < total) body[ax0 := f / e1, ax1 := f % e1] } }
//  - a loop bound to a threadIdx tag inside a loop bound to the same tag (the
//    user fused, split and bound the stage's loops himself) names the same
//    threads: `if (v < extent) body[v := outer var]`, an error when its
//    extent exceeds the block's; enclosing thread loops it does not use get a
//    guard `== 0`, so it is not run redundantly either;
//  - any other store to shared memory that depends on none of the enclosing
//    thread variables is guarded to thread 0 of them.
// Code outside every thread loop runs on every thread of the block as well:
// there the same rewrites happen inside fresh loops bound to the block's
// threads (`As.ty`, `As.tx`).
//
// Runs after VerifyThreadBindings (thread loops have their launch extents)
// and before ComputeLaunchGeometry and StorageFlatten (the stage's indices
// are still multi-dimensional; InjectThreadSync later adds the barriers the
// new distribution needs).
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/Dependence.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <map>
#include <set>

namespace sched {
namespace passes {

namespace {

using ir::Expr;
using ir::Stmt;

bool isThreadIdxLoop(const ir::ForNode *N) {
  return N->LoopKind == ir::ForKind::ThreadBound && ir::isThreadIdxTag(N->ThreadTag);
}

/// The stage's name for new variables: "As" for loops "As.ax0", else the
/// loop's own name.
std::string stagePrefix(const std::string &LoopName) {
  size_t Dot = LoopName.rfind(".ax");
  return Dot == std::string::npos ? LoopName : LoopName.substr(0, Dot);
}

bool writesShared(const Stmt &S) {
  for (const ir::Access &A : ir::collectAccesses(S))
    if (A.IsWrite && A.Buf->MemScope == ir::Scope::Shared)
      return true;
  return false;
}

class Distributor : public ir::IRMutator {
public:
  explicit Distributor(std::vector<Diag> &Diags) : Diags(Diags) {}

protected:
  Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
    if (isThreadIdxLoop(N)) {
      if (const ir::ForNode *Outer = enclosingOfTag(N->ThreadTag))
        return sameThreads(N, Outer);
      ThreadLoops.push_back(N);
      ThreadDependent.insert(N->LoopVar.get());
      Stmt Out = ir::IRMutator::mutateFor(S, N);
      ThreadDependent.erase(N->LoopVar.get());
      ThreadLoops.pop_back();
      return Out;
    }
    if (!ThreadLoops.empty() && N->LoopKind == ir::ForKind::Serial)
      if (Stmt Distributed = distribute(N))
        return Distributed;
    if (ThreadLoops.empty() && N->LoopKind == ir::ForKind::Serial && !BlockTags.empty())
      if (Stmt Distributed = inFreshThreadLoops(N->LoopVar->Name, [&] { return distribute(N); }))
        return Distributed;
    if (dependsOnThread(N->Min) || dependsOnThread(N->Extent)) {
      ThreadDependent.insert(N->LoopVar.get());
      Stmt Out = ir::IRMutator::mutateFor(S, N);
      ThreadDependent.erase(N->LoopVar.get());
      return Out;
    }
    return ir::IRMutator::mutateFor(S, N);
  }

  Stmt mutateLetStmt(const Stmt &S, const ir::LetStmtNode *N) override {
    bool Dependent = dependsOnThread(N->Value);
    if (Dependent)
      ThreadDependent.insert(N->LetVar.get());
    Stmt Out = ir::IRMutator::mutateLetStmt(S, N);
    if (Dependent)
      ThreadDependent.erase(N->LetVar.get());
    return Out;
  }

  Stmt mutateStore(const Stmt &S, const ir::StoreNode *N) override {
    if (N->Buf->MemScope != ir::Scope::Shared || dependsOnThread(S))
      return S;
    if (ThreadLoops.empty())
      return BlockTags.empty() ? S : inFreshThreadLoops(N->Buf->Name, [&] {
        return ir::makeIf(firstThreadOf(ThreadLoops), S);
      });
    return ir::makeIf(firstThreadOf(ThreadLoops), S);
  }

public:
  /// The launch extent of each threadIdx tag the kernel binds.
  std::map<std::string, Expr> BlockTags;

private:
  /// Code outside every thread loop runs on every thread of the block too:
  /// Make builds its replacement inside fresh loops over all the block's
  /// threads (z outermost); null when Make declines.
  template <typename MakeFn> Stmt inFreshThreadLoops(const std::string &Name, MakeFn Make) {
    std::vector<Stmt> Placeholders;
    std::vector<ir::Var> Vars;
    std::vector<std::string> Tags;
    for (const char *Tag : {"threadIdx.z", "threadIdx.y", "threadIdx.x"}) {
      auto It = BlockTags.find(Tag);
      if (It == BlockTags.end())
        continue;
      ir::Var V = ir::makeVar(stagePrefix(Name) + ".t" + std::string(Tag).substr(10, 1));
      // A loop node for the analyses to see while Make runs; rebuilt below.
      Placeholders.push_back(ir::makeFor(V, ir::makeInt(0), It->second, ir::makeEvaluate(ir::makeInt(0)),
                                         ir::ForKind::ThreadBound, Tag));
      Vars.push_back(V);
      Tags.push_back(Tag);
    }
    for (const Stmt &P : Placeholders) {
      ThreadLoops.push_back(ir::as<ir::ForNode>(P));
      ThreadDependent.insert(ir::as<ir::ForNode>(P)->LoopVar.get());
    }
    Stmt Body = Make();
    for (const Stmt &P : Placeholders)
      ThreadDependent.erase(ir::as<ir::ForNode>(P)->LoopVar.get());
    ThreadLoops.resize(ThreadLoops.size() - Placeholders.size());
    if (!Body)
      return nullptr;
    for (size_t I = Vars.size(); I-- > 0;)
      Body = ir::makeFor(Vars[I], ir::makeInt(0), BlockTags.at(Tags[I]), Body,
                         ir::ForKind::ThreadBound, Tags[I]);
    return Body;
  }

private:

private:
  std::vector<Diag> &Diags;
  std::vector<const ir::ForNode *> ThreadLoops; // enclosing threadIdx loops
  std::set<const ir::VarNode *> ThreadDependent;

  void error(const std::string &Message) {
    Diag D;
    D.Message = Message;
    Diags.push_back(D);
  }

  bool dependsOnThread(const Expr &E) const {
    for (const ir::VarNode *V : ir::varsOf(E))
      if (ThreadDependent.count(V))
        return true;
    return false;
  }
  bool dependsOnThread(const Stmt &S) const {
    for (const ir::VarNode *V : ir::varsOf(S))
      if (ThreadDependent.count(V))
        return true;
    return false;
  }

  const ir::ForNode *enclosingOfTag(const std::string &Tag) const {
    for (const ir::ForNode *L : ThreadLoops)
      if (L->ThreadTag == Tag)
        return L;
    return nullptr;
  }

  /// `v1 == 0 && v2 == 0 ...` over Loops.
  static Expr firstThreadOf(const std::vector<const ir::ForNode *> &Loops) {
    Expr Cond;
    for (const ir::ForNode *L : Loops) {
      Expr IsZero = ir::makeBinary(ir::BinOp::EQ, L->LoopVar, ir::makeInt(0, L->LoopVar->Type));
      Cond = Cond ? ir::makeBinary(ir::BinOp::And, Cond, IsZero) : IsZero;
    }
    return Cond;
  }

  /// A loop bound to Outer's tag inside it: the same threads.
  Stmt sameThreads(const ir::ForNode *N, const ir::ForNode *Outer) {
    int64_t Inner = 0, Block = 0;
    if (ir::getConstInt(N->Extent, Inner) && ir::getConstInt(Outer->Extent, Block) &&
        Inner > Block) {
      error("loop '" + N->LoopVar->Name + "' is bound to " + N->ThreadTag + " with extent " +
            std::to_string(Inner) + " inside loop '" + Outer->LoopVar->Name +
            "', which gives that tag only " + std::to_string(Block) + " threads");
      return ir::makeFor(N->LoopVar, N->Min, N->Extent, N->Body, N->LoopKind, N->ThreadTag,
                         N->IsReduction);
    }
    if (!provablyEqual(N->Extent, Outer->Extent) && !(ir::getConstInt(N->Extent, Inner) &&
                                                      ir::getConstInt(Outer->Extent, Block))) {
      error("cannot prove that loop '" + N->LoopVar->Name + "' bound to " + N->ThreadTag +
            " fits the " + ir::print(Outer->Extent) + " threads of loop '" +
            Outer->LoopVar->Name + "'");
      return ir::makeFor(N->LoopVar, N->Min, N->Extent, N->Body, N->LoopKind, N->ThreadTag,
                         N->IsReduction);
    }
    std::map<const ir::VarNode *, Expr> ToOuter = {
        {N->LoopVar.get(), ir::simplify(N->Min + Expr(Outer->LoopVar))}};
    Stmt Body = mutate(ir::substitute(N->Body, ToOuter));
    Expr Cond;
    if (!provablyEqual(N->Extent, Outer->Extent))
      Cond = Expr(Outer->LoopVar) < N->Extent;
    // The other thread loops it does not use would repeat it.
    std::vector<const ir::ForNode *> Unused;
    for (const ir::ForNode *L : ThreadLoops)
      if (L != Outer && !ir::varsOf(Body).count(L->LoopVar.get()))
        Unused.push_back(L);
    if (!Unused.empty()) {
      Expr First = firstThreadOf(Unused);
      Cond = Cond ? ir::makeBinary(ir::BinOp::And, Cond, First) : First;
    }
    return Cond ? ir::makeIf(Cond, Body) : Body;
  }

  /// The perfect nest of serial loops starting at N, distributed over the
  /// enclosing threads; null when it does not qualify.
  Stmt distribute(const ir::ForNode *N) {
    std::vector<const ir::ForNode *> Nest;
    Stmt Inner;
    for (const ir::ForNode *L = N; L; L = ir::as<ir::ForNode>(L->Body)) {
      if (L->LoopKind != ir::ForKind::Serial)
        return nullptr;
      Nest.push_back(L);
      Inner = L->Body;
    }
    Stmt Whole = ir::makeFor(N->LoopVar, N->Min, N->Extent, N->Body, N->LoopKind, N->ThreadTag,
                             N->IsReduction);
    if (dependsOnThread(Whole) || !writesShared(Whole))
      return nullptr;
    for (const ir::ForNode *L : Nest)
      if (!ir::isParallelLoop(L))
        return nullptr;
    // tid over the enclosing thread loops, x fastest; T their product.
    Expr Tid, T;
    for (const char *Tag : {"threadIdx.z", "threadIdx.y", "threadIdx.x"}) {
      const ir::ForNode *L = enclosingOfTag(Tag);
      if (!L)
        continue;
      Tid = Tid ? Tid * L->Extent + Expr(L->LoopVar) : Expr(L->LoopVar);
      T = T ? T * L->Extent : L->Extent;
    }
    Expr Total;
    for (const ir::ForNode *L : Nest)
      Total = Total ? Total * L->Extent : L->Extent;
    Total = ir::simplify(Total);
    T = ir::simplify(T);
    const std::string Prefix = stagePrefix(N->LoopVar->Name);
    ir::Var K = ir::makeVar(Prefix + ".k"), F = ir::makeVar(Prefix + ".f");
    // ax_i := (f / (e_{i+1} * ... )) % e_i (no % for the outermost).
    std::map<const ir::VarNode *, Expr> Coords;
    Expr Stride = ir::makeInt(1);
    for (size_t I = Nest.size(); I-- > 0;) {
      const ir::ForNode *L = Nest[I];
      Expr Coord = I + 1 == Nest.size() ? Expr(F) : Expr(F) / Stride;
      if (I > 0)
        Coord = Coord % L->Extent;
      Coords[L->LoopVar.get()] = ir::simplify(Coord + L->Min);
      Stride = ir::simplify(Stride * L->Extent);
    }
    Stmt Body = ir::substitute(Inner, Coords);
    int64_t TotalC, TC;
    bool Exact = ir::getConstInt(Total, TotalC) && ir::getConstInt(T, TC) && TotalC % TC == 0;
    if (!Exact)
      Body = ir::makeIf(Expr(F) < Total, Body);
    Body = ir::makeLet(F, ir::simplify(Expr(K) * T + Tid), Body);
    Expr Trips = ir::simplify((Total + T - ir::makeInt(1)) / T);
    return ir::makeFor(K, ir::makeInt(0), Trips, Body);
  }
};

/// The launch extent of each threadIdx tag (VerifyThreadBindings made all
/// loops of a tag agree; nested same-tag loops are not launch dimensions).
class ThreadTagExtents : public ir::IRVisitor {
public:
  std::map<std::string, Expr> Extent;

protected:
  void visitFor(const ir::ForNode *N) override {
    bool Opens = isThreadIdxLoop(N) && Open.insert(N->ThreadTag).second;
    if (Opens)
      Extent.emplace(N->ThreadTag, N->Extent);
    ir::IRVisitor::visitFor(N);
    if (Opens)
      Open.erase(N->ThreadTag);
  }

private:
  std::set<std::string> Open;
};

} // namespace

ir::LoopNest distributeOverThreads(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  ThreadTagExtents Tags;
  Tags.visit(Nest.Body);
  Distributor D(Diags);
  D.BlockTags = Tags.Extent;
  ir::LoopNest Out = Nest;
  Out.Body = D.mutate(Nest.Body);
  return Out;
}

} // namespace passes
} // namespace sched
