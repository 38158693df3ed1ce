//===- DistributeOverThreads.cpp - Each statement on the threads it names -===//
//
// In CUDA every statement runs on every thread of the block unless a thread
// loop (a guard on threadIdx) restricts it; in the nest, a statement outside
// the loop of a thread dimension runs once, not once per thread of that
// dimension. This pass makes the kernel do what the nest says, for every
// statement that writes global or shared memory (local memory is per
// thread: a local store keeps running on every thread, each into its own
// copy). Such a statement is redundant along
//  - every thread dimension of the block it sits outside of (outside every
//    thread loop, or inside the threadIdx.x loop but outside the threadIdx.y
//    loop, ...), and
//  - every enclosing thread dimension it does not depend on (a cache stage
//    computed inside the compute's thread loops: by the schedule's meaning
//    the block computes it once, for all its threads),
// and is made to run exactly once per instance of the dimensions it does
// depend on:
//  - a perfect nest of parallel serial loops (ir::isParallelLoop; a cache
//    stage `As.ax0, As.ax1` computed at `ko`) is fused and distributed over
//    the redundant dimensions' T threads (tid linearized, x fastest):
//      for (As.k, 0, ceil(total / T)) {
//        let As.f = As.k*T + tid { if (As.f < total) body[ax0 := f / e1, ax1 := f % e1] } }
//  - anything else is guarded to thread 0 of the redundant dimensions;
//  - dimensions the statement sits outside of get fresh loops bound to them
//    around it (`As.ty`, `As.tx`, `D.tx`), so the guard or the distribution
//    has a thread variable to use.
// A statement that would be redundant along a dimension some enclosing
// condition depends on (`if (tx < 32)` around a stage) cannot be given to one
// thread of it: that is an error naming the buffer (the frontend keeps the
// loop). To avoid it where the schedule is legal, a thread-divergent guard
// (a tile guard `if (jo*16 + tx < N)`, the guard of a non-dividing split or
// of a widened thread loop) is first sunk below the cache stages inside it,
// `if (g) { for ko { stage; compute } }` -> `for ko { stage; if (g) compute }`:
// a stage the block fills together must run on all its threads, and running
// it where g is false only fills scratch memory the guarded code reads.
// That needs g free of memory reads, the stage writing only shared buffers
// allocated inside the guard and depending on no thread, and every access of
// the stage provably in bounds without g (its own element guards, ir/Bounds).
// A local buffer a stage reads must be filled on every thread too (a local
// stage Al feeding the shared stage's copy `As[..] = Al[..]`: the block's
// threads fill As together, each from its own Al), so the guard is also sunk
// below its fills (statements that meet the same conditions, with local
// buffers allocated inside the guard for shared ones), and below the fills
// of the local buffers those read in turn. Where such a buffer is also
// written by code that stays under g, threads where g is false would copy
// what they never wrote: the guard is not sunk (the error above names the
// stage).
// This is the only place guards are sunk: bound inference leaves them where
// the schedule put them.
// A loop bound to a threadIdx tag inside a loop bound to the same tag (the
// user fused, split and bound the stage's loops himself) names the same
// threads: `if (v < extent) body[v := outer var]`, an error when its extent
// exceeds the block's. Barriers the new distribution needs (readers in other
// threads of what a guarded or distributed statement wrote) are
// InjectThreadSync's.
//
// Runs after WidenThreadLoops (thread loops run over their launch extents,
// read from the KernelContext) and before StorageFlatten (a stage's indices
// are still multi-dimensional) and InjectThreadSync.
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/Bounds.h"
#include "ir/Dependence.h"
#include "ir/Intrinsics.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "ir/Vectorize.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <algorithm>
#include <map>
#include <set>

namespace sched {
namespace passes {

namespace {

using ir::Expr;
using ir::Stmt;

const char *const TagOfDim[3] = {"threadIdx.x", "threadIdx.y", "threadIdx.z"};

/// The stage's name for new variables: "As" for loops "As.ax0", else the
/// loop's own name.
std::string stagePrefix(const std::string &LoopName) {
  size_t Dot = LoopName.rfind(".ax");
  return Dot == std::string::npos ? LoopName : LoopName.substr(0, Dot);
}

/// What a statement contains that decides how it may be treated.
class StmtFacts : public ir::IRVisitor {
public:
  bool LaunchLoop = false, Barrier = false; // LaunchLoop: bound to a block or thread
  std::set<const ir::BufferNode *> Allocated;

protected:
  void visitFor(const ir::ForNode *N) override {
    LaunchLoop |= N->LoopKind == ir::ForKind::ThreadBound;
    ir::IRVisitor::visitFor(N);
  }
  void visitEvaluate(const ir::EvaluateNode *N) override {
    // A warp collective runs on every lane of its warp: never given to one
    // thread or spread over threads.
    Barrier |= isBarrierCall(N->Value) || ir::isWarpCollectiveCall(N->Value);
    ir::IRVisitor::visitEvaluate(N);
  }
  void visitAllocate(const ir::AllocateNode *N) override {
    Allocated.insert(N->Buf.get());
    ir::IRVisitor::visitAllocate(N);
  }
};

StmtFacts factsOf(const Stmt &S) {
  StmtFacts F;
  F.visit(S);
  return F;
}

bool writesNonLocal(const Stmt &S) {
  for (const ir::Access &A : ir::collectAccesses(S))
    if (A.IsWrite && A.Buf->MemScope != ir::Scope::Local)
      return true;
  return false;
}

/// The conjuncts `v == c` of Cond.
void collectPins(const Expr &Cond, std::vector<const ir::VarNode *> &Out) {
  const auto *B = ir::as<ir::BinaryNode>(Cond);
  if (!B)
    return;
  if (B->Op == ir::BinOp::And) {
    collectPins(B->A, Out);
    collectPins(B->B, Out);
    return;
  }
  int64_t C;
  if (B->Op == ir::BinOp::EQ && ir::as<ir::VarNode>(B->A) && ir::getConstInt(B->B, C))
    Out.push_back(ir::as<ir::VarNode>(B->A));
}


class Distributor : public ir::IRMutator {
public:
  Distributor(const KernelContext &Kernel, std::vector<Diag> &Diags)
      : Kernel(Kernel), Diags(Diags) {
    for (const std::string &Tag : Kernel.threadTags())
      BlockDims |= 1u << ir::threadTagDim(Tag);
  }

