//===- InjectCoprocSync.cpp - Dependency tokens between the VTA queues ----===//
//
// target(vta), kernel form. VTA runs loads, compute (GEMM, ALU, acc and uop
// loads) and stores on three queues that only wait for each other through
// dependency tokens (ir/Vta.h, ../shared/research/vta.md section 1):
// vta.dep_push(from, to) after an instruction of queue `from`,
// vta.dep_pop(from, to) before the next instruction of queue `to`, between
// neighbouring queues only (load 1 <-> compute 2 <-> store 3). This pass
// orders every instruction after the one before it in program order, as
// TVM's InjectCoProcSync does, and appends vta.synchronize() (FINISH).
//
// The plan (a visitor decides what goes before and after which statement,
// a mutator splices it in):
//  - A region (the nest's body, a loop's body) is a list of items in
//    program order: VTA instructions (a call with ir::vtaQueueOf) and loops;
//    Seqs, Allocates and Lets are transparent. A loop's first and last queue
//    are those of its body. A cthread loop is an item whose body is its own
//    region with no loop-carried tokens (InjectVtaContexts repeats
//    everything inside it per context, and nothing outside it).
//  - Between consecutive items a, b with a.last != b.first:
//    dep_push(a.last, b.first) right after a's last instruction,
//    dep_pop(a.last, b.first) right before b's first instruction (before b
//    itself when b is a loop). Load and store never exchange tokens: a
//    load <-> store step goes through compute, push(a.last, 2) pop(a.last, 2)
//    push(2, b.first) ... pop(2, b.first) — the runtime carries the compute
//    step on a no-op.
//  - A loop whose body's last queue l differs from its first f carries the
//    pair: pop(l, f) before its body's first instruction, push(l, f) after
//    its last (a body from load to store, or back, first steps through
//    compute as above, so l is compute). The token its first iteration
//    pops is the previous item's push(l, f) when that item ends on l (no
//    separate pop); else a priming push(l, f) right before the loop. After
//    the loop one token is left: a draining pop(l, f) right after the
//    loop -> next push and before the loop -> next pop.
// That is the tutorial's sequence exactly (research/vta.md section 4):
//   gemm reset; push(2,1); for ko { pop(2,1); load; load; push(1,2);
//   pop(1,2); gemm; push(2,1) }; push(2,3); pop(2,1); pop(2,3); store
// and TUT-MMO's WAR pair: push(3,2) before a loop whose body starts with
// compute and ends with a store, pop(3,2) at its body's start, push(3,2) at
// its end, pop(3,2) after it. Every push is popped by construction; the
// pass checks it (each loop body and the whole program leave every token
// count where they found it, and no count goes below zero in program
// order), so a bug here is an error, never a deadlock on the device.
// VTA instructions under an if are refused (a token plan across branches
// is not written).
//
// Runs after FoldUopLoops (one compute instruction per kernel) and before
// InjectVtaContexts (tokens are planned for one context, then repeated).
//
//===----------------------------------------------------------------------===//
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Vta.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <cstdlib>
#include <map>
#include <vector>

namespace sched {
namespace passes {

namespace {

using ir::Stmt;

Stmt token(const char *Name, int64_t From, int64_t To) {
  return ir::makeEvaluate(ir::makeCall(Name, {ir::makeInt(From), ir::makeInt(To)}, ir::DType::Int32));
}
Stmt push(int64_t From, int64_t To) { return token("vta.dep_push", From, To); }
Stmt pop(int64_t From, int64_t To) { return token("vta.dep_pop", From, To); }

bool isCthreadLoop(const ir::ForNode *F) {
  return F->LoopKind == ir::ForKind::ThreadBound && F->ThreadTag == "cthread";
}

int64_t queueOf(const Stmt &S) {
  const auto *E = ir::as<ir::EvaluateNode>(S);
  const auto *C = E ? ir::as<ir::CallNode>(E->Value) : nullptr;
  return C ? ir::vtaQueueOf(C) : 0;
}

/// An item of a region: an instruction or a loop.
struct Item {
  const ir::StmtNode *Node = nullptr;
  int64_t First = 0, Last = 0; // queues of its first and last instruction
  bool Carried = false;        // a loop with the pair (Last, First)
};

/// A planned region: its first and last queue and the statements holding
/// its first and last instruction (where tokens from outside go).
struct Region {
  int64_t First = 0, Last = 0;
  const ir::StmtNode *FirstNode = nullptr, *LastNode = nullptr;
};

class Planner {
public:
  explicit Planner(std::vector<Diag> &Diags) : Diags(Diags) {}
  std::map<const ir::StmtNode *, std::vector<Stmt>> Before, After;
  bool Failed = false;

