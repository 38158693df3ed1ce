//===- InjectThreadSync.cpp - The barriers the block's dependences need ---===//
//
// Inserts `eval sched.syncthreads()` wherever two threads of a block may
// touch the same element of a buffer they share, one of them writing (RAW,
// WAR, WAW), with no barrier between them: between the statements of a
// sequence, and across the iterations of a loop (the accesses after the
// body's last barrier against those before its first one, in the next
// iteration: a stage refilled at each `ko` gets a barrier after the fill and
// one at the end of the body; where the body always passes a barrier, only
// the next iteration's, so a stage double-buffered over `ko` gets the one
// after the fill). The threads of a block share shared memory
// and global memory (__syncthreads orders both within the block): a global
// array filled by one thread distribution and read by another gets its
// barrier as a shared stage does.
//
// Plan, then rewrite (TVM's thread_storage_sync): SyncPlanner summarizes each
// statement bottom-up by whether every execution passes a barrier, the
// accesses that may run before its first barrier (Head) and those after its
// last one (Tail), and records in a SyncPlan where barriers go; SyncInserter,
// a thin mutator, puts them there. A sequence keeps the accesses pending since
// the last barrier and plans one right before the first child whose Head
// conflicts with them: placing barriers as late as possible is the greedy that
// needs the fewest, and a barrier already there (written, or planned for an
// earlier pair) satisfies every later pair, so none is duplicated. An `if` is
// a barrier only when both arms are (an if without else never is); a loop
// that may run zero times (a symbolic trip count) is not one, and passes the
// accesses pending before it through. Whether two accesses conflict across
// threads is ir::mayConflictAcrossThreads, the one dependence analysis: no barrier
// where each element is produced and consumed by the same thread.
//
// A barrier is never put under thread-divergent control flow (an if or a loop
// bound that depends on the thread, including the `if (tx < 32)` guards
// WidenThreadLoops adds): such a statement is treated as a whole by the
// enclosing sequence, so its barriers land at the nearest uniform point.
// Where a dependence needs a barrier inside a divergent `if` (no else, a
// condition that reads no memory: a tile guard `if (io*8 + ii < M)` around a
// producer and its consumer), the guard is sunk one level at a time (into
// each statement of a sequence, into a loop, a let or an allocation) until
// the barrier stands at a uniform point between two guarded statements:
// every thread reaches it, and each runs the same statements as before (the
// condition's value cannot change in between). Planning then starts over.
// A dependence that only a barrier under a guard that cannot be sunk (a loop
// bound or a condition that depends on the thread and on memory) could
// satisfy is an error naming the buffer. So are the hand-offs no barrier can
// order: between blocks on a global buffer (blocks cannot be synchronized
// within a kernel; ir::mayConflictAcrossBlocks), and between threads on a
// local buffer (each thread has its own copy; PromoteToShared has made the
// nest's arrays that threads exchange values through shared, so this is a
// backstop).
//
// Runs after Simplify (indices are canonical, which the affine dependence
// test wants) and before StorageFlatten: a cooperative fetch writes its stage
// at [f / C, f % C], a pair the access analysis recognizes and turns back
// into f; once flattened with a padded row (storage_align) that becomes
// (f / C)*S + f % C, which it cannot see through, and the fetch loop would
// get a barrier per iteration it does not need. Thread loops run over their
// launch extents (DistributeOverThreads), read from the KernelContext.
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/Dependence.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Printer.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <algorithm>
#include <map>
#include <set>