  /// Thread dimensions with more than one thread (bit d: threadIdx dim d).
  unsigned BlockDims = 0;
  /// Shared buffers an intrinsic reads tiles of (distributeInChunks).
  std::set<const ir::BufferNode *> TensorOperands;
  /// Loops marked pipeline(x, stages=S): their stages are filled in runs
  /// too, which PipelineStages makes cp.async copies.
  std::set<const ir::VarNode *> PipelinedLoops;
  bool InPipelinedLoop = false;
  /// The sizes' divisors the conditions around the statement state; the
  /// flat indices StorageFlatten will write show them (ir::withDivisorFacts).
  ir::DivisorFacts Facts;

protected:
  Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
    if (isThreadIdxLoop(N)) {
      if (const ir::ForNode *Outer = Here.Loop[ir::threadTagDim(N->ThreadTag)])
        return sameThreads(N, Outer);
      return inThreadLoop(N, [&] { return ir::IRMutator::mutateFor(S, N); });
    }
    if (Stmt Once = runOnceIfRedundant(S))
      return Once;
    return inSerialLoop(S, N);
  }

  Stmt mutateIfThenElse(const Stmt &S, const ir::IfThenElseNode *N) override {
    unsigned Mask = Dependence.of(N->Cond);
    std::vector<const ir::VarNode *> PinVars;
    collectPins(N->Cond, PinVars);
    unsigned Pins = 0;
    for (const ir::VarNode *V : PinVars)
      for (int D = 0; D < 3; ++D)
        if (Here.Loop[D] && Here.Loop[D]->LoopVar.get() == V)
          Pins |= 1u << D;
    // A thread-divergent guard (not one that picks a thread) is sunk below
    // the cache stages inside it, which all threads must run.
    if ((Mask & ~Pins) && !N->Else && !ir::dependsOnMemory(N->Cond))
      if (Stmt Sunk = GuardSinker(*this, N->Cond).sinkFrom(N->Then))
        return mutate(Sunk);
    if (Stmt Once = runOnceIfRedundant(S))
      return Once;
    Stmt Then, Else;
    {
      ScopedValue<Place> Saved(Here);
      ScopedValue<ir::DivisorFacts> SavedFacts(Facts);
      Here.Pinned |= Pins;
      Here.markDivergent(Mask & ~Pins, "if " + ir::print(N->Cond));
      ir::addDivisorFacts(N->Cond, Facts);
      Then = mutate(N->Then);
    }
    {
      ScopedValue<Place> Saved(Here);
      Here.markDivergent(Mask, "else of if " + ir::print(N->Cond));
      Else = mutate(N->Else);
    }
    if (Then == N->Then && Else == N->Else)
      return S;
    if (!Else)
      return guardWith(N->Cond, Then);
    return ir::makeIf(N->Cond, Then, Else);
  }

  Stmt mutateLetStmt(const Stmt &S, const ir::LetStmtNode *N) override {
    if (Stmt Once = runOnceIfRedundant(S))
      return Once;
    Dependence.enter(N);
    Stmt Out = ir::IRMutator::mutateLetStmt(S, N);
    Dependence.leave(N->LetVar.get());
    return Out;
  }

  Stmt mutateSeq(const Stmt &S, const ir::SeqNode *N) override {
    if (Stmt Once = runOnceIfRedundant(S))
      return Once;
    return ir::IRMutator::mutateSeq(S, N);
  }

  Stmt mutateAllocate(const Stmt &S, const ir::AllocateNode *N) override {
    if (N->Buf->MemScope == ir::Scope::Shared && ir::isIntrinsicOperand(N->Body, N->Buf.get()))
      TensorOperands.insert(N->Buf.get());
    if (Stmt Once = runOnceIfRedundant(S))
      return Once;
    if (N->Buf->MemScope == ir::Scope::Local)
      PerThread[N->Buf.get()] = enclosingDims();
    return ir::IRMutator::mutateAllocate(S, N);
  }