  Region region(const Stmt &S) {
    std::vector<Item> Items;
    items(S, Items);
    Region R;
    if (Items.empty())
      return R;
    for (size_t I = 0; I < Items.size(); ++I) {
      if (I == 0) {
        if (Items[0].Carried) // no item before it in the region: prime
          Before[Items[0].Node].insert(Before[Items[0].Node].begin(),
                                       push(Items[0].Last, Items[0].First));
        continue;
      }
      step(Items[I - 1], Items[I]);
    }
    const Item &End = Items.back();
    if (End.Carried)
      After[End.Node].push_back(pop(End.Last, End.First));
    R.First = Items.front().First;
    R.Last = End.Last;
    R.FirstNode = Items.front().Node;
    R.LastNode = End.Node;
    return R;
  }

private:
  std::vector<Diag> &Diags;

  void error(const std::string &Message) {
    Failed = true;
    Diag D;
    D.Message = Message;
    Diags.push_back(D);
  }

  static bool hasInstruction(const Stmt &S) {
    class Finder : public ir::IRVisitor {
    public:
      bool Found = false;

    protected:
      void visitCall(const ir::CallNode *N) override {
        Found |= ir::vtaQueueOf(N) != 0;
        ir::IRVisitor::visitCall(N);
      }
    } F;
    F.visit(S);
    return F.Found;
  }

  void items(const Stmt &S, std::vector<Item> &Out) {
    if (!S)
      return;
    if (int64_t Q = queueOf(S)) {
      Out.push_back({S.get(), Q, Q, false});
      return;
    }
    if (const auto *Q = ir::as<ir::SeqNode>(S)) {
      for (const Stmt &X : Q->Stmts)
        items(X, Out);
      return;
    }
    if (const auto *A = ir::as<ir::AllocateNode>(S))
      return items(A->Body, Out);
    if (const auto *L = ir::as<ir::LetStmtNode>(S))
      return items(L->Body, Out);
    if (ir::as<ir::IfThenElseNode>(S)) {
      if (hasInstruction(S))
        error("VTA instructions under an if are not supported: '" + stmtText(S.get()) + "'");
      return;
    }
    const auto *F = ir::as<ir::ForNode>(S);
    if (!F)
      return;
    Region Body = region(F->Body);
    if (!Body.First)
      return;
    if (isCthreadLoop(F) || Body.First == Body.Last) {
      Out.push_back({S.get(), Body.First, Body.Last, false});
      return;
    }
    int64_t L = Body.Last, First = Body.First;
    std::vector<Stmt> &End = After[Body.LastNode];
    if (std::abs(L - First) == 2) { // store -> load (or back): through compute
      End.push_back(push(L, ir::VtaQueueCompute));
      End.push_back(pop(L, ir::VtaQueueCompute));
      L = ir::VtaQueueCompute;
    }
    End.push_back(push(L, First));
    std::vector<Stmt> &Start = Before[Body.FirstNode];
    Start.insert(Start.begin(), pop(L, First));
    Out.push_back({S.get(), First, L, true});
  }

  /// The tokens between consecutive items A and B.
  void step(const Item &A, const Item &B) {
    std::vector<Stmt> AfterA, BeforeB;
    int64_t X = A.Last, Y = B.First;
    bool PopXY = false;
    if (X != Y) {
      if (std::abs(X - Y) == 2) {
        AfterA.push_back(push(X, ir::VtaQueueCompute));
        AfterA.push_back(pop(X, ir::VtaQueueCompute));
        X = ir::VtaQueueCompute;
      }
      AfterA.push_back(push(X, Y));
      PopXY = true;
    }
    if (B.Carried) {
      if (PopXY && X == B.Last)
        PopXY = false; // A's push(l, f) is the token B's first iteration pops
      else
        BeforeB.push_back(push(B.Last, B.First));
    }
    if (A.Carried)
      AfterA.push_back(pop(A.Last, A.First));
    if (PopXY)
      BeforeB.push_back(pop(X, Y));
    std::vector<Stmt> &Aft = After[A.Node];
    Aft.insert(Aft.end(), AfterA.begin(), AfterA.end());
    std::vector<Stmt> &Bef = Before[B.Node];
    Bef.insert(Bef.begin(), BeforeB.begin(), BeforeB.end());
  }
};

/// Splices the plan in: each planned statement becomes Before + it + After
/// (makeSeq flattens that into the Seq around it).
class Splicer : public ir::IRMutator {
public:
  explicit Splicer(const Planner &P) : P(P) {}

