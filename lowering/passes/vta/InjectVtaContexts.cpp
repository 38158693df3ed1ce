//===- InjectVtaContexts.cpp - cthread loops become VTA contexts ----------===//
//
// target(vta), kernel form with tokens. `bind(x, cthread)` asks for VTA's
// virtual threads (research/vta.md section 5): the contexts' instruction
// streams are interleaved, so that the load of one context runs while the
// other computes. As TVM's InjectVirtualThread does for cthread (nothing
// shared), the loop disappears and
//  - every allocation inside it gets a leading dimension of the context
//    count, context c using slice [c, ...] (the contexts never share an
//    inp/wgt/acc buffer; a VTA stage allocated outside the loop but used
//    inside it would be shared: an error);
//  - every instruction inside it is repeated once per context, in place,
//    with the context substituted; the tokens InjectCoprocSync planned for
//    one context are repeated with the instruction they sit next to (the
//    pops right before it, the pushes right after it: TVM's copy of a
//    whole coproc scope), so each context keeps its own token chain and a
//    FIFO carries up to one token per context. Tokens standing apart from
//    an instruction (a priming push before a loop, a draining pop after
//    it) are repeated in place: two priming pushes, two draining pops;
//  - loops, allocations and lets are kept once with their bodies expanded;
//    a loop, let or if whose header uses the context is an error (the
//    contexts' streams must interleave statement by statement).
// VTA has two contexts: an extent of 1 or 2 (a constant) is accepted, any
// other is an error, as are nested cthread loops (2 x 2 contexts).
//
// Runs after InjectCoprocSync (tokens planned once per context, which
// leaves a cthread loop's body a balanced region of its own) and before
// VtaStorageFlatten, which lays the doubled stages out in SRAM.
//
//===----------------------------------------------------------------------===//
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Printer.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"
#include "ir/Vta.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace sched {
namespace passes {

namespace {

using ir::Expr;
using ir::Stmt;

bool isCthreadLoop(const ir::ForNode *F) {
  return F->LoopKind == ir::ForKind::ThreadBound && F->ThreadTag == "cthread";
}

const ir::CallNode *callOf(const Stmt &S) {
  const auto *E = ir::as<ir::EvaluateNode>(S);
  return E ? ir::as<ir::CallNode>(E->Value) : nullptr;
}

bool isCall(const Stmt &S, const char *Name) {
  const ir::CallNode *C = callOf(S);
  return C && C->Name == Name;
}

class ContextExpander : public ir::IRMutator {
public:
  explicit ContextExpander(std::vector<Diag> &Diags) : Diags(Diags) {}
  bool Failed = false;
  int64_t MaxContexts = 1;

protected:
  Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
    if (!isCthreadLoop(N)) {
      if (Ctx && (ir::usesVar(N->Min, Ctx) || ir::usesVar(N->Extent, Ctx)))
        return error("the bounds of loop '" + N->LoopVar->Name + "' depend on the context '" +
                     Ctx->Name + "'");
      return ir::IRMutator::mutateFor(S, N);
    }
    if (Ctx)
      return error("nested cthread loops '" + Ctx->Name + "' and '" + N->LoopVar->Name +
                   "': VTA has two contexts");
    int64_t Extent;
    if (!ir::getConstInt(ir::simplify(N->Extent), Extent) || Extent < 1 || Extent > 2)
      return error("cthread loop '" + N->LoopVar->Name + "' has extent " + ir::print(N->Extent) +
                   ": VTA has two contexts (extent 1 or 2)");
    // Each allocation inside gets the context as its leading index.
    ir::BufferExpansions Expansions;
    for (const ir::Buffer &B : allocationsIn(N->Body))
      Expansions[B.get()] = ir::expandBuffer(B, Extent);
    Stmt Body =
        ir::expandAccesses(N->Body, Expansions, ir::simplify(Expr(N->LoopVar) - N->Min));
    // A VTA stage from outside the loop would be shared by the contexts.
    std::set<const ir::BufferNode *> Inside;
    for (const ir::Buffer &A : allocationsIn(Body))
      Inside.insert(A.get());
    for (const ir::BufferNode *B : stagesUsedIn(Body))
      if (!Inside.count(B))
        return error("the VTA stage '" + B->Name + "' is allocated outside cthread loop '" +
                     N->LoopVar->Name + "': its contexts would share it");
    MaxContexts = std::max(MaxContexts, Extent);
    ScopedValue<const ir::VarNode *> InLoop(Ctx, N->LoopVar.get());
    ScopedValue<int64_t> Count(Contexts, Extent);
    ScopedValue<Expr> Min(CtxMin, N->Min);
    return mutate(Body);
  }