  Stmt mutateStore(const Stmt &S, const ir::StoreNode *) override {
    Stmt Once = runOnceIfRedundant(S);
    return Once ? Once : S;
  }

  Stmt mutateEvaluate(const Stmt &S, const ir::EvaluateNode *) override {
    Stmt Once = runOnceIfRedundant(S);
    return Once ? Once : S;
  }

private:
  /// Where the walk is, as far as threads go: restored on leaving a subtree
  /// (ScopedValue).
  struct Place {
    const ir::ForNode *Loop[3] = {nullptr, nullptr, nullptr}; // enclosing thread loop per dim
    unsigned Pinned = 0;    // dims an enclosing guard restricts to one thread
    unsigned Divergent = 0; // dims an enclosing guard or loop bound depends on otherwise
    std::string Why[3];     // the construct that made each dim divergent

    void markDivergent(unsigned Mask, const std::string &Construct) {
      for (int D = 0; D < 3; ++D)
        if (Mask & (1u << D) && !(Divergent & (1u << D)))
          Why[D] = Construct;
      Divergent |= Mask;
    }
  };

  const KernelContext &Kernel;
  std::vector<Diag> &Diags;
  Place Here;
  ThreadDependence Dependence;
  ir::VarRanges Ranges; // of the enclosing loops' variables
  std::set<std::string> Reported;

  /// The variable of a loop in scope: its range and thread dependence.
  class LoopVariable {
  public:
    LoopVariable(Distributor &D, const ir::ForNode *N) : D(D), N(N) {
      Mask = D.Dependence.enter(N);
      D.Ranges[N->LoopVar.get()] = {N->Min, ir::simplify(N->Min + N->Extent - ir::makeInt(1))};
    }
    ~LoopVariable() {
      D.Dependence.leave(N->LoopVar.get());
      D.Ranges.erase(N->LoopVar.get());
    }
    unsigned Mask; // the threadIdx dims the variable depends on

  private:
    Distributor &D;
    const ir::ForNode *N;
  };

  /// Mutates a serial (or block) loop's body with the loop in scope.
  Stmt inSerialLoop(const Stmt &S, const ir::ForNode *N) {
    ScopedValue<Place> Saved(Here);
    ScopedValue<bool> SavedPipelined(InPipelinedLoop);
    InPipelinedLoop |= PipelinedLoops.count(N->LoopVar.get()) != 0;
    LoopVariable Var(*this, N);
    Here.markDivergent(Var.Mask, "loop '" + N->LoopVar->Name +
                                     "' with bounds that depend on the thread");
    return ir::IRMutator::mutateFor(S, N);
  }

  void error(const std::string &Message) {
    Diag D;
    D.Message = Message;
    Diags.push_back(D);
  }

  /// Runs Make with N as the enclosing loop of its dimension.
  template <typename MakeFn> Stmt inThreadLoop(const ir::ForNode *N, MakeFn Make) {
    int Dim = ir::threadTagDim(N->ThreadTag);
    ScopedValue<Place> Saved(Here);
    Here.Loop[Dim] = N;
    // A new loop of the dimension: no guard encloses it on its threads yet.
    Here.Pinned &= ~(1u << Dim);
    Here.Divergent &= ~(1u << Dim);
    LoopVariable Var(*this, N);
    return Make();
  }

  /// Local buffers allocated inside thread loops: each thread of those dims
  /// has its own copy, whose value may differ from thread to thread.
  std::map<const ir::BufferNode *, unsigned> PerThread;

  /// The thread dims S's values may differ along: the variables it refers
  /// to, and, for a store into global memory, the per-thread local buffers
  /// it reads (a private scalar's value stored after the nest's last
  /// iteration, `if (i == n - 1) t_final[0] = t[0]`, is the value of one
  /// thread, not of all). A shared stage filled from a local one (`As = Al`)
  /// is filled by the block's threads together, each from its own copy: its
  /// own variables decide.
  unsigned dependenceOf(const Stmt &S) const {
    unsigned Mask = Dependence.of(S);
    std::vector<ir::Access> Accesses = ir::collectAccesses(S);
    bool WritesGlobal = std::any_of(Accesses.begin(), Accesses.end(), [](const ir::Access &A) {
      return A.IsWrite && A.Buf->MemScope == ir::Scope::Global;
    });
    for (const ir::Access &A : Accesses) {
      auto It = A.IsWrite || !WritesGlobal ? PerThread.end() : PerThread.find(A.Buf.get());
      if (It != PerThread.end())
        Mask |= It->second;
    }
    return Mask;
  }

  unsigned enclosingDims() const {
    unsigned Mask = 0;
    for (int D = 0; D < 3; ++D)
      if (Here.Loop[D])
        Mask |= 1u << D;
    return Mask;
  }

  /// The name of what S writes, for new variables and messages.
  static std::string unitName(const Stmt &S) {
    if (const auto *F = ir::as<ir::ForNode>(S))
      return stagePrefix(F->LoopVar->Name);
    for (const ir::Access &A : ir::collectAccesses(S))
      if (A.IsWrite && A.Buf->MemScope != ir::Scope::Local)
        return A.Buf->Name;
    return "stmt";
  }

