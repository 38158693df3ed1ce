//===- InjectVirtualThread.cpp - Lower vthread/cthread loops --------------===//
//
// A loop bound to `vthread` (or `cthread`, VTA's name for the same idea) says
// that its iterations are independent threads that one real thread runs in
// turn. This pass makes the loop disappear, as TVM's InjectVirtualThread does:
//  - a statement that does not depend on the virtual-thread variable is kept
//    once, shared by every virtual thread (a shared-memory fill, a loop
//    counter: work the real thread does once for all of them);
//  - a statement that depends on it is replaced by one copy per virtual
//    thread, pushed as far in as it goes: through a Seq each child on its
//    own, through a For / If / Let / Allocate whose own header does not
//    depend on it into its body, so `vthread v { for k { stage(k);
//    compute(k, v) } }` becomes `for k { stage(k); compute(k, 0);
//    compute(k, 1) }`. Copies are unrolled up to 16 virtual threads, a
//    serial loop beyond;
//  - an allocation inside the loop that a dependent statement touches gets a
//    new leading dimension of the virtual-thread count (float32[8] becomes
//    float32[2, 8]) and every access in copy v is indexed [v, ...], except
//    a shared one the copies write at different elements (a shared stage's
//    region spans the virtual threads; see spanningBuffers).
// "Depends" is a fixed point over the one access analysis (collectAccesses,
// which reads the intrinsic operand declarations of Intrinsics.h): a
// statement depends on the variable when one of its expressions uses it (or a
// let variable bound to a dependent value), when it accesses a touched buffer,
// when it sits under a dependent loop/if/let header, or when it calls an
// intrinsic without a declaration; a dependent statement touches every buffer
// it writes. So an opaque call that writes a fragment of a touched buffer is
// never shared even though no operand mentions the variable (DESIGN 5,
// contract 1). Copies interleave, so virtual threads must be independent: a
// touched buffer that is not allocated inside the loop (and so cannot be
// expanded) must be touched at different elements by each (isParallelLoopOver,
// the one dependence test), or lowering stops with an error. A cthread never
// shares (as in TVM, where VTA contexts each need their own buffers): every
// statement depends on it. A barrier (IsBarrier) is never copied; one under
// dependent control flow is an error.
//
// Runs right after VerifyThreadBindings (which accepts vthread/cthread loops
// anywhere and leaves them alone) and before ComputeLaunchGeometry, which
// thus never sees a virtual thread; loops are zero-based already.
// Nested virtual-thread loops are lowered innermost first, so an allocation
// touched by two nested vthreads of 2 becomes [2, 2, ...].
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/Dependence.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Intrinsics.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <map>
#include <set>