namespace sched {
namespace passes {

namespace {

using ir::Access;

/// Whether the threads of a block share B (local memory is per thread).
bool sharedByThreads(const ir::BufferNode *B) {
  // A tensor-core fragment belongs to one warp, whose collectives are ordered.
  return B->MemScope == ir::Scope::Global || B->MemScope == ir::Scope::Shared;
}

/// What the enclosing sequence needs to know about a statement.
struct Summary {
  bool HasBarrier = false;  // every execution, on every thread, passes a barrier
  std::vector<Access> Head; // may run before its first barrier
  std::vector<Access> Tail; // may run after its last barrier
};

void append(std::vector<Access> &To, const std::vector<Access> &From) {
  To.insert(To.end(), From.begin(), From.end());
}

/// Where the barriers go.
struct SyncPlan {
  std::set<const ir::StmtNode *> Before;    // a barrier right before the statement
  std::set<const ir::ForNode *> AtBodyEnd;  // a barrier at the end of the loop's body
};

/// Whether `if (Cond) Body` may become Body with Cond sunk one level into it
/// (sinkGuard) without changing which statements run or what they read:
/// Cond reads no memory (so its value is the same wherever it is evaluated),
/// and the construct it moves into evaluates nothing that Cond protects.
bool guardSinks(const ir::Expr &Cond, const ir::Stmt &Body) {
  if (ir::dependsOnMemory(Cond))
    return false;
  if (ir::as<ir::SeqNode>(Body) || ir::as<ir::AllocateNode>(Body))
    return true;
  if (const auto *F = ir::as<ir::ForNode>(Body))
    return !ir::dependsOnMemory(F->Min) && !ir::dependsOnMemory(F->Extent);
  if (const auto *L = ir::as<ir::LetStmtNode>(Body))
    return !ir::dependsOnMemory(L->Value);
  if (const auto *I = ir::as<ir::IfThenElseNode>(Body))
    return !I->Else && !ir::dependsOnMemory(I->Cond);
  return false;
}

/// Body with `if (Cond)` sunk one level into it (guardSinks(Cond, Body)).
ir::Stmt sinkGuard(const ir::Expr &Cond, const ir::Stmt &Body) {
  if (const auto *Seq = ir::as<ir::SeqNode>(Body)) {
    std::vector<ir::Stmt> Guarded;
    for (const ir::Stmt &Child : Seq->Stmts)
      Guarded.push_back(guardWith(Cond, Child));
    return ir::makeSeq(Guarded);
  }
  if (const auto *A = ir::as<ir::AllocateNode>(Body))
    return ir::makeAllocate(A->Buf, guardWith(Cond, A->Body));
  if (const auto *F = ir::as<ir::ForNode>(Body))
    return ir::withBody(F, guardWith(Cond, F->Body));
  if (const auto *L = ir::as<ir::LetStmtNode>(Body))
    return ir::makeLet(L->LetVar, L->Value, guardWith(Cond, L->Body));
  return guardWith(Cond, Body); // an if: one condition
}

/// Plans the barriers: one walk, summarizing each statement (Result).
class SyncPlanner : public ir::IRVisitor {
public:
  SyncPlanner(const KernelContext &Ctx, std::vector<Diag> &Diags)
      : Extent(Ctx.blockExtents()), Diags(Diags) {}

  SyncPlan Plan;
  /// Divergent guards to sink before planning again: set when a barrier is
  /// needed under them (the plan is then incomplete and no error is given).
  std::set<const ir::IfThenElseNode *> Sink;

  /// S's summary (and S's barriers planned).
  Summary summarize(const ir::Stmt &S) {
    Result = Summary();
    Current = S;
    visit(S);
    return std::move(Result);
  }

protected:
  void visitSeq(const ir::SeqNode *N) override {
    Summary Out;
    std::vector<Access> Pending;
    bool SeenBarrier = false;
    for (const ir::Stmt &Child : N->Stmts) {
      Summary CS = summarize(Child);
      if (const ir::BufferNode *Buf = conflict(Pending, CS.Head))
        if (canPlaceBarrier(Buf)) {
          Plan.Before.insert(Child.get());
          Pending.clear();
          SeenBarrier = true;
        }
      if (!SeenBarrier)
        append(Out.Head, CS.Head);
      if (CS.HasBarrier) {
        SeenBarrier = true;
        Pending = CS.Tail;
      } else {
        append(Pending, CS.Tail);
      }
    }
    Out.HasBarrier = SeenBarrier;
    Out.Tail = Pending;
    Result = std::move(Out);
  }