  /// S runs on every thread of the dims it is redundant along (see the file
  /// comment): returns its replacement, which runs once per instance of the
  /// others; null when S is not redundant (or is not a unit: it holds a
  /// thread loop or a barrier, or writes no global or shared memory).
  Stmt runOnceIfRedundant(const Stmt &S) {
    if (!BlockDims)
      return nullptr;
    StmtFacts Facts = factsOf(S);
    if (Facts.LaunchLoop || Facts.Barrier)
      return nullptr;
    bool WritesLocalOutside = false;
    std::string Written; // a global or shared buffer S writes
    for (const ir::Access &A : ir::collectAccesses(S)) {
      if (!A.IsWrite)
        continue;
      if (A.Buf->MemScope != ir::Scope::Local)
        Written = A.Buf->Name;
      else if (!Facts.Allocated.count(A.Buf.get()))
        WritesLocalOutside = true;
    }
    if (Written.empty())
      return nullptr;
    unsigned Enclosing = enclosingDims();
    unsigned Redundant = BlockDims & ~(Enclosing & (dependenceOf(S) | Here.Pinned));
    if (!Redundant)
      return nullptr;
    // Giving it to one thread would deprive the others of the local values
    // it computes: the statements inside are treated one by one.
    if (WritesLocalOutside)
      return nullptr;
    if (unsigned Stuck = Redundant & Enclosing & Here.Divergent) {
      int Dim = Stuck & 1 ? 0 : Stuck & 2 ? 1 : 2;
      if (Reported.insert(Written).second)
        error("the write to '" + Written + "' does not depend on " + TagOfDim[Dim] +
              " and would run on every thread of it that reaches it under thread-divergent "
              "control flow (" + Here.Why[Dim] + "); it cannot be given to one thread there");
      return nullptr;
    }
    // A loop or block that holds a nest the threads can share is entered
    // instead (it runs on every thread; what it holds is given out piece
    // by piece), rather than given to one thread whole.
    if (!isDistributable(ir::as<ir::ForNode>(S)) && holdsDistributable(S))
      return nullptr;
    return runOnce(S, Redundant);
  }

  /// Outer is a perfect nest of parallel serial loops with uniform bounds
  /// (the same for every thread, and rectangular),
  /// more than one iteration in all (a nest of one iteration goes to one
  /// thread whole: spread over the threads, what it holds that does not use
  /// its loops would sit under a guard only thread 0 passes, `f < 1`).
  bool isDistributable(const ir::ForNode *Outer) const {
    bool OneIteration = true;
    std::set<const ir::VarNode *> NestVars; // of the loops above L in the nest
    for (const ir::ForNode *L = Outer; L; L = ir::as<ir::ForNode>(L->Body)) {
      if (L->LoopKind != ir::ForKind::Serial || Dependence.of(L->Min) ||
          Dependence.of(L->Extent) || !ir::isParallelLoop(L) || allocatesShared(L->Body))
        return false;
      // Rectangular: a bound that moves with an enclosing loop of the nest
      // (a triangle) has no one total to spread over the threads.
      for (const ir::VarNode *V : ir::varsOf(ir::makeBinary(ir::BinOp::Add, L->Min, L->Extent)))
        if (NestVars.count(V))
          return false;
      NestVars.insert(L->LoopVar.get());
      int64_t Trips;
      OneIteration = OneIteration && ir::getConstInt(L->Extent, Trips) && Trips == 1;
    }
    return Outer != nullptr && !OneIteration;
  }

  /// A distributable nest that writes global or shared memory lies
  /// strictly inside S.
  bool holdsDistributable(const Stmt &S) const {
    struct Finder : ir::IRVisitor {
      const Distributor &D;
      const ir::StmtNode *Root;
      bool Found = false;
      Finder(const Distributor &D, const ir::StmtNode *Root) : D(D), Root(Root) {}
      void visitFor(const ir::ForNode *N) override {
        Found |= N != Root && writesNonLocal(N->Body) && D.isDistributable(N);
        if (!Found)
          ir::IRVisitor::visitFor(N);
      }
    } F(*this, S.get());
    F.visit(S);
    return F.Found;
  }

  Stmt runOnce(const Stmt &S, unsigned Redundant) {
    // Fresh loops for the dims S is outside of, z outermost; seen by the
    // analyses below (as placeholders) while their body is built.
    std::vector<Stmt> Fresh;
    const std::string Name = unitName(S);
    for (int D = 2; D >= 0; --D) {
      if (!(Redundant & (1u << D)) || Here.Loop[D])
        continue;
      ir::Var V = ir::makeVar(Name + ".t" + std::string(1, "xyz"[D]));
      Fresh.push_back(ir::makeFor(V, ir::makeInt(0), Kernel.extent(TagOfDim[D]),
                                  ir::makeEvaluate(ir::makeInt(0)), ir::ForKind::ThreadBound,
                                  TagOfDim[D]));
    }
    return enterFresh(Fresh, 0, [&] {
      Stmt Body = distribute(S, Redundant);
      if (!Body) {
        Expr First;
        for (int D = 2; D >= 0; --D)
          if (Redundant & (1u << D)) {
            const ir::Var &V = Here.Loop[D]->LoopVar;
            Expr IsZero = ir::makeBinary(ir::BinOp::EQ, V, ir::makeInt(0, V->Type));
            First = First ? ir::makeBinary(ir::BinOp::And, First, IsZero) : IsZero;
          }
        Body = guardWith(First, S);
      }
      return mutate(Body);
    });
  }