namespace sched {
namespace passes {

namespace {

/// Up to this many virtual threads, copies are unrolled.
constexpr int64_t MaxUnrolledCopies = 16;

bool isVirtualThreadLoop(const ir::ForNode *N) {
  return N->LoopKind == ir::ForKind::ThreadBound &&
         ir::isVirtualThreadTag(N->ThreadTag);
}

/// What one statement's own expressions (a Store or Evaluate, or the header
/// of a For / If / Let) mention: variables, calls without a declaration, and
/// the buffers passed to such calls (which may write any of them).
class ExprFacts : public ir::IRVisitor {
public:
  std::set<const ir::VarNode *> Vars;
  std::set<const ir::BufferNode *> UnknownCallBuffers;
  bool HasUnknownCall = false;

protected:
  void visitVar(const ir::VarNode *N) override { Vars.insert(N); }
  void visitCall(const ir::CallNode *N) override {
    if (!ir::lookupIntrinsic(N->Name)) {
      HasUnknownCall = true;
      for (const ir::Expr &Arg : N->Args)
        if (const auto *L = ir::as<ir::LoadNode>(Arg))
          UnknownCallBuffers.insert(L->Buf.get());
    }
    ir::IRVisitor::visitCall(N);
  }
};

/// The expressions a statement evaluates itself (not those of its children).
std::vector<ir::Expr> ownExprs(const ir::Stmt &S) {
  std::vector<ir::Expr> Out;
  switch (S->Kind) {
  case ir::StmtKind::Store: {
    const auto *N = ir::as<ir::StoreNode>(S);
    Out = N->Indices;
    Out.push_back(N->Value);
    break;
  }
  case ir::StmtKind::Evaluate: Out.push_back(ir::as<ir::EvaluateNode>(S)->Value); break;
  case ir::StmtKind::For:
    Out.push_back(ir::as<ir::ForNode>(S)->Min);
    Out.push_back(ir::as<ir::ForNode>(S)->Extent);
    break;
  case ir::StmtKind::IfThenElse: Out.push_back(ir::as<ir::IfThenElseNode>(S)->Cond); break;
  case ir::StmtKind::LetStmt: Out.push_back(ir::as<ir::LetStmtNode>(S)->Value); break;
  case ir::StmtKind::Allocate:
  case ir::StmtKind::Seq: break;
  }
  return Out;
}

/// The fixed point: which statements depend on the virtual-thread variable
/// and which buffers they touch.
class DependenceAnalysis {
public:
  DependenceAnalysis(const ir::ForNode *Loop, bool ShareNothing,
                     const std::set<const ir::BufferNode *> &Spanning = {})
      : ShareNothing(ShareNothing), Spanning(Spanning) {
    TouchedVars.insert(Loop->LoopVar.get());
    for (const ir::Access &A : ir::collectAccesses(Loop->Body))
      (A.IsWrite ? WritesOf : ReadsOf)[A.Statement].insert(A.Buf.get());
    do {
      Changed = false;
      walk(Loop->Body, false);
    } while (Changed);
  }

  bool isDependent(const ir::StmtNode *S) const { return Dependent.count(S) != 0; }
  bool isTouched(const ir::BufferNode *B) const { return TouchedBufs.count(B) != 0; }
  const std::set<const ir::BufferNode *> &touched() const { return TouchedBufs; }

private:
  const bool ShareNothing;
  /// Shared buffers that hold every virtual thread's elements already (see
  /// spanningBuffers): writing them does not make them touched.
  const std::set<const ir::BufferNode *> Spanning;
  bool Changed = false;
  std::map<const ir::StmtNode *, std::set<const ir::BufferNode *>> ReadsOf, WritesOf;
  std::set<const ir::VarNode *> TouchedVars;
  std::set<const ir::BufferNode *> TouchedBufs;
  std::set<const ir::StmtNode *> Dependent;

  template <typename T> void insert(std::set<T> &Set, T X) { Changed |= Set.insert(X).second; }

  bool accessesTouched(const ir::StmtNode *S) const {
    for (const auto *Map : {&ReadsOf, &WritesOf}) {
      auto It = Map->find(S);
      if (It != Map->end())
        for (const ir::BufferNode *B : It->second)
          if (TouchedBufs.count(B))
            return true;
    }
    return false;
  }

  /// Whether S's own expressions make it dependent; records its effects when
  /// it is (or when Control says it is).
  bool visitOwn(const ir::Stmt &S, bool Control, bool IsLeaf) {
    ExprFacts Facts;
    for (const ir::Expr &E : ownExprs(S))
      Facts.visit(E);
    bool Dep = Control || Facts.HasUnknownCall || accessesTouched(S.get()) ||
               (IsLeaf && ShareNothing);
    for (const ir::VarNode *V : Facts.Vars)
      Dep = Dep || TouchedVars.count(V);
    if (!Dep)
      return false;
    insert(Dependent, S.get());
    auto It = WritesOf.find(S.get());
    if (It != WritesOf.end())
      for (const ir::BufferNode *B : It->second)
        if (!Spanning.count(B))
          insert(TouchedBufs, B);
    for (const ir::BufferNode *B : Facts.UnknownCallBuffers)
      insert(TouchedBufs, B);
    return true;
  }

