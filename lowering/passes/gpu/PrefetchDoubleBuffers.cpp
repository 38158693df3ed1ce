//===- PrefetchDoubleBuffers.cpp - A double-buffered stage's next tile in flight -===//
//
// A stage double-buffered over a serial loop ko (double_buffer: two copies,
// iteration ko uses copy (ko + c) % 2) leaves thread sync a step of the form
//
//   for ko { fill(ko) -> copy ko%2;  barrier;  compute(ko) on copy ko%2 }
//
// with one barrier per step (the next fill writes the other copy), but each
// warp still waits for its own global loads before the barrier, and nothing
// overlaps them. This pass software-pipelines the step: the first tile is
// filled before the loop, and each step loads the next tile from global
// memory into registers before computing on the current one, and stores
// those registers into the other copy after computing:
//
//   fill(min) -> copy min%2
//   for ko {
//     barrier
//     if (ko + 1 < end) regs = the values fill(ko + 1) stores
//     compute(ko) on copy ko%2
//     if (ko + 1 < end) copy (ko+1)%2 = regs
//   }
//
// The loads' latency is hidden behind the computation, and the step keeps
// one barrier. Why that one suffices: iteration ko's stores write copy
// (ko + 1) % 2, which iteration ko - 1 read before the barrier that opens
// iteration ko, and which iteration ko + 1 reads after the barrier that
// opens it; the copy ko % 2 that other threads may still read during
// iteration ko is not written in it.
//
// A loop qualifies when its body is, once the shared allocations in it are
// hoisted around the loop (each ends its sequence: its scope is the rest of
// the body), a sequence of fills, one barrier, and the rest, where:
//  - every fill stores only into stages double-buffered over ko (shared,
//    two copies, every access's copy index `(ko + c) % 2`), has no barrier,
//    no allocation, loops of constant bounds only (its values fit in a
//    register array of at most MaxPrefetchRegisters elements), and reads
//    (values, indices, guards) only buffers nothing in the loop writes;
//  - the rest writes no such stage and reads each at the fill's copy index.
// Anything else is left as it is (the stage keeps its one barrier per step
// and its in-step fill).
//
// Runs after InjectThreadSync (it keeps the barriers it found: the one after
// the fills moves to the top of the step) and before StorageFlatten (the
// copy index is the stage's first index); PartitionLoops then gives the
// steps whose guards hold, `ko + 1 < end` among them, code without them.
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <set>