  /// Builds Fresh[I..] around Make(): each loop is the enclosing loop of its
  /// dimension while the body is made.
  template <typename MakeFn>
  Stmt enterFresh(const std::vector<Stmt> &Fresh, size_t I, MakeFn Make) {
    if (I == Fresh.size())
      return Make();
    const auto *F = ir::as<ir::ForNode>(Fresh[I]);
    Stmt Body = inThreadLoop(F, [&] { return enterFresh(Fresh, I + 1, Make); });
    return ir::withBody(F, Body);
  }

  /// Whether every launch loop in S is a threadIdx loop of a dimension an
  /// enclosing thread loop already has (a stage the user distributed over
  /// the block's threads himself, `split(Bs.f, Bs.o, Bs.t, 64)
  /// bind(Bs.t, threadIdx.x)`): the block's threads fill it together, like a
  /// stage this pass distributes.
  bool onlyEnclosingThreadLoops(const Stmt &S) const {
    struct Finder : ir::IRVisitor {
      const Place &Here;
      bool Other = false;
      explicit Finder(const Place &Here) : Here(Here) {}
      void visitFor(const ir::ForNode *N) override {
        if (N->LoopKind == ir::ForKind::ThreadBound &&
            !(isThreadIdxLoop(N) && Here.Loop[ir::threadTagDim(N->ThreadTag)]))
          Other = true;
        ir::IRVisitor::visitFor(N);
      }
    } F(Here);
    F.visit(S);
    return !F.Other;
  }

  /// A loop bound to Outer's tag inside it: the same threads.
  Stmt sameThreads(const ir::ForNode *N, const ir::ForNode *Outer) {
    // Under a guard that leaves out some threads of the dimension (one the
    // guard sinking above could not move), those threads would skip their
    // iterations of N: refuse rather than drop them.
    int Dim = ir::threadTagDim(N->ThreadTag);
    if ((Here.Divergent | Here.Pinned) & (1u << Dim)) {
      error("loop '" + N->LoopVar->Name + "' is bound to " + N->ThreadTag +
            " under control flow that leaves out some of its threads (" +
            (Here.Divergent & (1u << Dim) ? Here.Why[Dim] : std::string("a guard on one thread")) +
            "): those threads would skip their iterations of it");
      return ir::withBody(N, N->Body);
    }
    int64_t Inner = 0, Block = 0;
    if (ir::getConstInt(N->Extent, Inner) && ir::getConstInt(Outer->Extent, Block) &&
        Inner > Block) {
      error("loop '" + N->LoopVar->Name + "' is bound to " + N->ThreadTag + " with extent " +
            std::to_string(Inner) + " inside loop '" + Outer->LoopVar->Name +
            "', which gives that tag only " + std::to_string(Block) + " threads");
      return ir::withBody(N, N->Body);
    }
    if (!provablyEqual(N->Extent, Outer->Extent) && !(ir::getConstInt(N->Extent, Inner) &&
                                                      ir::getConstInt(Outer->Extent, Block))) {
      error("cannot prove that loop '" + N->LoopVar->Name + "' bound to " + N->ThreadTag +
            " fits the " + ir::print(Outer->Extent) + " threads of loop '" +
            Outer->LoopVar->Name + "'");
      return ir::withBody(N, N->Body);
    }
    std::map<const ir::VarNode *, Expr> ToOuter = {
        {N->LoopVar.get(), ir::simplify(N->Min + Expr(Outer->LoopVar))}};
    Stmt Body = ir::substitute(N->Body, ToOuter);
    if (!provablyEqual(N->Extent, Outer->Extent))
      Body = ir::makeIf(Expr(Outer->LoopVar) < N->Extent, Body);
    // Threads of the other dimensions it does not use would repeat it: the
    // general rule (runOnceIfRedundant) applies inside.
    return mutate(Body);
  }