  void walk(const ir::Stmt &S, bool Control) {
    if (!S)
      return;
    switch (S->Kind) {
    case ir::StmtKind::Store:
      visitOwn(S, Control, true);
      return;
    case ir::StmtKind::Evaluate:
      // A barrier is never a virtual thread's own work.
      if (!isBarrier(S))
        visitOwn(S, Control, true);
      return;
    case ir::StmtKind::Seq:
      for (const ir::Stmt &C : ir::as<ir::SeqNode>(S)->Stmts)
        walk(C, Control);
      return;
    case ir::StmtKind::Allocate:
      walk(ir::as<ir::AllocateNode>(S)->Body, Control);
      return;
    case ir::StmtKind::For:
      walk(ir::as<ir::ForNode>(S)->Body, visitOwn(S, Control, false));
      return;
    case ir::StmtKind::IfThenElse: {
      const auto *N = ir::as<ir::IfThenElseNode>(S);
      bool Dep = visitOwn(S, Control, false);
      walk(N->Then, Dep);
      walk(N->Else, Dep);
      return;
    }
    case ir::StmtKind::LetStmt: {
      const auto *N = ir::as<ir::LetStmtNode>(S);
      bool Dep = visitOwn(S, Control, false);
      if (Dep)
        insert(TouchedVars, N->LetVar.get());
      walk(N->Body, Dep);
      return;
    }
    }
  }
};

/// Whether any statement in S is dependent.
class DependentFinder : public ir::IRVisitor {
public:
  explicit DependentFinder(const DependenceAnalysis &DA) : DA(DA) {}
  bool Found = false;
  bool FoundBarrier = false;

protected:
  void visitFor(const ir::ForNode *N) override {
    note(N);
    ir::IRVisitor::visitFor(N);
  }
  void visitStore(const ir::StoreNode *N) override { note(N); }
  void visitIfThenElse(const ir::IfThenElseNode *N) override {
    note(N);
    ir::IRVisitor::visitIfThenElse(N);
  }
  void visitLetStmt(const ir::LetStmtNode *N) override {
    note(N);
    ir::IRVisitor::visitLetStmt(N);
  }
  void visitEvaluate(const ir::EvaluateNode *N) override {
    note(N);
    FoundBarrier |= isBarrierCall(N->Value);
  }

private:
  const DependenceAnalysis &DA;
  void note(const ir::StmtNode *S) { Found |= DA.isDependent(S); }
};

/// The arrays allocated inside a statement.
class AllocatedIn : public ir::IRVisitor {
public:
  std::set<const ir::BufferNode *> Buffers;

protected:
  void visitAllocate(const ir::AllocateNode *N) override {
    Buffers.insert(N->Buf.get());
    ir::IRVisitor::visitAllocate(N);
  }
};

/// The loop body with only the statements DA found dependent (the others
/// emptied): what the copies do. Allocations are dropped (their bodies
/// kept), so that the dependence test sees one buffer shared by all
/// iterations, which is what not expanding it means.
class DependentOnly : public ir::IRMutator {
public:
  explicit DependentOnly(const DependenceAnalysis &DA) : DA(DA) {}

protected:
  ir::Stmt mutateAllocate(const ir::Stmt &, const ir::AllocateNode *N) override {
    return mutate(N->Body);
  }
  ir::Stmt mutateStore(const ir::Stmt &S, const ir::StoreNode *) override {
    return DA.isDependent(S.get()) ? S : ir::makeSeq({});
  }
  ir::Stmt mutateEvaluate(const ir::Stmt &S, const ir::EvaluateNode *) override {
    return DA.isDependent(S.get()) ? S : ir::makeSeq({});
  }

private:
  const DependenceAnalysis &DA;
};

/// A shared stage computed inside a virtual-thread loop has one region for
/// all the virtual threads (bound inference ranges the vthread loops above a
/// shared stage): its elements already differ by virtual thread, and the
/// statements that do not depend on the variable (the write-back of a
/// cache_write, run once for all of them) read every virtual thread's
/// elements. Expanding it per copy would leave each copy with one virtual
/// thread's elements and the shared write-back reading the others' unwritten
/// ones. So a shared buffer allocated inside a vthread loop is not expanded
/// when what the copies do touches it at different elements in different
/// virtual threads (isParallelLoopOver on the copies' statements alone).
/// A cthread shares nothing, so nothing spans it.
std::set<const ir::BufferNode *> spanningBuffers(const ir::ForNode *Loop, bool ShareNothing) {
  std::set<const ir::BufferNode *> Spanning;
  if (ShareNothing)
    return Spanning;
  AllocatedIn Inside;
  Inside.visit(Loop->Body);
  for (const ir::BufferNode *B : Inside.Buffers)
    if (B->MemScope == ir::Scope::Shared)
      Spanning.insert(B);
  for (bool Removed = !Spanning.empty(); Removed;) {
    Removed = false;
    DependenceAnalysis DA(Loop, ShareNothing, Spanning);
    ir::Stmt Copies = ir::makeFor(Loop->LoopVar, Loop->Min, Loop->Extent,
                                  DependentOnly(DA).mutate(Loop->Body), ir::ForKind::Serial);
    for (auto It = Spanning.begin(); It != Spanning.end();) {
      if (DA.isTouched(*It) || !ir::isParallelLoopOver(ir::as<ir::ForNode>(Copies), {*It})) {
        It = Spanning.erase(It);
        Removed = true;
      } else {
        ++It;
      }
    }
  }
  return Spanning;
}

/// The statement a virtual thread runs (its accesses to expanded buffers
/// already indexed [vthread, ...]): the variable replaced by its value (a
/// constant, or the variable of the loop over the copies), and every variable
/// and buffer defined inside the copy made fresh, so that copies never
/// redefine each other's names.
class CopyMaker : public ir::IRMutator {
public:
  CopyMaker(const ir::VarNode *VThread, ir::Expr Value)
      : VThread(VThread), Value(std::move(Value)) {}

protected:
  ir::Expr mutateVar(const ir::Expr &E, const ir::VarNode *N) override {
    if (N == VThread)
      return Value;
    auto It = Renamed.find(N);
    return It == Renamed.end() ? E : It->second;
  }

