//===- InjectThreadSync.cpp - Barriers the shared-memory dependences need -===//
//
// Inserts `eval sched.syncthreads()` wherever two threads of a block may
// touch the same shared element, one of them writing (RAW, WAR, WAW), with no
// barrier between them: between the statements of a sequence, and across the
// iterations of a loop (the accesses after the body's last barrier against
// those before its first one, in the next iteration: a stage refilled at each
// `ko` gets a barrier after the fill and one at the end of the body).
//
// Each statement is summarized bottom-up by whether it always executes a
// barrier, the accesses that may run before its first barrier (Head) and
// those after its last one (Tail). A sequence keeps the accesses pending since
// the last barrier and inserts one right before the first child whose Head
// conflicts with them: placing barriers as late as possible is the greedy that
// needs the fewest, and a barrier already there (written, or inserted for an
// earlier pair) satisfies every later pair, so none is duplicated. Whether two
// accesses conflict across threads is ir::mayConflictAcrossThreads, the one
// access analysis: no barrier where each element is produced and consumed by
// the same thread.
//
// A barrier is never put under thread-divergent control flow (an if or a loop
// bound that depends on the thread, including the `if (tx < 32)` guards
// VerifyThreadBindings adds): such a statement is treated as a whole by the
// enclosing sequence, so its barriers land at the nearest uniform point; a
// dependence that only a barrier inside it could satisfy is an error naming
// the buffer.
//
// Runs after Simplify (indices are canonical, which the affine dependence
// test wants) and before StorageFlatten: a cooperative fetch writes its stage
// at [f / C, f % C], a pair the access analysis recognizes and turns back
// into f; once flattened with a padded row (storage_align) that becomes
// (f / C)*S + f % C, which it cannot see through, and the fetch loop would
// get a barrier per iteration it does not need.
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/Dependence.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Intrinsics.h"
#include "ir/Printer.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <map>
#include <set>

namespace sched {
namespace passes {

namespace {

using ir::Access;

ir::Stmt makeBarrier() {
  return ir::makeEvaluate(ir::makeCall("sched.syncthreads", {}, ir::DType::Int32));
}

bool isBarrier(const ir::EvaluateNode *N) {
  const auto *C = ir::as<ir::CallNode>(N->Value);
  if (!C)
    return false;
  const ir::IntrinsicInfo *Info = ir::lookupIntrinsic(C->Name);
  return Info && Info->IsBarrier;
}

bool isThreadIdx(const ir::ForNode *N) {
  return N->LoopKind == ir::ForKind::ThreadBound && ir::isThreadIdxTag(N->ThreadTag);
}

/// The launch extent of each threadIdx tag (-1 when not a constant).
class BlockExtents : public ir::IRVisitor {
public:
  std::map<std::string, int64_t> Extent;

protected:
  void visitFor(const ir::ForNode *N) override {
    if (isThreadIdx(N)) {
      int64_t E;
      int64_t Value = ir::getConstInt(N->Extent, E) ? E : -1;
      auto It = Extent.emplace(N->ThreadTag, Value).first;
      if (It->second != Value)
        It->second = std::max(It->second, Value);
    }
    ir::IRVisitor::visitFor(N);
  }
};

/// What the enclosing sequence needs to know about a statement.
struct Summary {
  bool HasBarrier = false;  // every execution passes a barrier
  std::vector<Access> Head; // may run before its first barrier
  std::vector<Access> Tail; // may run after its last barrier
};

void append(std::vector<Access> &To, const std::vector<Access> &From) {
  To.insert(To.end(), From.begin(), From.end());
}

class SyncInjector {
public:
  SyncInjector(std::map<std::string, int64_t> Extent, std::vector<Diag> &Diags)
      : Extent(std::move(Extent)), Diags(Diags) {}