  /// The perfect nest of parallel serial loops S distributed over the
  /// threads of the Redundant dims (each has its loop in Loop[] by now);
  /// null when S is not such a nest.
  Stmt distribute(const Stmt &S, unsigned Redundant) {
    std::vector<const ir::ForNode *> Nest;
    Stmt Inner = S;
    for (const ir::ForNode *L = ir::as<ir::ForNode>(S); L; L = ir::as<ir::ForNode>(L->Body)) {
      if (L->LoopKind != ir::ForKind::Serial)
        return nullptr;
      Nest.push_back(L);
      Inner = L->Body;
    }
    if (!isDistributable(ir::as<ir::ForNode>(S)))
      return nullptr;
    // tid over the redundant dims, x fastest; T their product.
    Expr Tid, T;
    for (int D = 2; D >= 0; --D) {
      if (!(Redundant & (1u << D)))
        continue;
      const ir::ForNode *L = Here.Loop[D];
      Tid = Tid ? Tid * L->Extent + Expr(L->LoopVar) : Expr(L->LoopVar);
      T = T ? T * L->Extent : L->Extent;
    }
    Expr Total;
    for (const ir::ForNode *L : Nest)
      Total = Total ? Total * L->Extent : L->Extent;
    Total = ir::simplify(Total);
    T = ir::simplify(T);
    const std::string Prefix = stagePrefix(Nest.front()->LoopVar->Name);
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
    int64_t TotalC, TC;
    if (ir::getConstInt(T, TC) && TC <= 0)
      return nullptr; // a block without threads (a degenerate split): nothing to share
    if (Stmt Chunked = distributeInChunks(Nest, Inner, Total, T, Tid, Prefix))
      return Chunked;
    Stmt Body = ir::substitute(Inner, Coords);
    bool Exact = ir::getConstInt(Total, TotalC) && ir::getConstInt(T, TC) && TotalC % TC == 0;
    if (!Exact)
      Body = ir::makeIf(Expr(F) < Total, Body);
    Body = ir::makeLet(F, ir::simplify(Expr(K) * T + Tid), Body);
    Expr Trips = ir::simplify((Total + T - ir::makeInt(1)) / T);
    return ir::makeFor(K, ir::makeInt(0), Trips, Body);
  }

  /// A copy nest into a tensor-core operand's stage, or a stage filled in a
  /// loop marked pipeline (one store of a load of the same type, every
  /// access contiguous along the innermost loop; an intrinsic reads the
  /// stage - ldmatrix, or the cp.async the pipeline makes of the copy - so no
  /// later pass changes its layout)
  /// distributed V elements at a time:
  /// each thread copies runs of V elements, 16 bytes (else 8, else 4: the
  /// widest) that start on a multiple of V in both buffers, as one vectorized loop (a 16-byte load
  /// and store, cp.async on sm_80; ir::planVectorLoop), over constant
  /// extents, V dividing the innermost:
  ///   for (As.k, 0, ceil(chunks / T)) { let As.f = As.k*T + tid {
  ///     [if (As.f < chunks)] for (As.v, 0, V) vectorized {
  ///       body[ax_last := (f % (e_last/V))*V + v, ax_i := (f / ...) % e_i] } } }
  /// Null where it does not apply (the element-wise distribution then).
  Stmt distributeInChunks(const std::vector<const ir::ForNode *> &Nest, const Stmt &Inner,
                          const Expr &Total, const Expr &T, const Expr &Tid,
                          const std::string &Prefix) {
    const auto *Copy = ir::as<ir::StoreNode>(Inner);
    const auto *Src = Copy ? ir::as<ir::LoadNode>(Copy->Value) : nullptr;
    int64_t TotalC, TC, Last;
    if (!Src || Src->Buf->Type != Copy->Buf->Type ||
        !(TensorOperands.count(Copy->Buf.get()) || InPipelinedLoop) ||
        !ir::getConstInt(Total, TotalC) ||
        !ir::getConstInt(T, TC) || !ir::getConstInt(Nest.back()->Extent, Last))
      return nullptr;
    int64_t Bytes = ir::dtypeBytes(Copy->Buf->Type);
    for (int64_t V = 16 / Bytes; V >= 2 && V * Bytes >= 4; V /= 2) {
      if (Last % V)
        continue;
      ir::Var K = ir::makeVar(Prefix + ".k"), F = ir::makeVar(Prefix + ".f"),
              Lane = ir::makeVar(Prefix + ".v");
      std::map<const ir::VarNode *, Expr> Coords;
      Expr Stride = ir::makeInt(Last / V);
      for (size_t I = Nest.size(); I-- > 0;) {
        const ir::ForNode *L = Nest[I];
        Expr Coord;
        if (I + 1 == Nest.size())
          Coord = (Expr(F) % ir::makeInt(Last / V)) * ir::makeInt(V) + Expr(Lane);
        else {
          Coord = Expr(F) / Stride;
          if (I > 0)
            Coord = Coord % L->Extent;
          Stride = ir::simplify(Stride * L->Extent);
        }
        Coords[L->LoopVar.get()] = ir::simplify(Coord + L->Min);
      }
      Stmt Body = ir::substitute(Inner, Coords);
      // Both accesses: element `Base + v`, Base a multiple of V.
      const auto *St = ir::as<ir::StoreNode>(Body);
      const auto *Ld = ir::as<ir::LoadNode>(St->Value);
      if (!ir::isAlignedRun(St->Buf, St->Indices, Lane.get(), V, Facts) ||
          !ir::isAlignedRun(Ld->Buf, Ld->Indices, Lane.get(), V, Facts))
        continue; // narrower runs may start aligned
      Body = ir::makeFor(Lane, ir::makeInt(0), ir::makeInt(V), Body, ir::ForKind::Vectorized);
      int64_t Chunks = TotalC / V;
      if (Chunks % TC)
        Body = ir::makeIf(Expr(F) < ir::makeInt(Chunks), Body);
      Body = ir::makeLet(F, ir::simplify(Expr(K) * T + Tid), Body);
      return ir::makeFor(K, ir::makeInt(0), ir::makeInt((Chunks + TC - 1) / TC), Body);
    }
    return nullptr;
  }