  ir::Expr mutateLoad(const ir::Expr &E, const ir::LoadNode *N) override {
    std::vector<ir::Expr> Indices;
    ir::Buffer B = remap(N->Buf, N->Indices, Indices);
    return std::make_shared<ir::LoadNode>(B, std::move(Indices), E->Type);
  }

  ir::Stmt mutateStore(const ir::Stmt &, const ir::StoreNode *N) override {
    std::vector<ir::Expr> Indices;
    ir::Buffer B = remap(N->Buf, N->Indices, Indices);
    return ir::makeStoreLike(N, B, std::move(Indices), mutate(N->Value));
  }

  ir::Stmt mutateAllocate(const ir::Stmt &, const ir::AllocateNode *N) override {
    std::vector<ir::Expr> Shape;
    for (const ir::Expr &D : N->Buf->Shape)
      Shape.push_back(mutate(D));
    ir::Buffer Fresh = ir::makeBuffer(N->Buf->Name, N->Buf->Type, Shape, N->Buf->MemScope);
    Buffers[N->Buf.get()] = Fresh;
    return ir::makeAllocate(Fresh, mutate(N->Body));
  }

  ir::Stmt mutateFor(const ir::Stmt &, const ir::ForNode *N) override {
    ir::Var Fresh = freshen(N->LoopVar);
    return ir::withVar(N, Fresh, mutate(N->Min), mutate(N->Extent), mutate(N->Body));
  }

  ir::Stmt mutateLetStmt(const ir::Stmt &, const ir::LetStmtNode *N) override {
    ir::Expr V = mutate(N->Value);
    ir::Var Fresh = freshen(N->LetVar);
    return ir::makeLet(Fresh, V, mutate(N->Body));
  }

private:
  const ir::VarNode *VThread;
  ir::Expr Value;
  std::map<const ir::VarNode *, ir::Expr> Renamed;
  std::map<const ir::BufferNode *, ir::Buffer> Buffers; // allocated inside the copy