namespace sched {
namespace passes {

namespace {

using ir::Expr;
using ir::Stmt;

/// The most elements the registers holding one step's prefetched values may
/// have (a 64x8 tile of A and an 8x64 tile of B over 64 threads need 16).
constexpr int64_t MaxPrefetchRegisters = 64;

/// Whether E is `(V + c) % 2` (or `V % 2`, `(V - c) % 2`) for the loop
/// variable V: the copy index of a stage double-buffered over V's loop.
bool isCopyIndex(const Expr &E, const ir::VarNode *V) {
  const auto *Mod = ir::as<ir::BinaryNode>(E);
  int64_t Two;
  if (!Mod || Mod->Op != ir::BinOp::Mod || !ir::getConstInt(Mod->B, Two) || Two != 2)
    return false;
  if (const auto *X = ir::as<ir::VarNode>(Mod->A))
    return X == V;
  const auto *Sum = ir::as<ir::BinaryNode>(Mod->A);
  int64_t C;
  return Sum && (Sum->Op == ir::BinOp::Add || Sum->Op == ir::BinOp::Sub) &&
         ir::as<ir::VarNode>(Sum->A) == V && ir::getConstInt(Sum->B, C);
}

/// How a statement uses each buffer it touches (ir::collectAccesses: loads,
/// stores and intrinsic operands alike).
struct BufferUses {
  std::vector<std::vector<Expr>> Indices;
  bool Written = false;
};
std::map<const ir::BufferNode *, BufferUses> usesIn(const Stmt &S) {
  std::map<const ir::BufferNode *, BufferUses> Out;
  for (const ir::Access &A : ir::collectAccesses(S)) {
    BufferUses &U = Out[A.Buf.get()];
    U.Indices.push_back(A.Indices);
    U.Written |= A.IsWrite;
  }
  return Out;
}

/// Whether a fill is straight-line work over loops of constant bounds: no
/// barrier, allocation or call (an intrinsic may touch memory no index
/// shows), no loop of run-time bounds or bound to a tag.
class FillShape : public ir::IRVisitor {
public:
  static bool isPlain(const Stmt &S) {
    FillShape Shape;
    Shape.visit(S);
    return Shape.Plain;
  }

protected:
  void visitEvaluate(const ir::EvaluateNode *) override { Plain = false; }
  void visitCall(const ir::CallNode *) override { Plain = false; }
  void visitAllocate(const ir::AllocateNode *) override { Plain = false; }
  void visitFor(const ir::ForNode *N) override {
    int64_t Value;
    if (N->LoopKind == ir::ForKind::ThreadBound || !ir::getConstInt(N->Min, Value) ||
        !ir::getConstInt(N->Extent, Value))
      Plain = false;
    ir::IRVisitor::visitFor(N);
  }

private:
  bool Plain = true;
};

/// A fill split in two: Load stores each value into a register array
/// instead of its stage, Store moves the registers into the stage. Both
/// walk the same fill, so each store site gets one register array (Regs).
class FillSplitter : public ir::IRMutator {
public:
  enum class Part { Load, Store };
  /// Regs: each store site's register array; Created: the arrays in the
  /// order the fill first stores them (the output's order: never the map's,
  /// which is by address and changes from run to run).
  FillSplitter(Part P, std::map<const ir::StoreNode *, ir::Buffer> &Regs,
               std::vector<ir::Buffer> &Created)
      : P(P), Regs(Regs), Created(Created) {}

protected:
  Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
    Loops.push_back(N);
    Stmt Out = ir::IRMutator::mutateFor(S, N);
    Loops.pop_back();
    return Out;
  }
  Stmt mutateStore(const Stmt &, const ir::StoreNode *N) override {
    // The register of this iteration of the fill's loops: row-major over them.
    std::vector<Expr> Shape, Index;
    for (const ir::ForNode *L : Loops) {
      Shape.push_back(L->Extent);
      Index.push_back(ir::simplify(Expr(L->LoopVar) - L->Min));
    }
    Expr Flat = ir::flatIndex(Shape, Index);
    ir::Buffer &R = Regs[N];
    if (!R) {
      Expr Size = ir::makeInt(1);
      for (const Expr &E : Shape)
        Size = Size * E;
      R = ir::makeBuffer(N->Buf->Name + ".next", N->Buf->Type, {ir::simplify(Size)},
                         ir::Scope::Local);
      Created.push_back(R);
    }
    if (P == Part::Load)
      return ir::makeStoreLike(N, R, {Flat}, N->Value);
    return ir::makeStoreLike(N, N->Buf, N->Indices, ir::makeLoad(R, {Flat}));
  }

private:
  Part P;
  std::map<const ir::StoreNode *, ir::Buffer> &Regs;
  std::vector<ir::Buffer> &Created;
  std::vector<const ir::ForNode *> Loops;
};

/// N rewritten as the pipelined step, or null where it does not qualify.
Stmt pipelined(const ir::ForNode *N) {
  if (N->LoopKind != ir::ForKind::Serial && N->LoopKind != ir::ForKind::Unrolled)
    return nullptr;
  const ir::VarNode *V = N->LoopVar.get();
  std::vector<const ir::AllocateNode *> Allocs;
  std::vector<Stmt> Stmts;
  flattenBody(N->Body, Allocs, Stmts);
  size_t Fills = 0;
  while (Fills < Stmts.size() && !isBarrier(Stmts[Fills]))
    ++Fills;
  if (Fills == 0 || Fills == Stmts.size())
    return nullptr;
  std::vector<Stmt> FillStmts(Stmts.begin(), Stmts.begin() + Fills);
  std::vector<Stmt> Rest(Stmts.begin() + Fills + 1, Stmts.end());
  Stmt Fill = ir::makeSeq(FillStmts), After = ir::makeSeq(Rest);

  // The stages: what the fills write, each double-buffered over N.
  if (!FillShape::isPlain(Fill))
    return nullptr;
  auto InFill = usesIn(Fill), InRest = usesIn(After), InLoop = usesIn(N->Body);
  std::set<const ir::BufferNode *> Hoisted;
  for (const ir::AllocateNode *A : Allocs)
    Hoisted.insert(A->Buf.get());
  std::map<const ir::BufferNode *, Expr> CopyIndex; // of each stage
  for (const auto &[Buf, Uses] : InFill) {
    if (!Uses.Written) {
      // The fill's inputs must not change within the loop: its next tile
      // is read one step early.
      if (InLoop[Buf].Written)
        return nullptr;
      continue;
    }
    int64_t Copies;
    if (!Hoisted.count(Buf) || Buf->Shape.empty() || !ir::getConstInt(Buf->Shape[0], Copies) ||
        Copies != 2)
      return nullptr;
    for (const std::vector<Expr> &I : InLoop[Buf].Indices)
      if (I.empty() || !isCopyIndex(I[0], V))
        return nullptr;
    // One copy per step: the fill writes it and the rest only reads it.
    const Expr &Copy = CopyIndex[Buf] = Uses.Indices.front()[0];
    const BufferUses &Read = InRest[Buf];
    if (Read.Written)
      return nullptr;
    for (const auto *List : {&Uses.Indices, &Read.Indices})
      for (const std::vector<Expr> &I : *List)
        if (!ir::structurallyEqual(I[0], Copy))
          return nullptr;
  }
  if (CopyIndex.empty())
    return nullptr;

  std::map<const ir::StoreNode *, ir::Buffer> Regs;
  std::vector<ir::Buffer> Created;
  Stmt LoadPart = FillSplitter(FillSplitter::Part::Load, Regs, Created).mutate(Fill);
  Stmt StorePart = FillSplitter(FillSplitter::Part::Store, Regs, Created).mutate(Fill);
  int64_t Registers = 0;
  for (const ir::Buffer &R : Created) {
    int64_t Size = ir::constantElements(*R);
    if (Size < 0)
      return nullptr;
    Registers += Size;
  }
  if (Registers > MaxPrefetchRegisters)
    return nullptr;

  Expr End = ir::simplify(N->Min + N->Extent);
  Expr Next = Expr(N->LoopVar) + ir::makeInt(1, V->Type);
  Expr HasNext = ir::simplify(Next < End);
  std::map<const ir::VarNode *, Expr> AtNext = {{V, Next}};
  Stmt Prologue = ir::cloneDeclarations(ir::simplify(ir::substitute(Fill, {{V, N->Min}})));
  Expr Runs = ir::simplify(ir::makeInt(0, N->Extent->Type) < N->Extent);
  int64_t AlwaysRuns = 0;
  if (!ir::getConstInt(Runs, AlwaysRuns) || !AlwaysRuns)
    Prologue = ir::makeIf(Runs, Prologue);
  Stmt Step = ir::makeSeq(
      {makeBarrier(),
       ir::makeIf(HasNext, ir::cloneDeclarations(ir::simplify(ir::substitute(LoadPart, AtNext)))),
       After,
       ir::makeIf(HasNext, ir::cloneDeclarations(ir::simplify(ir::substitute(StorePart, AtNext))))});
  Stmt Out = ir::makeSeq({Prologue, ir::withBody(N, Step)});
  for (auto It = Created.rbegin(); It != Created.rend(); ++It)
    Out = ir::makeAllocate(*It, Out);
  for (auto It = Allocs.rbegin(); It != Allocs.rend(); ++It)
    Out = ir::makeAllocate((*It)->Buf, Out);
  return Out;
}

class StepPipeliner : public ir::IRMutator {
protected:
  Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
    if (Stmt Out = pipelined(N))
      return Out;
    return ir::IRMutator::mutateFor(S, N);
  }
};

} // namespace

ir::LoopNest prefetchDoubleBuffers(const ir::LoopNest &Nest) {
  ir::LoopNest Out = Nest;
  Out.Body = StepPipeliner().mutate(Nest.Body);
  return Out;
}

const Pass PrefetchDoubleBuffersPass = {
    "PrefetchDoubleBuffers", /*Requires=*/FormSynchronized, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      S.Nest = prefetchDoubleBuffers(S.Nest);
      return true;
    }};

} // namespace passes
} // namespace sched