  void visitFor(const ir::ForNode *N) override {
    const bool Launch = N->LoopKind == ir::ForKind::ThreadBound; // one iteration per thread/block
    int64_t Trips = -1;
    ir::getConstInt(N->Extent, Trips);
    std::vector<Access> Header = accessesOf(ir::makeEvaluate(N->Extent));
    append(Header, accessesOf(ir::makeEvaluate(N->Min)));
    unsigned Mask = Dependence.enter(N);
    bool DivergentBounds = !isThreadIdxLoop(N) && Mask != 0;
    if (DivergentBounds)
      Divergent.push_back({"loop '" + N->LoopVar->Name + "' with bounds that depend on the thread",
                           nullptr});
    Loops.push_back(N);
    Summary Body = summarize(N->Body);
    Loops.pop_back();
    // The iterations of a serial loop follow one another in each thread:
    // the accesses after the body's last barrier meet those before its
    // first one in the next iteration. Where every iteration passes a
    // barrier, the next iteration is the only one they meet (a stage
    // double-buffered over this loop: the next fill writes the other copy).
    if (!Launch && Trips != 0 && Trips != 1)
      if (const ir::BufferNode *Buf =
              conflict(Body.Tail, Body.Head, ir::NextIteration{Body.HasBarrier ? N : nullptr}))
        if (canPlaceBarrier(Buf)) {
          Plan.AtBodyEnd.insert(N);
          Body.HasBarrier = true;
          Body.Tail.clear();
        }
    // The bounds are read once, before the first iteration.
    if (const ir::BufferNode *Buf = conflict(Header, Body.Head))
      if (canPlaceBarrier(Buf))
        Plan.Before.insert(N->Body.get());
    if (DivergentBounds)
      Divergent.pop_back();
    Dependence.leave(N->LoopVar.get());
    // A loop that may run zero times is no barrier, and what was pending
    // before it stays pending after it (the sequence keeps it).
    bool AlwaysRuns = Launch || Trips >= 1;
    Result.HasBarrier = Body.HasBarrier && AlwaysRuns;
    Result.Head = Header;
    append(Result.Head, Body.Head);
    Result.Tail = Body.Tail;
    if (!Result.HasBarrier)
      append(Result.Tail, Header);
  }

  void visitIfThenElse(const ir::IfThenElseNode *N) override {
    std::vector<Access> Header = accessesOf(ir::makeEvaluate(N->Cond));
    ir::Expr Cond = ir::substitute(N->Cond, Lets);
    bool IsDivergent = Dependence.of(N->Cond) != 0;
    if (IsDivergent)
      Divergent.push_back({"if " + ir::print(N->Cond),
                           !N->Else && guardSinks(N->Cond, N->Then) ? N : nullptr});
    Guards.push_back(Cond);
    Summary Then = summarize(N->Then);
    Guards.back() = ir::makeUnary(ir::UnOp::Not, Cond);
    Summary Else = N->Else ? summarize(N->Else) : Summary();
    Guards.pop_back();
    // The condition is read before either arm.
    for (const ir::Stmt &Arm : {N->Then, N->Else})
      if (Arm)
        if (const ir::BufferNode *Buf =
                conflict(Header, Arm == N->Then ? Then.Head : Else.Head))
          if (canPlaceBarrier(Buf))
            Plan.Before.insert(Arm.get());
    if (IsDivergent)
      Divergent.pop_back();
    // A barrier only when both arms are one: an if without else never is.
    Result.HasBarrier = N->Else && Then.HasBarrier && Else.HasBarrier;
    Result.Head = Header;
    append(Result.Head, Then.Head);
    append(Result.Head, Else.Head);
    Result.Tail = Then.Tail;
    append(Result.Tail, Else.Tail);
    if (!Result.HasBarrier)
      append(Result.Tail, Header);
  }

  void visitLetStmt(const ir::LetStmtNode *N) override {
    std::vector<Access> Header = accessesOf(ir::makeEvaluate(N->Value));
    Dependence.enter(N);
    Lets[N->LetVar.get()] = ir::substitute(N->Value, Lets);
    Summary Body = summarize(N->Body);
    Lets.erase(N->LetVar.get());
    Dependence.leave(N->LetVar.get());
    if (const ir::BufferNode *Buf = conflict(Header, Body.Head))
      if (canPlaceBarrier(Buf))
        Plan.Before.insert(N->Body.get());
    Result = std::move(Body);
    Result.Head.insert(Result.Head.begin(), Header.begin(), Header.end());
    if (!Result.HasBarrier)
      append(Result.Tail, Header);
  }

  void visitAllocate(const ir::AllocateNode *N) override { Result = summarize(N->Body); }

  void visitStore(const ir::StoreNode *) override { leaf(); }

  void visitEvaluate(const ir::EvaluateNode *N) override {
    if (isBarrierCall(N->Value)) {
      Result.HasBarrier = true;
      return;
    }
    leaf();
  }

private:
  std::map<std::string, int64_t> Extent;
  std::vector<Diag> &Diags;
  std::vector<const ir::ForNode *> Loops;
  std::vector<ir::Expr> Guards;
  std::map<const ir::VarNode *, ir::Expr> Lets;
  ThreadDependence Dependence;
  /// A divergent construct we are inside, and the if itself where its
  /// guard could be sunk (guardSinks).
  struct DivergentScope {
    std::string What;
    const ir::IfThenElseNode *Sinkable;
  };
  std::vector<DivergentScope> Divergent;
  std::set<std::string> Reported;
  Summary Result;
  ir::Stmt Current; // the statement summarize() is visiting