  ir::Var freshen(const ir::Var &V) {
    ir::Var Fresh = ir::makeVar(V->Name, V->Type);
    Renamed[V.get()] = Fresh;
    return Fresh;
  }

  ir::Buffer remap(const ir::Buffer &B, const std::vector<ir::Expr> &In,
                   std::vector<ir::Expr> &Out) {
    for (const ir::Expr &I : In)
      Out.push_back(mutate(I));
    auto It = Buffers.find(B.get());
    return It == Buffers.end() ? B : It->second;
  }
};

/// Rewrites the body of one virtual-thread loop: shares what is independent,
/// copies what is dependent, expands what the copies touch.
class Injector {
public:
  Injector(const ir::ForNode *Loop, int64_t Count,
           const std::set<const ir::BufferNode *> &KernelArrays, std::vector<Diag> &Diags)
      : Loop(Loop), Count(Count), KernelArrays(KernelArrays), Diags(Diags),
        DA(Loop, Loop->ThreadTag == "cthread",
           spanningBuffers(Loop, Loop->ThreadTag == "cthread")) {}

  /// The rewritten body, or null (with an error) when copies would share a
  /// buffer they cannot own.
  ir::Stmt run() {
    if (!sharedBuffersDisjoint())
      return nullptr;
    return inject(Loop->Body);
  }

private:
  const ir::ForNode *Loop;
  const int64_t Count;
  const std::set<const ir::BufferNode *> &KernelArrays;
  std::vector<Diag> &Diags;
  DependenceAnalysis DA;
  ir::BufferExpansions Expanded; // by the virtual-thread count (ir/Rewrite.h)

  /// The copies interleave statement by statement, which is the serial loop's
  /// meaning only if they are independent. Arrays allocated inside the loop
  /// are expanded (one per copy); a touched array allocated outside it (a
  /// stage or accumulator placed above the vthread loop) must be touched at
  /// different elements by different virtual threads. Parameters were proved
  /// so when the loop was bound (and a cthread's copies may store the same
  /// value to the same element, which the test would refuse).
  bool sharedBuffersDisjoint() {
    AllocatedIn Inside;
    Inside.visit(Loop->Body);
    std::set<const ir::BufferNode *> Shared;
    for (const ir::BufferNode *B : DA.touched())
      if (!Inside.Buffers.count(B) && KernelArrays.count(B))
        Shared.insert(B);
    std::string Why;
    if (Shared.empty() || ir::isParallelLoopOver(Loop, Shared, &Why))
      return true;
    Diag D;
    D.Message = "virtual threads of loop '" + Loop->LoopVar->Name + "' (" + Loop->ThreadTag +
                ") are not independent: " + Why;
    Diags.push_back(D);
    return false;
  }

  ir::Stmt inject(const ir::Stmt &S) {
    DependentFinder Finder(DA);
    Finder.visit(S);
    if (!Finder.Found)
      return S;
    switch (S->Kind) {
    case ir::StmtKind::Seq: {
      std::vector<ir::Stmt> Out;
      for (const ir::Stmt &C : ir::as<ir::SeqNode>(S)->Stmts)
        Out.push_back(inject(C));
      return ir::makeSeq(std::move(Out));
    }
    case ir::StmtKind::Allocate: {
      const auto *N = ir::as<ir::AllocateNode>(S);
      if (!DA.isTouched(N->Buf.get()))
        return ir::makeAllocate(N->Buf, inject(N->Body));
      ir::ExpandedBuffer &X = Expanded[N->Buf.get()] = ir::expandBuffer(N->Buf, Count);
      return ir::makeAllocate(X.Wide, inject(N->Body));
    }
    case ir::StmtKind::For: {
      const auto *N = ir::as<ir::ForNode>(S);
      if (DA.isDependent(N))
        return replicate(S);
      return ir::withBody(N, inject(N->Body));
    }
    case ir::StmtKind::IfThenElse: {
      const auto *N = ir::as<ir::IfThenElseNode>(S);
      if (DA.isDependent(N))
        return replicate(S);
      return ir::makeIf(N->Cond, inject(N->Then), N->Else ? inject(N->Else) : nullptr);
    }
    case ir::StmtKind::LetStmt: {
      const auto *N = ir::as<ir::LetStmtNode>(S);
      if (DA.isDependent(N))
        return replicate(S);
      return ir::makeLet(N->LetVar, N->Value, inject(N->Body));
    }
    case ir::StmtKind::Store:
    case ir::StmtKind::Evaluate:
      return replicate(S);
    }
    return S;
  }