  /// Sinks one thread-divergent guard below the cache stages inside it, and
  /// below the fills of the local buffers those stages read (a local stage
  /// `Al` feeding a shared stage's copy `As[..] = Al[..]`: the copy reads Al
  /// in every thread, so every thread must fill it).
  class GuardSinker {
  public:
    GuardSinker(Distributor &D, Expr Cond) : D(D), Cond(std::move(Cond)) {}

    /// Body with Cond pushed down around everything but the stages and the
    /// fills they read; null when there is no stage to sink below, or when a
    /// local buffer a stage reads is also written by code that stays under
    /// Cond (threads where Cond is false would hand the stage what they
    /// never wrote).
    Stmt sinkFrom(const Stmt &Body) {
      // First walk: the stages, the candidate fills, the buffers written
      // under Cond (the output is dropped). Both walks see the same
      // statements in the same context.
      Planning = true;
      bool HasUnit;
      sink(Body, HasUnit);
      Planning = false;
      if (!SawStage || !chooseFills())
        return nullptr;
      return sink(Body, HasUnit);
    }

  private:
    Distributor &D;
    Expr Cond;
    std::set<const ir::BufferNode *> AllocatedInside;
    bool Planning = false, SawStage = false;

    /// What the first walk saw of a stage or candidate fill.
    struct Unit {
      bool IsStage;
      std::set<const ir::BufferNode *> ReadsLocal, Writes;
    };
    std::vector<Unit> Units;
    std::set<const ir::BufferNode *> WrittenUnderCond; // by statements left under Cond
    std::set<const ir::BufferNode *> Needed; // local buffers the units kept read

    /// Needed: the local buffers the stages read, and those the fills of
    /// needed buffers read, to a fixed point. False when one of them is
    /// also written under Cond.
    bool chooseFills() {
      std::vector<bool> Kept(Units.size());
      bool Changed = true;
      while (Changed) {
        Changed = false;
        for (size_t I = 0; I < Units.size(); ++I) {
          if (Kept[I] || !(Units[I].IsStage || writesNeeded(Units[I].Writes)))
            continue;
          Kept[I] = Changed = true;
          Needed.insert(Units[I].ReadsLocal.begin(), Units[I].ReadsLocal.end());
        }
      }
      for (const ir::BufferNode *B : Needed)
        if (WrittenUnderCond.count(B))
          return false;
      return true;
    }

    bool writesNeeded(const std::set<const ir::BufferNode *> &Writes) const {
      for (const ir::BufferNode *B : Writes)
        if (Needed.count(B))
          return true;
      return false;
    }

    /// Whether S, a stage or a fill, runs on every thread: every stage, and
    /// the fills of needed buffers (in the first walk: every candidate, so
    /// that the walk enters what holds them).
    bool keep(const Stmt &S) {
      Role R = roleOf(S);
      if (R == Role::None)
        return false;
      if (!Planning)
        return R == Role::Stage || writesNeeded(written(S));
      Unit U{R == Role::Stage, {}, written(S)};
      for (const ir::Access &A : ir::collectAccesses(S))
        if (!A.IsWrite && A.Buf->MemScope == ir::Scope::Local)
          U.ReadsLocal.insert(A.Buf.get());
      SawStage |= U.IsStage;
      Units.push_back(std::move(U));
      return true;
    }

    static std::set<const ir::BufferNode *> written(const Stmt &S) {
      std::set<const ir::BufferNode *> Out;
      for (const ir::Access &A : ir::collectAccesses(S))
        if (A.IsWrite)
          Out.insert(A.Buf.get());
      return Out;
    }

    /// S left under Cond as a whole.
    Stmt guarded(const Stmt &S) {
      if (Planning)
        for (const ir::BufferNode *B : written(S))
          WrittenUnderCond.insert(B);
      return guardWith(Cond, S);
    }