  Stmt mutateSeq(const Stmt &S, const ir::SeqNode *N) override {
    if (!Ctx)
      return ir::IRMutator::mutateSeq(S, N);
    // Groups: pops, one instruction, pushes; any other statement alone.
    std::vector<Stmt> Out, Group;
    auto Flush = [&] {
      if (!Group.empty())
        repeat(ir::makeSeq(Group), Out);
      Group.clear();
    };
    bool HasInstruction = false;
    for (const Stmt &X : N->Stmts) {
      const ir::CallNode *C = callOf(X);
      bool Instruction = C && ir::vtaQueueOf(C);
      if (HasInstruction && isCall(X, "vta.dep_push")) {
        Group.push_back(X); // a push after its instruction
        continue;
      }
      if (HasInstruction) {
        Flush();
        HasInstruction = false;
      }
      if (isCall(X, "vta.dep_pop") || Instruction) {
        Group.push_back(X); // pops gather before their instruction
        HasInstruction = Instruction;
        continue;
      }
      Flush();
      if (C || ir::as<ir::StoreNode>(X))
        repeat(X, Out);
      else
        Out.push_back(mutate(X)); // loops, allocations: once, expanded inside
    }
    Flush();
    return ir::makeSeq(Out);
  }

  // A call or store standing alone (a loop's whole body): once per context.
  Stmt mutateEvaluate(const Stmt &S, const ir::EvaluateNode *) override { return repeated(S); }
  Stmt mutateStore(const Stmt &S, const ir::StoreNode *) override { return repeated(S); }

  Stmt mutateLetStmt(const Stmt &S, const ir::LetStmtNode *N) override {
    if (Ctx && ir::usesVar(N->Value, Ctx))
      return error("let '" + N->LetVar->Name + "' depends on the context '" + Ctx->Name + "'");
    return ir::IRMutator::mutateLetStmt(S, N);
  }

  Stmt mutateIfThenElse(const Stmt &S, const ir::IfThenElseNode *N) override {
    if (Ctx && ir::usesVar(N->Cond, Ctx))
      return error("an if depends on the context '" + Ctx->Name + "'");
    return ir::IRMutator::mutateIfThenElse(S, N);
  }

private:
  std::vector<Diag> &Diags;
  const ir::VarNode *Ctx = nullptr; // the cthread loop's variable, inside it
  int64_t Contexts = 0;
  Expr CtxMin;

  Stmt error(const std::string &Message) {
    Failed = true;
    Diag D;
    D.Message = Message;
    Diags.push_back(D);
    return ir::makeSeq({});
  }

  Stmt repeated(const Stmt &S) {
    if (!Ctx)
      return S;
    std::vector<Stmt> Out;
    repeat(S, Out);
    return ir::makeSeq(Out);
  }

  /// S once per context, in order, the context substituted.
  void repeat(const Stmt &S, std::vector<Stmt> &Out) {
    for (int64_t C = 0; C < Contexts; ++C)
      Out.push_back(ir::simplify(ir::substitute(S, {{Ctx, ir::simplify(CtxMin + ir::makeInt(C))}})));
  }

  static std::vector<ir::Buffer> allocationsIn(const Stmt &S) {
    class Finder : public ir::IRVisitor {
    public:
      std::vector<ir::Buffer> Found;

    protected:
      void visitAllocate(const ir::AllocateNode *N) override {
        Found.push_back(N->Buf);
        ir::IRVisitor::visitAllocate(N);
      }
    } F;
    F.visit(S);
    return F.Found;
  }

  static std::set<const ir::BufferNode *> stagesUsedIn(const Stmt &S) {
    class Finder : public ir::IRVisitor {
    public:
      std::set<const ir::BufferNode *> Found;

    protected:
      void visitLoad(const ir::LoadNode *N) override {
        if (ir::vtaElementLanes(N->Buf->MemScope))
          Found.insert(N->Buf.get());
        ir::IRVisitor::visitLoad(N);
      }
    } F;
    F.visit(S);
    return F.Found;
  }
};

} // namespace

ir::LoopNest injectVtaContexts(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  ContextExpander E(Diags);
  ir::LoopNest Out = Nest;
  Out.Body = E.mutate(Nest.Body);
  Out.VtaContexts = int(E.MaxContexts);
  return E.Failed ? Nest : Out;
}

const Pass InjectVtaContextsPass = {
    "InjectVtaContexts", /*Requires=*/VtaFormSynchronized, /*Establishes=*/VtaFormNoContexts,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      S.Nest = injectVtaContexts(S.Nest, S.Diags);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