  Stmt mutateAny(const Stmt &S, Stmt New) {
    auto B = P.Before.find(S.get());
    auto A = P.After.find(S.get());
    if (B == P.Before.end() && A == P.After.end())
      return New;
    std::vector<Stmt> Out;
    if (B != P.Before.end())
      Out = B->second;
    Out.push_back(New);
    if (A != P.After.end())
      Out.insert(Out.end(), A->second.begin(), A->second.end());
    return ir::makeSeq(Out);
  }

protected:
  Stmt mutateEvaluate(const Stmt &S, const ir::EvaluateNode *N) override {
    return mutateAny(S, ir::IRMutator::mutateEvaluate(S, N));
  }
  Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
    return mutateAny(S, ir::IRMutator::mutateFor(S, N));
  }

private:
  const Planner &P;
};

/// Token counts per (from, to): the change a statement makes, and the
/// lowest count it reaches on the way (relative to where it started).
struct Balance {
  std::map<std::pair<int64_t, int64_t>, int64_t> Net, Low;

  void then(const Balance &B) {
    for (const auto &[K, L] : B.Low)
      Low[K] = std::min(Low[K], Net[K] + L);
    for (const auto &[K, N] : B.Net)
      Net[K] += N;
  }
};

/// Whether every loop body of S and S itself leave each token count as
/// they found it without going below zero.
bool balanced(const Stmt &S, Balance &Out) {
  if (!S)
    return true;
  if (const auto *E = ir::as<ir::EvaluateNode>(S)) {
    const auto *C = ir::as<ir::CallNode>(E->Value);
    int64_t From, To;
    if (C && (C->Name == "vta.dep_push" || C->Name == "vta.dep_pop") && C->Args.size() == 2 &&
        ir::getConstInt(C->Args[0], From) && ir::getConstInt(C->Args[1], To)) {
      auto K = std::make_pair(From, To);
      Out.Net[K] += C->Name == "vta.dep_push" ? 1 : -1;
      Out.Low[K] = std::min(Out.Low[K], Out.Net[K]);
    }
    return true;
  }
  if (const auto *Q = ir::as<ir::SeqNode>(S)) {
    for (const Stmt &X : Q->Stmts) {
      Balance B;
      if (!balanced(X, B))
        return false;
      Out.then(B);
    }
    return true;
  }
  if (const auto *A = ir::as<ir::AllocateNode>(S))
    return balanced(A->Body, Out);
  if (const auto *L = ir::as<ir::LetStmtNode>(S))
    return balanced(L->Body, Out);
  if (const auto *F = ir::as<ir::ForNode>(S)) {
    Balance B;
    if (!balanced(F->Body, B))
      return false;
    for (const auto &[K, N] : B.Net)
      if (N != 0)
        return false;
    Out.then(B);
    return true;
  }
  return true; // an if holds no instruction (refused above), a store no token
}

} // namespace

/// Whether S already has tokens or a synchronize (a program written in final
/// form, as tests and tools do: its plan is its author's, and
/// VerifyVtaProgram checks it).
static bool plansItsTokens(const ir::Stmt &S) {
  class Finder : public ir::IRVisitor {
  public:
    bool Found = false;

  protected:
    void visitCall(const ir::CallNode *N) override {
      Found |= N->Name == "vta.dep_push" || N->Name == "vta.dep_pop" || N->Name == "vta.synchronize";
      ir::IRVisitor::visitCall(N);
    }
  } F;
  F.visit(S);
  return F.Found;
}

/// Body, then vta.synchronize(), inside the DRAM buffers allocated around
/// the whole program (InjectVtaDma's packed weights): the instructions
/// that read them run at the synchronize.
static ir::Stmt endWithSynchronize(const ir::Stmt &Body) {
  const auto *A = ir::as<ir::AllocateNode>(Body);
  if (A && A->Buf->MemScope == ir::Scope::Global)
    return ir::makeAllocate(A->Buf, endWithSynchronize(A->Body));
  return ir::makeSeq(
      {Body, ir::makeEvaluate(ir::makeCall("vta.synchronize", {}, ir::DType::Int32))});
}

ir::LoopNest injectCoprocSync(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  if (plansItsTokens(Nest.Body))
    return Nest;
  ir::LoopNest Out = Nest;
  Out.Body = unshareStatements(Nest.Body);
  Planner P(Diags);
  P.region(Out.Body);
  if (P.Failed)
    return Nest;
  Splicer S(P);
  Out.Body = endWithSynchronize(S.mutate(Out.Body));
  Balance B;
  bool Ok = balanced(Out.Body, B);
  for (const auto &[K, N] : B.Net)
    Ok = Ok && N == 0 && B.Low[K] >= 0;
  if (!Ok) {
    Diag D;
    D.Message = "internal error: InjectCoprocSync left unbalanced dependency tokens";
    Diags.push_back(D);
    return Nest;
  }
  return Out;
}

const Pass InjectCoprocSyncPass = {
    "InjectCoprocSync", /*Requires=*/VtaFormFolded, /*Establishes=*/VtaFormSynchronized,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      S.Nest = injectCoprocSync(S.Nest, S.Diags);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