    /// S with Cond sunk into it; HasUnit says whether S holds a statement
    /// kept unguarded (otherwise S comes back guarded as a whole).
    Stmt sink(const Stmt &S, bool &HasUnit) {
      HasUnit = false;
      if (keep(S)) {
        HasUnit = true;
        return S;
      }
      if (const auto *Seq = ir::as<ir::SeqNode>(S)) {
        // Runs of children without a unit share one guard.
        std::vector<Stmt> Out, Guarded;
        auto Flush = [&] {
          if (!Guarded.empty())
            Out.push_back(guarded(ir::makeSeq(Guarded)));
          Guarded.clear();
        };
        for (const Stmt &Child : Seq->Stmts) {
          bool ChildHasUnit;
          Stmt New = sink(Child, ChildHasUnit);
          if (!ChildHasUnit) {
            Guarded.push_back(Child);
            continue;
          }
          Flush();
          Out.push_back(New);
          HasUnit = true;
        }
        Flush();
        return ir::makeSeq(Out);
      }
      if (const auto *A = ir::as<ir::AllocateNode>(S)) {
        AllocatedInside.insert(A->Buf.get());
        Stmt Body = sink(A->Body, HasUnit);
        AllocatedInside.erase(A->Buf.get());
        return HasUnit ? ir::makeAllocate(A->Buf, Body) : guarded(S);
      }
      if (const auto *F = ir::as<ir::ForNode>(S)) {
        // Loops with uniform bounds only: all threads run them alike. A
        // loop naming enclosing threads again is the Distributor's own.
        bool Uniform = !D.Dependence.of(F->Min) && !D.Dependence.of(F->Extent);
        bool Serial = F->LoopKind != ir::ForKind::ThreadBound;
        bool NewThreads =
            isThreadIdxLoop(F) && !D.Here.Loop[ir::threadTagDim(F->ThreadTag)];
        if (!Uniform || (!Serial && !NewThreads))
          return guarded(S);
        Stmt Body;
        if (NewThreads) {
          Body = D.inThreadLoop(F, [&] { return sink(F->Body, HasUnit); });
        } else {
          LoopVariable Var(D, F);
          Body = sink(F->Body, HasUnit);
        }
        if (!HasUnit)
          return guarded(S);
        return ir::withBody(F, Body);
      }
      if (const auto *L = ir::as<ir::LetStmtNode>(S)) {
        if (ir::dependsOnMemory(L->Value))
          return guarded(S);
        D.Dependence.enter(L);
        Stmt Body = sink(L->Body, HasUnit);
        D.Dependence.leave(L->LetVar.get());
        return HasUnit ? ir::makeLet(L->LetVar, L->Value, Body) : guarded(S);
      }
      if (const auto *I = ir::as<ir::IfThenElseNode>(S)) {
        if (ir::dependsOnMemory(I->Cond))
          return guarded(S);
        bool ThenHasUnit, ElseHasUnit = false;
        Stmt Then = sink(I->Then, ThenHasUnit);
        Stmt Else = I->Else ? sink(I->Else, ElseHasUnit) : nullptr;
        HasUnit = ThenHasUnit || ElseHasUnit;
        if (!HasUnit)
          return guarded(S);
        return ir::makeIf(I->Cond, Then, Else);
      }
      return guarded(S);
    }

    /// A cache stage the block's threads fill together (Stage): writes only
    /// shared buffers allocated inside the guard, depends on no thread, holds
    /// no thread loop or barrier, and stays in bounds without the guard. A
    /// fill of a thread's scratch (Fill): the same, with local buffers for
    /// shared ones.
    enum class Role { None, Stage, Fill };
    Role roleOf(const Stmt &S) {
      if (!ir::as<ir::ForNode>(S) && !ir::as<ir::StoreNode>(S))
        return Role::None;
      StmtFacts Facts = factsOf(S);
      if ((Facts.LaunchLoop && !D.onlyEnclosingThreadLoops(S)) || Facts.Barrier ||
          D.Dependence.of(S))
        return Role::None;
      std::set<ir::Scope> Scopes;
      std::vector<ir::Access> Accesses = ir::collectAccesses(S);
      for (const ir::Access &A : Accesses)
        if (A.IsWrite) {
          if (!AllocatedInside.count(A.Buf.get()))
            return Role::None;
          Scopes.insert(A.Buf->MemScope);
        }
      if (Scopes.size() != 1 ||
          (*Scopes.begin() != ir::Scope::Shared && *Scopes.begin() != ir::Scope::Local))
        return Role::None;
      std::set<std::pair<const ir::BufferNode *, bool>> Checked;
      for (const ir::Access &A : Accesses)
        if (Checked.insert({A.Buf.get(), A.IsWrite}).second && !inBounds(S, A.Buf, !A.IsWrite))
          return Role::None;
      return *Scopes.begin() == ir::Scope::Shared ? Role::Stage : Role::Fill;
    }

    /// Every element of Buf that S reads (or writes) lies inside Buf, with
    /// the enclosing loops ranging over their extents and S's own guards.
    bool inBounds(const Stmt &S, const ir::Buffer &Buf, bool Reads) {
      ir::Region R;
      if (!ir::regionTouched(S, Buf, Reads, D.Ranges, R, ir::GuardUse::Tighten) ||
          R.size() != Buf->Shape.size())
        return false;
      for (size_t Dim = 0; Dim < R.size(); ++Dim) {
        if (!R[Dim].isBounded())
          return false;
        if (!provablyLessOrEqual(ir::makeInt(0), R[Dim].Min) ||
            !provablyLessOrEqual(R[Dim].Max, Buf->Shape[Dim] - ir::makeInt(1)))
          return false;
      }
      return true;
    }
  };
};

} // namespace

ir::LoopNest distributeOverThreads(const ir::LoopNest &Nest, const KernelContext &Ctx,
                                   std::vector<Diag> &Diags) {
  Distributor D(Ctx, Diags);
  for (const ir::LoopPragma &P : Nest.Pragmas)
    if (P.Loop && ir::pipelineStages(P))
      D.PipelinedLoops.insert(P.Loop.get());
  ir::LoopNest Out = Nest;
  Out.Body = D.mutate(Nest.Body);
  return Out;
}

const Pass DistributeOverThreadsPass = {
    "DistributeOverThreads", /*Requires=*/FormLaunchLoopsWidened, /*Establishes=*/FormDistributed,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      const KernelContext *Ctx = S.launchContext();
      if (!Ctx)
        return false;
      S.Nest = distributeOverThreads(S.Nest, *Ctx, S.Diags);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