  ir::Stmt visit(const ir::Stmt &S, Summary &Out) {
    switch (S->Kind) {
    case ir::StmtKind::Seq:
      return visitSeq(ir::as<ir::SeqNode>(S), Out);
    case ir::StmtKind::For:
      return visitFor(S, ir::as<ir::ForNode>(S), Out);
    case ir::StmtKind::IfThenElse:
      return visitIf(S, ir::as<ir::IfThenElseNode>(S), Out);
    case ir::StmtKind::LetStmt:
      return visitLet(S, ir::as<ir::LetStmtNode>(S), Out);
    case ir::StmtKind::Allocate: {
      const auto *N = ir::as<ir::AllocateNode>(S);
      ir::Stmt Body = visit(N->Body, Out);
      return Body == N->Body ? S : ir::makeAllocate(N->Buf, Body);
    }
    case ir::StmtKind::Evaluate:
      if (isBarrier(ir::as<ir::EvaluateNode>(S))) {
        Out.HasBarrier = true;
        return S;
      }
      [[fallthrough]];
    case ir::StmtKind::Store:
      Out.Head = Out.Tail = sharedAccesses(S);
      return S;
    }
    return S;
  }

private:
  std::map<std::string, int64_t> Extent;
  std::vector<Diag> &Diags;
  std::vector<const ir::ForNode *> Loops;
  std::vector<ir::Expr> Guards;
  std::map<const ir::VarNode *, ir::Expr> Lets;
  std::set<const ir::VarNode *> ThreadDependent;
  std::vector<std::string> Divergent; // the divergent constructs we are inside
  std::set<std::string> Reported;

  /// The shared accesses of a leaf, in the kernel's full context.
  std::vector<Access> sharedAccesses(const ir::Stmt &Leaf) {
    std::vector<Access> Result;
    for (Access &A : ir::collectAccesses(ir::substitute(Leaf, Lets))) {
      if (A.Buf->MemScope != ir::Scope::Shared)
        continue;
      A.Loops.insert(A.Loops.begin(), Loops.begin(), Loops.end());
      A.Guards.insert(A.Guards.begin(), Guards.begin(), Guards.end());
      Result.push_back(std::move(A));
    }
    return Result;
  }

  /// The buffer of a pair in Before x After that two threads may touch in
  /// either order, or null.
  const ir::BufferNode *conflict(const std::vector<Access> &Before,
                                 const std::vector<Access> &After) const {
    for (const Access &A : Before)
      for (const Access &B : After)
        if (ir::mayConflictAcrossThreads(A, B, Extent))
          return A.Buf.get();
    return nullptr;
  }

  bool dependsOnThread(const ir::Expr &E) const {
    for (const ir::VarNode *V : ir::varsOf(E))
      if (ThreadDependent.count(V))
        return true;
    return false;
  }

  /// A barrier is needed for Buf here; false (with an error) when here is
  /// thread-divergent.
  bool canPlaceBarrier(const ir::BufferNode *Buf) {
    if (Divergent.empty())
      return true;
    if (Reported.insert(Buf->Name).second) {
      Diag D;
      D.Message = "shared buffer '" + Buf->Name +
                  "' needs a barrier between accesses by different threads, but they are "
                  "under thread-divergent control flow (" +
                  Divergent.back() +
                  ") where not every thread would reach it; make the condition uniform "
                  "or move the accesses out of it";
      Diags.push_back(D);
    }
    return false;
  }

  ir::Stmt visitSeq(const ir::SeqNode *N, Summary &Out) {
    std::vector<ir::Stmt> Stmts;
    std::vector<Access> Pending;
    bool SeenBarrier = false;
    for (const ir::Stmt &Child : N->Stmts) {
      Summary CS;
      ir::Stmt NewChild = visit(Child, CS);
      if (const ir::BufferNode *Buf = conflict(Pending, CS.Head)) {
        if (canPlaceBarrier(Buf)) {
          Stmts.push_back(makeBarrier());
          Pending.clear();
          SeenBarrier = true;
        }
      }
      if (!SeenBarrier)
        append(Out.Head, CS.Head);
      Stmts.push_back(NewChild);
      if (CS.HasBarrier) {
        SeenBarrier = true;
        Pending = CS.Tail;
      } else {
        append(Pending, CS.Tail);
      }
    }
    Out.HasBarrier = SeenBarrier;
    Out.Tail = Pending;
    return ir::makeSeq(Stmts);
  }