  void leaf() { Result.Head = Result.Tail = accessesOf(Current); }

  /// The accesses of S to buffers the block's threads share, in the
  /// kernel's full context (enclosing loops and guards, lets inlined).
  std::vector<Access> accessesOf(const ir::Stmt &S) {
    std::vector<Access> Out;
    for (Access &A : ir::collectAccesses(ir::substitute(S, Lets))) {
      if (!sharedByThreads(A.Buf.get()))
        continue;
      A.Loops.insert(A.Loops.begin(), Loops.begin(), Loops.end());
      A.Guards.insert(A.Guards.begin(), Guards.begin(), Guards.end());
      Out.push_back(std::move(A));
    }
    return Out;
  }

  /// The buffer of a pair in Before x After that two threads may touch in
  /// either order, one writing, or null.
  const ir::BufferNode *conflict(const std::vector<Access> &Before,
                                 const std::vector<Access> &After,
                                 const ir::NextIteration &Carried = {}) const {
    for (const Access &A : Before)
      for (const Access &B : After)
        if (A.Buf.get() == B.Buf.get() && (A.IsWrite || B.IsWrite) &&
            ir::mayConflictAcrossThreads(A, B, Extent, Carried))
          return A.Buf.get();
    return nullptr;
  }

  /// A barrier is needed for Buf here; false (with an error) when here is
  /// thread-divergent.
  bool canPlaceBarrier(const ir::BufferNode *Buf) {
    if (Divergent.empty())
      return true;
    // Every divergent scope here an if whose guard sinks: sink the outermost
    // (the next plan sees the one inside it, or the barrier's uniform place).
    if (std::all_of(Divergent.begin(), Divergent.end(),
                    [](const DivergentScope &D) { return D.Sinkable != nullptr; })) {
      Sink.insert(Divergent.front().Sinkable);
      return false;
    }
    if (Reported.insert(Buf->Name).second) {
      Diag D;
      D.Message = std::string(Buf->MemScope == ir::Scope::Shared ? "shared" : "global") +
                  " buffer '" + Buf->Name +
                  "' needs a barrier between accesses by different threads, but they are "
                  "under thread-divergent control flow (" +
                  Divergent.back().What +
                  ") where not every thread would reach it; make the condition uniform "
                  "or move the accesses out of it";
      Diags.push_back(D);
    }
    return false;
  }
};

/// Puts the planned barriers in place.
class SyncInserter : public ir::IRMutator {
public:
  explicit SyncInserter(const SyncPlan &Plan) : Plan(Plan) {}

protected:
  ir::Stmt mutateFor(const ir::Stmt &S, const ir::ForNode *N) override {
    ir::Stmt Body = mutate(N->Body);
    if (Plan.AtBodyEnd.count(N))
      Body = ir::makeSeq({Body, makeBarrier()});
    ir::Stmt Out = Body == N->Body ? S
                                   : ir::withBody(N, Body);
    return placed(S, Out);
  }
  ir::Stmt mutateStore(const ir::Stmt &S, const ir::StoreNode *N) override {
    return placed(S, ir::IRMutator::mutateStore(S, N));
  }
  ir::Stmt mutateAllocate(const ir::Stmt &S, const ir::AllocateNode *N) override {
    return placed(S, ir::IRMutator::mutateAllocate(S, N));
  }
  ir::Stmt mutateSeq(const ir::Stmt &S, const ir::SeqNode *N) override {
    return placed(S, ir::IRMutator::mutateSeq(S, N));
  }
  ir::Stmt mutateIfThenElse(const ir::Stmt &S, const ir::IfThenElseNode *N) override {
    return placed(S, ir::IRMutator::mutateIfThenElse(S, N));
  }
  ir::Stmt mutateLetStmt(const ir::Stmt &S, const ir::LetStmtNode *N) override {
    return placed(S, ir::IRMutator::mutateLetStmt(S, N));
  }
  ir::Stmt mutateEvaluate(const ir::Stmt &S, const ir::EvaluateNode *N) override {
    return placed(S, ir::IRMutator::mutateEvaluate(S, N));
  }

private:
  const SyncPlan &Plan;

