//===- UnrollSmallLoops.cpp - Register tiles unrolled by default ----------===//
//
// A thread's own tile (the 4x4 accumulators of a GEMM thread, the ki loop
// over a staged k tile, a cooperative fetch of 8 rows) is a nest of loops of
// constant extent. Unrolled, its local arrays are indexed by constants and
// live in registers, its operands are loaded once and reused across the
// tile, and neighbouring shared-memory loads merge into vector loads; left
// as loops, the CUDA compiler unrolls some and keeps the rest, and an array
// indexed by a loop variable stays in local memory. So every serial loop of
// constant extent whose whole subtree is loops of constant extent is marked
// `unroll` (CUDA: `#pragma unroll`) when the statements of the unrolled
// subtree number at most UnrollBudget. A loop the schedule marked already
// (`unroll(x)`, or `vectorize(x)`) keeps its mark, and a loop with a barrier
// or an allocation in it is never marked (its body is not a thread's own).
// A subtree with guards in it (the edge tiles' code PartitionLoops keeps) is
// unrolled only from a loop whose variable indexes a local array (the
// register tile, which needs constant indices): unrolling guarded code
// multiplies its branches without removing any, and the registers the edge
// code asks for count against the whole kernel.
//
// Runs last before the verifier, after PartitionLoops: the full tiles' code
// is what it is for.
//
//===----------------------------------------------------------------------===//
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Rewrite.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

namespace {

/// The most statements a fully unrolled subtree may hold: the 8x8 register
/// tile of a GEMM thread over a k tile of 8 (512 multiply-adds) fits twice.
constexpr int64_t UnrollBudget = 1024;

/// How many statements S becomes once every loop in it is unrolled, or -1
/// where that is not possible (a loop of run-time extent, a barrier, an
/// allocation, a thread-bound loop) or over the budget.
class UnrolledSize : public ir::IRVisitor {
public:
  static int64_t of(const ir::Stmt &S, bool *Guarded = nullptr) {
    UnrolledSize Size;
    Size.visit(S);
    if (Guarded)
      *Guarded = Size.Guarded;
    return Size.Count;
  }

protected:
  void visitFor(const ir::ForNode *N) override {
    int64_t Min, Extent;
    if (Count < 0 || N->LoopKind == ir::ForKind::ThreadBound ||
        !ir::getConstInt(N->Min, Min) || !ir::getConstInt(N->Extent, Extent)) {
      Count = -1;
      return;
    }
    bool InnerGuarded = false;
    int64_t Body = of(N->Body, &InnerGuarded);
    Guarded |= InnerGuarded;
    if (Body < 0 || (Extent > 0 && Body > UnrollBudget / Extent)) {
      Count = -1;
      return;
    }
    add(Extent > 0 ? Body * Extent : 0);
  }
  void visitStore(const ir::StoreNode *N) override {
    add(1);
    ir::IRVisitor::visitStore(N);
  }
  void visitEvaluate(const ir::EvaluateNode *N) override {
    if (isBarrierCall(N->Value))
      Count = -1;
    else
      add(1);
  }
  void visitAllocate(const ir::AllocateNode *) override { Count = -1; }
  void visitIfThenElse(const ir::IfThenElseNode *N) override {
    Guarded = true;
    ir::IRVisitor::visitIfThenElse(N);
  }

private:
  int64_t Count = 0;
  bool Guarded = false; // an if somewhere in the subtree

  void add(int64_t N) {
    if (Count < 0)
      return;
    Count += N;
    if (Count > UnrollBudget)
      Count = -1;
  }
};

class SmallLoopUnroller : public ir::IRMutator {
protected:
  ir::Stmt mutateFor(const ir::Stmt &S, const ir::ForNode *N) override {
    bool Guarded = false;
    if (N->LoopKind == ir::ForKind::Serial && UnrolledSize::of(S, &Guarded) >= 0 &&
        (!Guarded || indexesLocalArray(N)))
      return markAll(S);
    return ir::IRMutator::mutateFor(S, N);
  }

private:
  /// Whether N's variable is in an index of a local array in N's body.
  static bool indexesLocalArray(const ir::ForNode *N) {
    struct Finder : ir::IRVisitor {
      const ir::VarNode *V = nullptr;
      bool Found = false;
      void check(const ir::Buffer &B, const std::vector<ir::Expr> &Indices) {
        if (B->MemScope != ir::Scope::Local)
          return;
        for (const ir::Expr &I : Indices)
          Found |= ir::usesVar(I, V);
      }
      void visitLoad(const ir::LoadNode *L) override {
        check(L->Buf, L->Indices);
        ir::IRVisitor::visitLoad(L);
      }
      void visitStore(const ir::StoreNode *St) override {
        check(St->Buf, St->Indices);
        ir::IRVisitor::visitStore(St);
      }
    } F;
    F.V = N->LoopVar.get();
    F.visit(N->Body);
    return F.Found;
  }

  /// S with every serial loop in it marked unroll.
  static ir::Stmt markAll(const ir::Stmt &S) {
    struct Marker : ir::IRMutator {
      ir::Stmt mutateFor(const ir::Stmt &S, const ir::ForNode *N) override {
        ir::Stmt Body = mutate(N->Body);
        if (N->LoopKind != ir::ForKind::Serial)
          return Body == N->Body ? S : ir::withBody(N, Body);
        ir::Stmt Marked = ir::withKind(N, ir::ForKind::Unrolled, N->ThreadTag);
        return Body == N->Body ? Marked : ir::withBody(ir::as<ir::ForNode>(Marked), Body);
      }
    };
    return Marker().mutate(S);
  }
};

} // namespace

ir::LoopNest unrollSmallLoops(const ir::LoopNest &Nest) {
  ir::LoopNest Out = Nest;
  Out.Body = SmallLoopUnroller().mutate(Nest.Body);
  return Out;
}

const Pass UnrollSmallLoopsPass = {
    "UnrollSmallLoops", /*Requires=*/FormFlattened, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      S.Nest = unrollSmallLoops(S.Nest);
      return true;
    }};

} // namespace passes
} // namespace sched