  ir::Stmt visitFor(const ir::Stmt &S, const ir::ForNode *N, Summary &Out) {
    const bool IsThreadLoop = isThreadIdx(N);
    const bool IsBlockLoop = N->LoopKind == ir::ForKind::ThreadBound && ir::isBlockTag(N->ThreadTag);
    int64_t Ext = -1;
    bool ConstExtent = ir::getConstInt(N->Extent, Ext);
    bool DivergentBounds = dependsOnThread(N->Min) || dependsOnThread(N->Extent);
    if (IsThreadLoop) {
      // VerifyThreadBindings gave every loop of a tag the launch extent; one
      // that still runs fewer threads would be divergent.
      auto It = Extent.find(N->ThreadTag);
      DivergentBounds |= ConstExtent && It != Extent.end() && It->second >= 0 && It->second != Ext;
    }
    if (DivergentBounds)
      Divergent.push_back("loop '" + N->LoopVar->Name + "' with bounds that depend on the thread");
    if (IsThreadLoop || DivergentBounds)
      ThreadDependent.insert(N->LoopVar.get());
    Loops.push_back(N);
    Summary BS;
    ir::Stmt Body = visit(N->Body, BS);
    Loops.pop_back();
    // The iterations of a serial loop follow one another in each thread:
    // the accesses after the body's last barrier meet those before its first
    // one in the next iteration.
    bool Iterates = !IsThreadLoop && !IsBlockLoop && !(ConstExtent && Ext <= 1);
    if (Iterates) {
      if (const ir::BufferNode *Buf = conflict(BS.Tail, BS.Head)) {
        if (canPlaceBarrier(Buf)) {
          Body = ir::makeSeq({Body, makeBarrier()});
          BS.HasBarrier = true;
          BS.Tail.clear();
        }
      }
    }
    if (DivergentBounds)
      Divergent.pop_back();
    Out = BS;
    // A loop that may not run passes what came before it through.
    if (!IsThreadLoop && !IsBlockLoop && !(ConstExtent && Ext >= 1))
      Out.HasBarrier = false;
    if (Body == N->Body)
      return S;
    return ir::makeFor(N->LoopVar, N->Min, N->Extent, Body, N->LoopKind, N->ThreadTag,
                       N->IsReduction);
  }

  ir::Stmt visitIf(const ir::Stmt &S, const ir::IfThenElseNode *N, Summary &Out) {
    ir::Expr Cond = ir::substitute(N->Cond, Lets);
    bool IsDivergent = dependsOnThread(N->Cond);
    if (IsDivergent)
      Divergent.push_back("if " + ir::print(N->Cond));
    Summary TS, ES;
    Guards.push_back(Cond);
    ir::Stmt Then = visit(N->Then, TS);
    Guards.back() = ir::makeUnary(ir::UnOp::Not, Cond);
    ir::Stmt Else = N->Else ? visit(N->Else, ES) : nullptr;
    Guards.pop_back();
    if (IsDivergent)
      Divergent.pop_back();
    Out.HasBarrier = TS.HasBarrier && ES.HasBarrier && N->Else;
    Out.Head = TS.Head;
    append(Out.Head, ES.Head);
    Out.Tail = TS.Tail;
    append(Out.Tail, ES.Tail);
    if (Then == N->Then && Else == N->Else)
      return S;
    return ir::makeIf(N->Cond, Then, Else);
  }

  ir::Stmt visitLet(const ir::Stmt &S, const ir::LetStmtNode *N, Summary &Out) {
    if (dependsOnThread(N->Value))
      ThreadDependent.insert(N->LetVar.get());
    Lets[N->LetVar.get()] = ir::substitute(N->Value, Lets);
    ir::Stmt Body = visit(N->Body, Out);
    Lets.erase(N->LetVar.get());
    return Body == N->Body ? S : ir::makeLet(N->LetVar, N->Value, Body);
  }
};

} // namespace

ir::LoopNest injectThreadSync(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  BlockExtents Extents;
  Extents.visit(Nest.Body);
  Summary Ignored;
  ir::LoopNest Out = Nest;
  Out.Body = SyncInjector(Extents.Extent, Diags).visit(Nest.Body, Ignored);
  return Out;
}

} // namespace passes
} // namespace sched