  /// One copy of S per virtual thread: unrolled when few, else a loop.
  ir::Stmt replicate(const ir::Stmt &S) {
    DependentFinder Finder(DA);
    Finder.visit(S);
    if (Finder.FoundBarrier) {
      Diag D;
      D.Message = "a barrier inside control flow that depends on virtual thread '" +
                  Loop->LoopVar->Name + "' would run once per virtual thread";
      Diags.push_back(D);
      return S;
    }
    // Copy v indexes the expanded buffers [v, ...].
    ir::Stmt Wide = ir::expandAccesses(S, Expanded, Loop->LoopVar);
    if (Count > MaxUnrolledCopies) {
      ir::Var V = ir::makeVar(Loop->LoopVar->Name, Loop->LoopVar->Type);
      ir::Stmt Body = CopyMaker(Loop->LoopVar.get(), V).mutate(Wide);
      return ir::makeFor(V, ir::makeInt(0), ir::makeInt(Count), ir::simplify(Body));
    }
    std::vector<ir::Stmt> Copies;
    for (int64_t C = 0; C < Count; ++C) {
      ir::Expr Value = ir::makeInt(C, Loop->LoopVar->Type);
      Copies.push_back(ir::simplify(CopyMaker(Loop->LoopVar.get(), Value).mutate(Wide)));
    }
    return ir::makeSeq(std::move(Copies));
  }
};

/// Lowers every virtual-thread loop, innermost first.
class VirtualThreadLowerer : public ir::IRMutator {
public:
  VirtualThreadLowerer(const ir::Stmt &Kernel, std::vector<Diag> &Diags) : Diags(Diags) {
    AllocatedIn Arrays;
    Arrays.visit(Kernel);
    KernelArrays = Arrays.Buffers;
  }

protected:
  ir::Stmt mutateFor(const ir::Stmt &S, const ir::ForNode *N) override {
    ir::Stmt Lowered = ir::IRMutator::mutateFor(S, N);
    const auto *L = ir::as<ir::ForNode>(Lowered);
    if (!isVirtualThreadLoop(L))
      return Lowered;
    int64_t Count;
    if (!ir::getConstInt(ir::simplify(L->Extent), Count) || Count < 1) {
      Diag D;
      D.Message = "loop '" + L->LoopVar->Name + "' is bound to " + L->ThreadTag +
                  ", whose extent must be a positive constant";
      Diags.push_back(D);
      return Lowered;
    }
    ir::Stmt Body = Injector(L, Count, KernelArrays, Diags).run();
    return Body ? Body : Lowered;
  }

private:
  std::vector<Diag> &Diags;
  std::set<const ir::BufferNode *> KernelArrays; // allocated in the kernel
};

} // namespace

ir::LoopNest injectVirtualThread(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  ir::LoopNest Out = Nest;
  Out.Body = VirtualThreadLowerer(Nest.Body, Diags).mutate(Nest.Body);
  return Out;
}

const Pass InjectVirtualThreadPass = {
    "InjectVirtualThread", /*Requires=*/FormBindingsVerified, /*Establishes=*/FormNoVirtualThreads,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      S.Nest = injectVirtualThread(S.Nest, S.Diags);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