  /// Out (the rewritten S), behind a barrier when one is planned before S.
  ir::Stmt placed(const ir::Stmt &S, const ir::Stmt &Out) const {
    return Plan.Before.count(S.get()) ? ir::makeSeq({makeBarrier(), Out}) : Out;
  }
};

/// Sinks the guards the planner chose one level (sinkGuard).
class DivergentGuardSinker : public ir::IRMutator {
public:
  explicit DivergentGuardSinker(const std::set<const ir::IfThenElseNode *> &Sink) : Sink(Sink) {}

protected:
  ir::Stmt mutateIfThenElse(const ir::Stmt &S, const ir::IfThenElseNode *N) override {
    ir::Stmt Out = ir::IRMutator::mutateIfThenElse(S, N);
    if (!Sink.count(N))
      return Out;
    const auto *I = ir::as<ir::IfThenElseNode>(Out);
    return sinkGuard(I->Cond, I->Then);
  }

private:
  const std::set<const ir::IfThenElseNode *> &Sink;
};

/// The hand-offs no barrier can order, reported as errors naming the
/// buffer: an element of a global buffer one block writes and another block
/// touches, and a value of a local buffer written by one thread and read by
/// another (each has its own copy; PromoteToShared made every such buffer
/// of the nest shared or refused it, so this only catches one that thread
/// distribution made).
void checkUnorderableHandOffs(const ir::LoopNest &Nest, const KernelContext &Ctx,
                              std::vector<Diag> &Diags) {
  auto Report = [&](const std::string &Message) {
    Diag D;
    D.Message = Message;
    Diags.push_back(D);
  };
  std::vector<Access> Accesses = ir::collectAccesses(ir::inlineLets(Nest.Body));
  const std::map<std::string, int64_t> Grid = Ctx.gridExtents();
  // A scratch buffer (Param::Scratch) is touched only by the combine across
  // blocks that LowerThreadReductions wrote, whose ticket orders each
  // block's writes before the last block's reads (the simulator's race
  // detector checks that order); no analysis of indices could see it.
  std::set<const ir::BufferNode *> Reported;
  for (const ir::Param &P : Nest.Params)
    if (P.Scratch)
      Reported.insert(P.Buf.get());
  for (size_t I = 0; I < Accesses.size(); ++I)
    for (size_t J = I; J < Accesses.size(); ++J) {
      const Access &A = Accesses[I], &B = Accesses[J];
      const ir::BufferNode *Buf = A.Buf.get();
      if (Buf != B.Buf.get() || Buf->MemScope != ir::Scope::Global ||
          (!A.IsWrite && !B.IsWrite) || Reported.count(Buf))
        continue;
      if (ir::mayConflictAcrossBlocks(A, B, Grid)) {
        Reported.insert(Buf);
        Report("global buffer '" + Buf->Name +
               "' is written by one block and accessed by another in the same kernel "
               "(the schedule hands its values over between blocks), and blocks cannot "
               "be synchronized");
      }
    }
  for (const LocalHandOff &H : localHandOffs(Nest.Body, Ctx.blockExtents()))
    Report("local buffer '" + H.Write.Buf->Name +
           "' is written by one thread and read by another, but each thread has its own "
           "copy: the schedule gives threads private copies of values they share (" +
           ir::describeAccess(H.Write) + ", then " + ir::describeAccess(H.Read) + ")");
}

} // namespace

ir::LoopNest injectThreadSync(const ir::LoopNest &Nest, const KernelContext &Ctx,
                              std::vector<Diag> &Diags) {
  ir::LoopNest Out = Nest;
  // The plan is keyed by statement: each must stand in one place only.
  Out.Body = unshareStatements(Nest.Body);
  checkUnorderableHandOffs(Nest, Ctx, Diags);
  // Each round sinks at least one guard one level, so the rounds are
  // bounded by the nest's depth; the bound below only guards against a bug.
  for (int Round = 0;; ++Round) {
    std::vector<Diag> PlanDiags;
    SyncPlanner Planner(Ctx, PlanDiags);
    Planner.summarize(Out.Body);
    if (Planner.Sink.empty() || Round == 64) {
      Diags.insert(Diags.end(), PlanDiags.begin(), PlanDiags.end());
      if (!Planner.Sink.empty()) {
        Diag D;
        D.Message = "cannot place the barriers the block's dependences need: guards kept "
                    "moving without reaching a uniform point";
        Diags.push_back(D);
      }
      Out.Body = SyncInserter(Planner.Plan).mutate(Out.Body);
      return Out;
    }
    Out.Body = DivergentGuardSinker(Planner.Sink).mutate(Out.Body);
  }
}

const Pass InjectThreadSyncPass = {
    "InjectThreadSync", /*Requires=*/FormDistributed, /*Establishes=*/FormSynchronized,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      const KernelContext *Ctx = S.launchContext();
      if (!Ctx)
        return false;
      S.Nest = injectThreadSync(S.Nest, *Ctx, S.Diags);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
