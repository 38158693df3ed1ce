//===- BoundInference.cpp - The regions of cache stages ------------------===//
//
// cache_read / cache_write / compute_at leave a stage's region symbolic: its
// shape, copy loops and consumer offsets are written in terms of placeholders
// As.min<d> and As.ext<d> (schedule/CacheRead.cpp). This pass, the first
// after NormalizeLoops, replaces them by the region the stage must hold where
// its allocation stands in the nest as the schedule left it (Halide and TVM
// infer bounds during lowering too, not in a schedule primitive):
//
//  - the region is what the statements inside the allocation touch (reads of
//    a read stage, reads and writes of a write stage other than its
//    write-back), with every loop inside ranging and, above the allocation,
//    the loops bound to threadIdx.*, vthread or cthread ranging for a shared
//    stage (it serves every thread of the block); a local stage serves one
//    thread, so nothing above it ranges;
//  - the stage's size is a constant upper bound of the region's size (an
//    error naming the stage when there is none); its origin is the region's
//    first index;
//  - the region is clipped by the guards of the accesses (GuardUse::Tighten):
//    the copy of a read stage and the write-back of a write stage are guarded
//    so they touch the tensor only inside the clipped region (and inside the
//    tensor), never what a non-dividing split's guard keeps the loop from;
//  - a write-back stores exactly what the computation writes: the box when
//    one write provably covers all of it (ir::coversBox), else a copy that
//    mirrors the loops and guards of each write; where the computation reads
//    an element of a write stage before writing it (`C[i] += ...` with no
//    init in the nest), the stage starts from C's values, loaded by a mirror
//    of those reads;
//  - a write stage may not enclose blocks (nor, if local, threads) that write
//    it: one block (thread) cannot write back what another computed.
// Guards above a stage's allocation stay where they are: a thread-divergent
// one (the tile guard of a run-time size) is sunk below the stage's copy by
// DistributeOverThreads, which sees every shared array, not only stages.
//
// Stages are resolved consumers first (a stage whose consumers are another
// stage's copy waits for that one). Extents become constants, so the split
// guards of stage loops (As.o*16 + As.i < As.ext0) simplify away where they
// now provably hold. VerifyThreadBindings and later passes see ordinary
// constant-size allocations; Nest.Stages is empty afterwards.
//
// Relies on: Nest.Stages, which the schedule fills (schedule/Schedule.cpp,
// finishStages); each stage allocated once, under its own name (checked:
// an error otherwise); its copy, however scheduled, being the statement of
// the allocation's sequence that stores into the stage (a read stage) or
// into the cached tensor (a write-back), which no other statement does.
// Runs before VerifyThreadBindings widens thread loops and InjectVirtualThread
// removes vthread loops: it sees the bindings as the schedule made them.
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/Bounds.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "passes/Passes.h"

#include <algorithm>
#include <set>

namespace sched {
namespace passes {

namespace {

using ir::Expr;
using ir::Stmt;
using ir::Var;
using ir::VarNode;
using ir::VarRanges;

Diag errorAt(const std::string &Message) {
  Diag D;
  D.Message = Message;
  return D;
}

bool isThreadLikeTag(const std::string &Tag) {
  return ir::isThreadIdxTag(Tag) || ir::isVirtualThreadTag(Tag);
}

/// The allocation of a stage and the loops that enclose it.
class StageFinder : public ir::IRVisitor {
public:
  explicit StageFinder(const std::string &Name) : Name(Name) {}
  const ir::AllocateNode *Found = nullptr;
  unsigned Count = 0;
  std::vector<const ir::ForNode *> Above;

protected:
  void visitFor(const ir::ForNode *N) override {
    Stack.push_back(N);
    ir::IRVisitor::visitFor(N);
    Stack.pop_back();
  }
  void visitAllocate(const ir::AllocateNode *N) override {
    if (N->Buf->Name == Name) {
      Found = N;
      Above = Stack;
      ++Count;
    }
    ir::IRVisitor::visitAllocate(N);
  }

private:
  std::string Name;
  std::vector<const ir::ForNode *> Stack;
};

/// The first thread-bound loop inside S that satisfies Pred (called with
/// the loop), or nullptr.
template <typename Pred> const ir::ForNode *findBoundLoopWhere(const Stmt &S, Pred P) {
  struct Finder : ir::IRVisitor {
    Pred P;
    const ir::ForNode *Found = nullptr;
    explicit Finder(Pred P) : P(P) {}
    void visitFor(const ir::ForNode *N) override {
      if (!Found && N->LoopKind == ir::ForKind::ThreadBound && P(N))
        Found = N;
      ir::IRVisitor::visitFor(N);
    }
  } F(P);
  F.visit(S);
  return F.Found;
}

/// The first loop inside S whose binding satisfies Pred, or nullptr.
template <typename Pred> const ir::ForNode *findBoundLoop(const Stmt &S, Pred P) {
  return findBoundLoopWhere(S, [&](const ir::ForNode *L) { return P(L->ThreadTag); });
}


/// Replaces one allocation (by identity) by a new statement.
class AllocateReplacer : public ir::IRMutator {
public:
  AllocateReplacer(const ir::AllocateNode *Old, Stmt New) : Old(Old), New(std::move(New)) {}

protected:
  Stmt mutateAllocate(const Stmt &S, const ir::AllocateNode *N) override {
    return N == Old ? New : ir::IRMutator::mutateAllocate(S, N);
  }

private:
  const ir::AllocateNode *Old;
  Stmt New;
};

bool containsStructurally(const std::vector<Expr> &Conds, const Expr &C) {
  return std::any_of(Conds.begin(), Conds.end(),
                     [&](const Expr &X) { return ir::structurallyEqual(X, C); });
}

std::vector<Expr> allConjuncts(const std::vector<Expr> &Guards) {
  std::vector<Expr> Out;
  for (const Expr &G : Guards)
    for (const Expr &C : ir::conjunctsOf(G))
      Out.push_back(C);
  return Out;
}

Expr conjunction(const std::vector<Expr> &Conds) {
  Expr Out;
  for (const Expr &C : Conds)
    Out = Out ? ir::makeBinary(ir::BinOp::And, Out, C) : C;
  return Out;
}

/// One cache stage being resolved.
class StageResolver {
public:
  StageResolver(ir::LoopNest &Nest, const ir::StageRegion &St,
                const std::set<const VarNode *> &Pending, std::vector<Diag> &Diags)
      : Nest(Nest), St(St), Pending(Pending), Diags(Diags) {}

  enum class Result { Done, NotReady, Failed };
  Result run();

private:
  ir::LoopNest &Nest;
  const ir::StageRegion &St;
  const std::set<const VarNode *> &Pending; // other stages' placeholders
  std::vector<Diag> &Diags;

  const ir::AllocateNode *Alloc = nullptr;
  std::vector<const ir::ForNode *> Above;
  std::string Where; // "at 'ko'" / "at the root of the nest"
  size_t Rank = 0, Lead = 0; // Lead: a double-buffered stage's copy index
  VarRanges Relaxed;         // loops above that range (a shared stage's threads)
  VarRanges Context;         // every loop above
  std::vector<ir::Access> Accesses;          // of the allocation's body, min := 0
  std::vector<const ir::Access *> Reads, Writes; // of the stage, copies excluded
  std::set<const ir::BufferNode *> Written;  // buffers the body writes
  std::vector<Expr> Origin, Extent;
  ir::Region Clip; // the guard-tightened region, in tensor coordinates

  /// An error about the stage, located at the directive that placed it.
  bool fail(const std::string &Message) {
    Diags.push_back(errorAt(Message));
    Diags.back().Loc = St.Loc; // at the stage's compute_at
    return false;
  }
  std::string stageName() const { return "stage '" + St.Name + "'"; }

  bool locate();
  bool checkEnclosedWriters();
  void classify();
  bool ready() const;
  bool inferRegion();
  VarRanges rangesOf(const ir::Access &A, size_t FirstLoop = 0) const;
  std::vector<Expr> tensorIndex(const ir::Access &A) const;
  bool writeBackIsBox(std::vector<Expr> &FixedGuards) const;
  bool covered(const ir::Access &R) const;
  Stmt mirror(const ir::Access &A, const ir::Buffer &Stage, bool WriteBack) const;
  bool mirrorable(const ir::Access &A) const;
  bool isWriteBack(const Stmt &S) const;
  bool writeBackUntouched(const std::string &Why);
  bool writeBackBound() const;
  Expr copyGuard(const std::vector<Expr> &TensorIdx, const VarRanges &Ranges,
                 const std::vector<Expr> &Extra) const;
  Stmt rewrite(bool BoxWriteBack, const std::vector<Expr> &FixedGuards,
               const std::vector<const ir::Access *> &ReadIns);
};

bool StageResolver::locate() {
  StageFinder F(St.Name);
  F.visit(Nest.Body);
  if (F.Count != 1)
    return fail(stageName() + " is allocated " + std::to_string(F.Count) +
                " times in the nest (expected once)");
  Alloc = F.Found;
  Above = F.Above;
  Where = Above.empty() ? "at the root of the nest" : "at '" + Above.back()->LoopVar->Name + "'";
  Rank = St.Mins.size();
  if (Alloc->Buf->Shape.size() < Rank || Alloc->Buf->Shape.size() > Rank + 1)
    return fail(stageName() + " has " + std::to_string(Alloc->Buf->Shape.size()) +
                " dimensions; expected " + std::to_string(Rank));
  Lead = Alloc->Buf->Shape.size() - Rank;
  bool Shared = Alloc->Buf->MemScope == ir::Scope::Shared;
  for (const ir::ForNode *L : Above) {
    Context[L->LoopVar.get()] = loopRange(L);
    if (Shared && L->LoopKind == ir::ForKind::ThreadBound && isThreadLikeTag(L->ThreadTag))
      Relaxed[L->LoopVar.get()] = loopRange(L);
  }
  return true;
}

bool StageResolver::checkEnclosedWriters() {
  if (!St.IsWrite)
    return true;
  if (const ir::ForNode *L = findBoundLoop(Alloc->Body, ir::isBlockTag))
    return fail("cannot write back " + stageName() + " " + Where + ": it encloses '" +
                L->LoopVar->Name + "', bound to " + L->ThreadTag +
                ", and one block cannot write back what the others computed (compute it at or "
                "inside '" + L->LoopVar->Name + "')");
  if (Alloc->Buf->MemScope == ir::Scope::Shared)
    return true;
  // A loop bound to a tag an enclosing loop already binds runs on the same
  // threads (a cooperative fetch's `Bs.t` inside the compute's `tx`): where
  // it leaves the stage alone, the stage stays one thread's. Any other
  // thread loop, or one that touches the stage, splits its work over threads.
  std::set<std::string> Held;
  for (const ir::ForNode *L : Above)
    if (L->LoopKind == ir::ForKind::ThreadBound && ir::isThreadIdxTag(L->ThreadTag))
      Held.insert(L->ThreadTag);
  const ir::BufferNode *Stage = Alloc->Buf.get();
  auto SplitsStage = [&](const ir::ForNode *L) {
    if (!ir::isThreadIdxTag(L->ThreadTag))
      return false;
    if (!Held.count(L->ThreadTag))
      return true;
    for (const ir::Access &A : ir::collectAccesses(L->Body))
      if (A.Buf.get() == Stage)
        return true;
    return false;
  };
  if (const ir::ForNode *L = findBoundLoopWhere(Alloc->Body, SplitsStage))
    return fail("cannot write back " + stageName() + " " + Where + ": a " +
                ir::scopeName(Alloc->Buf->MemScope) + " stage belongs to one thread, but it encloses '" +
                L->LoopVar->Name + "', bound to " + L->ThreadTag + " (compute it at or inside '" +
                L->LoopVar->Name + "', or make it shared)");
  return true;
}

void StageResolver::classify() {
  std::map<const VarNode *, Expr> ZeroMins;
  for (const Var &M : St.Mins)
    ZeroMins[M.get()] = ir::makeInt(0, M->Type);
  // With the region's first index at 0, the stage's indices are the
  // tensor's: the consumers' `i - As.min0` reads `i`.
  Accesses = ir::collectAccesses(ir::inlineLets(ir::substitute(Alloc->Body, ZeroMins)));
  const ir::BufferNode *Stage = Alloc->Buf.get();
  for (const ir::Access &A : Accesses) {
    if (A.IsWrite)
      Written.insert(A.Buf.get());
    if (A.Buf.get() != Stage)
      continue;
    const auto *Store = A.Statement && A.Statement->Kind == ir::StmtKind::Store
                            ? static_cast<const ir::StoreNode *>(A.Statement)
                            : nullptr;
    bool InCopy = St.IsWrite ? (!A.IsWrite && Store && Store->Buf == St.Cached) : A.IsWrite;
    if (InCopy)
      continue;
    (A.IsWrite ? Writes : Reads).push_back(&A);
  }
}

bool StageResolver::ready() const {
  auto Blocked = [&](const Expr &E) {
    for (const VarNode *V : ir::varsOf(E))
      if (Pending.count(V))
        return true;
    return false;
  };
  for (const ir::ForNode *L : Above)
    if (Blocked(L->Min) || Blocked(L->Extent))
      return false;
  for (const auto *List : {&Reads, &Writes})
    for (const ir::Access *A : *List) {
      for (const Expr &E : A->Indices)
        if (Blocked(E))
          return false;
      for (const Expr &E : A->Guards)
        if (Blocked(E))
          return false;
      for (const ir::ForNode *L : A->Loops)
        if (Blocked(L->Min) || Blocked(L->Extent))
          return false;
    }
  return true;
}

VarRanges StageResolver::rangesOf(const ir::Access &A, size_t FirstLoop) const {
  VarRanges R = Relaxed;
  for (size_t I = FirstLoop; I < A.Loops.size(); ++I)
    R[A.Loops[I]->LoopVar.get()] = loopRange(A.Loops[I]);
  return R;
}

std::vector<Expr> StageResolver::tensorIndex(const ir::Access &A) const {
  return std::vector<Expr>(A.Indices.begin() + std::min(Lead, A.Indices.size()), A.Indices.end());
}

bool StageResolver::inferRegion() {
  ir::Region Hull, Tight;
  bool First = true;
  for (const auto *List : {&Writes, &Reads})
    for (const ir::Access *A : *List) {
      std::vector<Expr> Idx = tensorIndex(*A);
      if (Idx.size() != Rank)
        return fail(stageName() + " is accessed with " + std::to_string(Idx.size()) +
                    " indices; expected " + std::to_string(Rank));
      VarRanges R = rangesOf(*A);
      ir::Region H = ir::boxOf(Idx, A->Guards, R, ir::GuardUse::Ignore);
      ir::Region T = ir::boxOf(Idx, A->Guards, R, ir::GuardUse::Tighten);
      for (size_t D = 0; D < Rank; ++D) {
        auto Join = [&](ir::Interval &Acc, const ir::Interval &I) {
          if (First) {
            Acc = I;
            return;
          }
          Acc.Min = Acc.Min && I.Min ? ir::simplify(ir::makeBinary(ir::BinOp::Min, Acc.Min, I.Min))
                                     : nullptr;
          Acc.Max = Acc.Max && I.Max ? ir::simplify(ir::makeBinary(ir::BinOp::Max, Acc.Max, I.Max))
                                     : nullptr;
        };
        if (First) {
          Hull.resize(Rank);
          Tight.resize(Rank);
        }
        Join(Hull[D], H[D]);
        Join(Tight[D], T[D]);
      }
      First = false;
    }
  if (First)
    return fail(stageName() + " is not used " + Where);
  // The origin is the unclipped region's first index (a simple expression,
  // io*64 rather than max(io*64, ...)); the size covers the clipped region.
  auto ConstantSize = [&](size_t D, Expr &Min, int64_t &Size) {
    if (!Tight[D].isBounded())
      return false;
    Min = Hull[D].isBounded() ? Hull[D].Min : Tight[D].Min;
    return ir::constantUpperBound(Tight[D].Max - Min + ir::makeInt(1), Context, Size) ||
           (Hull[D].isBounded() &&
            ir::constantUpperBound(Hull[D].Max - Min + ir::makeInt(1), Context, Size));
  };
  for (size_t D = 0; D < Rank; ++D) {
    Expr Min;
    int64_t Size, Whole;
    if (!ConstantSize(D, Min, Size)) {
      // A read stage may copy a whole dimension of constant extent there
      // (`C[(ijo*8 + iji)/M]` of a `float C[2][24]`): every index of a valid
      // program lies inside it, so the copy reads only elements of the
      // tensor, and covers every read. (A write-back may not: it would store
      // what the nest never wrote.)
      std::string Dim = " in dimension " + std::to_string(D);
      if (St.IsWrite || D >= St.Cached->Shape.size() ||
          !ir::getConstInt(St.Cached->Shape[D], Whole) || Whole <= 0) {
        if (!Tight[D].isBounded())
          return fail("cannot bound the region of " + stageName() + " " + Where + Dim);
        return fail("the region of " + stageName() + " " + Where + " has no constant size" + Dim +
                    " (it spans " + ir::print(Tight[D].Min) + " to " + ir::print(Tight[D].Max) +
                    "); compute it at an inner loop");
      }
      ir::DType T = St.Cached->Shape[D]->Type;
      Hull[D] = Tight[D] = ir::Interval{ir::makeInt(0, T), ir::makeInt(Whole - 1, T)};
      Min = Hull[D].Min;
      Size = Whole;
    }
    Origin.push_back(Min);
    Extent.push_back(ir::makeInt(std::max<int64_t>(Size, 1)));
  }
  Clip = Tight;
  return true;
}

/// Whether the write-back may copy the clipped box: one write covers all of
/// it, and every other write happens only where that one's fixed guards hold.
bool StageResolver::writeBackIsBox(std::vector<Expr> &FixedGuards) const {
  for (const ir::Access *W : Writes) {
    std::vector<Expr> Fixed;
    std::vector<Expr> Idx = tensorIndex(*W);
    VarRanges R = rangesOf(*W);
    if (!ir::coversBox(Idx, W->Guards, R, Context, Fixed))
      continue;
    ir::Region Box = ir::boxOf(Idx, W->Guards, R, ir::GuardUse::Tighten);
    bool Whole = true;
    for (size_t D = 0; D < Rank && Whole; ++D)
      Whole = Box[D].isBounded() && ir::provablyLessEq(Box[D].Min, Clip[D].Min, Context) &&
              ir::provablyLessEq(Clip[D].Max, Box[D].Max, Context);
    for (const ir::Access *Other : Writes) {
      if (Other == W)
        continue;
      std::vector<Expr> OtherGuards = allConjuncts(Other->Guards);
      for (const Expr &G : Fixed)
        Whole &= containsStructurally(OtherGuards, G);
    }
    if (Whole) {
      FixedGuards = Fixed;
      return true;
    }
  }
  return false;
}

/// Whether every element R reads has been written before, in the same
/// iteration of the loops enclosing both, by one write that covers R's region.
bool StageResolver::covered(const ir::Access &R) const {
  for (const ir::Access *W : Writes) {
    if (W >= &R) // program order: W comes first
      break;
    if (W->Statement == R.Statement)
      continue;
    size_t Common = 0;
    while (Common < W->Loops.size() && Common < R.Loops.size() &&
           W->Loops[Common] == R.Loops[Common])
      ++Common;
    VarRanges Ctx = Context;
    for (size_t I = 0; I < Common; ++I)
      Ctx[W->Loops[I]->LoopVar.get()] = loopRange(W->Loops[I]);
    // Guards R shares with W hold whenever R runs.
    std::vector<Expr> RGuards = allConjuncts(R.Guards), WGuards;
    for (const Expr &G : allConjuncts(W->Guards))
      if (!containsStructurally(RGuards, G))
        WGuards.push_back(G);
    std::vector<Expr> Fixed;
    std::vector<Expr> WIdx = tensorIndex(*W), RIdx = tensorIndex(R);
    VarRanges WR = rangesOf(*W, Common), RR = rangesOf(R, Common);
    if (!ir::coversBox(WIdx, WGuards, WR, Ctx, Fixed) || !Fixed.empty())
      continue;
    ir::Region WBox = ir::boxOf(WIdx, WGuards, WR, ir::GuardUse::Tighten);
    ir::Region RBox = ir::boxOf(RIdx, R.Guards, RR, ir::GuardUse::Tighten);
    bool Inside = true;
    for (size_t D = 0; D < Rank && Inside; ++D)
      Inside = WBox[D].isBounded() && RBox[D].isBounded() &&
               ir::provablyLessEq(WBox[D].Min, RBox[D].Min, Ctx) &&
               ir::provablyLessEq(RBox[D].Max, WBox[D].Max, Ctx);
    if (Inside)
      return true;
  }
  return false;
}

/// A mirror re-evaluates A's loop bounds and guards at another time: only
/// when they read nothing the computation writes.
bool StageResolver::mirrorable(const ir::Access &A) const {
  for (const Expr &G : A.Guards)
    if (ir::loadsFrom(G, Written))
      return false;
  for (const ir::ForNode *L : A.Loops)
    if (ir::loadsFrom(L->Min, Written) || ir::loadsFrom(L->Extent, Written))
      return false;
  return true;
}

bool StageResolver::isWriteBack(const Stmt &S) const {
  return ir::writesBuffer(S, St.Cached.get());
}

/// Whether the schedule bound a loop of the write-back to threads.
bool StageResolver::writeBackBound() const {
  const auto *Seq = ir::as<ir::SeqNode>(Alloc->Body);
  for (const Stmt &E : Seq ? Seq->Stmts : std::vector<Stmt>{Alloc->Body})
    if (isWriteBack(E) && findBoundLoop(E, ir::isThreadIdxTag))
      return true;
  return false;
}

/// A mirrored write-back replaces the write-back loops cache_write made: only
/// when the schedule left them as they were (Cl.ax0, Cl.ax1, ... serial).
bool StageResolver::writeBackUntouched(const std::string &Why) {
  const auto *Seq = ir::as<ir::SeqNode>(Alloc->Body);
  for (const Stmt &E : Seq ? Seq->Stmts : std::vector<Stmt>{Alloc->Body}) {
    if (!isWriteBack(E))
      continue;
    Stmt S = E;
    for (size_t D = 0; D < Rank; ++D) {
      const auto *L = ir::as<ir::ForNode>(S);
      std::string Name = St.Name + ".ax" + std::to_string(D);
      if (!L || L->LoopVar->Name != Name || L->LoopKind != ir::ForKind::Serial)
        return fail("cannot write back " + stageName() + " " + Where + " as scheduled: " + Why +
                    ", so the write-back must follow the computation's own loops and '" + Name +
                    "' cannot be scheduled");
      S = L->Body;
    }
  }
  return true;
}

/// A copy of A's loops and guards around a copy of exactly the element A
/// touches: C[idx] = stage[idx - origin] (write-back) or stage[...] = C[idx]
/// (the load of a stage that starts from C's values). Loops the element does
/// not depend on are dropped, keeping only their "runs at least once" test.
Stmt StageResolver::mirror(const ir::Access &A, const ir::Buffer &Stage, bool WriteBack) const {
  std::map<const VarNode *, Expr> Fresh;
  std::map<const VarNode *, Var> FreshVars;
  for (const ir::ForNode *L : A.Loops) {
    Var V = ir::makeVar(St.Name + "." + L->LoopVar->Name, L->LoopVar->Type);
    FreshVars[L->LoopVar.get()] = V;
    Fresh[L->LoopVar.get()] = V;
  }
  auto Sub = [&](const Expr &E) { return ir::simplify(ir::substitute(E, Fresh)); };
  std::vector<Expr> TensorIdx, StageIdx;
  for (size_t D = 0; D < A.Indices.size(); ++D) {
    Expr Idx = Sub(A.Indices[D]);
    if (D < Lead) {
      StageIdx.push_back(Idx);
      continue;
    }
    TensorIdx.push_back(Idx);
    StageIdx.push_back(ir::simplify(Idx - Origin[D - Lead]));
  }
  Stmt Body = WriteBack ? ir::makeStore(St.Cached, TensorIdx, ir::makeLoad(Stage, StageIdx))
                        : ir::makeStore(Stage, StageIdx, ir::makeLoad(St.Cached, TensorIdx));
  // Loops the element depends on are copied (with the loops their bounds
  // use); the others only decide whether A happens at all, which their
  // existence condition says (`ko*8 + ki < K` over ko, ki: 0 < K).
  std::set<const VarNode *> Keep;
  for (const Expr &E : A.Indices)
    for (const VarNode *V : ir::varsOf(E))
      Keep.insert(V);
  for (size_t I = A.Loops.size(); I-- > 0;)
    if (Keep.count(A.Loops[I]->LoopVar.get()))
      for (const Expr &E : {A.Loops[I]->Min, A.Loops[I]->Extent})
        for (const VarNode *V : ir::varsOf(E))
          Keep.insert(V);
  VarRanges Free;
  for (const ir::ForNode *L : A.Loops)
    if (!Keep.count(L->LoopVar.get()))
      Free[L->LoopVar.get()] = loopRange(L);
  std::vector<Expr> Conds = allConjuncts(A.Guards), OnFree, Guards;
  for (const Expr &C : Conds) {
    bool UsesFree = false;
    for (const VarNode *V : ir::varsOf(C))
      UsesFree |= Free.count(V) != 0;
    (UsesFree ? OnFree : Guards).push_back(C);
  }
  if (!ir::existenceCondition(OnFree, Free, Guards)) {
    Guards = Conds; // keep every loop
    for (const ir::ForNode *L : A.Loops)
      Keep.insert(L->LoopVar.get());
  }
  std::vector<Expr> Kept;
  for (const Expr &G : Guards) {
    Expr S = Sub(G);
    int64_t V;
    if (!(ir::getConstInt(S, V) && V))
      Kept.push_back(S);
  }
  if (Expr G = conjunction(Kept))
    Body = ir::makeIf(G, Body);
  for (size_t I = A.Loops.size(); I-- > 0;) {
    const ir::ForNode *L = A.Loops[I];
    if (!Keep.count(L->LoopVar.get()))
      continue;
    bool Bound = L->LoopKind == ir::ForKind::ThreadBound;
    Body = ir::makeFor(FreshVars[L->LoopVar.get()], Sub(L->Min), Sub(L->Extent), Body,
                       Bound ? ir::ForKind::ThreadBound : ir::ForKind::Serial,
                       Bound ? L->ThreadTag : "");
  }
  return Body;
}

/// Where the copy may touch C at TensorIdx: inside the clipped region,
/// inside the tensor, and where Extra holds; conditions Ranges proves are
/// left out.
Expr StageResolver::copyGuard(const std::vector<Expr> &TensorIdx, const VarRanges &Ranges,
                              const std::vector<Expr> &Extra) const {
  std::vector<Expr> Conds;
  auto Add = [&](const Expr &C) {
    Expr S = ir::simplify(C, &Ranges);
    int64_t V;
    if (ir::getConstInt(S, V) && V)
      return;
    if (!containsStructurally(Conds, S))
      Conds.push_back(S);
  };
  for (size_t D = 0; D < Rank; ++D) {
    const Expr &X = TensorIdx[D];
    std::vector<Expr> Lows = ir::minMaxArms(Clip[D].Min, ir::BinOp::Max);
    Lows.push_back(ir::makeInt(0, X->Type));
    for (const Expr &Low : Lows)
      if (!ir::provablyLessEq(Low, X, Ranges))
        Add(ir::makeBinary(ir::BinOp::GE, X, Low));
    std::vector<Expr> Highs = ir::minMaxArms(Clip[D].Max, ir::BinOp::Min);
    for (Expr &High : Highs)
      High = ir::simplify(High + ir::makeInt(1, High->Type));
    Highs.push_back(St.Cached->Shape[D]);
    for (const Expr &High : Highs)
      if (!ir::provablyLessEq(X + ir::makeInt(1, X->Type), High, Ranges))
        Add(X < High);
  }
  for (const Expr &E : Extra)
    Add(E);
  return conjunction(Conds);
}

/// The allocation with the placeholders replaced, the copies guarded, the
/// write-back mirrored where it cannot be a box and the loads of C added.
Stmt StageResolver::rewrite(bool BoxWriteBack, const std::vector<Expr> &FixedGuards,
                            const std::vector<const ir::Access *> &ReadIns) {
  std::map<const VarNode *, Expr> Map;
  for (size_t D = 0; D < Rank; ++D) {
    Map[St.Mins[D].get()] = Origin[D];
    Map[St.Extents[D].get()] = Extent[D];
  }
  std::vector<Expr> Shape;
  for (const Expr &E : Alloc->Buf->Shape)
    Shape.push_back(ir::simplify(ir::substitute(E, Map)));
  ir::Buffer Stage = ir::makeBuffer(St.Name, Alloc->Buf->Type, Shape, Alloc->Buf->MemScope);
  Stmt Body = ir::substitute(Alloc->Body, Map);
  Body = ir::remapBuffer(Body, Alloc->Buf.get(), Stage,
                         [](const std::vector<Expr> &Indices) { return Indices; });

  // The copy of a read stage, or a box write-back: guarded by the clipped
  // region, in terms of the stage index (origin + index is C's index).
  struct CopyGuarder : ir::IRMutator {
    const StageResolver &R;
    const ir::BufferNode *StageBuf;
    bool Guard;
    const std::vector<Expr> &Extra;
    VarRanges Ranges;
    CopyGuarder(const StageResolver &R, const ir::BufferNode *B, bool Guard,
                const std::vector<Expr> &Extra)
        : R(R), StageBuf(B), Guard(Guard), Extra(Extra), Ranges(R.Context) {}
    Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
      Ranges[N->LoopVar.get()] = loopRange(N);
      Stmt Out = ir::IRMutator::mutateFor(S, N);
      Ranges.erase(N->LoopVar.get());
      return Out;
    }
    Stmt mutateStore(const Stmt &S, const ir::StoreNode *N) override {
      const std::vector<Expr> *StageIdx = nullptr;
      if (!R.St.IsWrite && N->Buf.get() == StageBuf)
        StageIdx = &N->Indices;
      const auto *L = ir::as<ir::LoadNode>(N->Value);
      if (R.St.IsWrite && N->Buf == R.St.Cached && L && L->Buf.get() == StageBuf)
        StageIdx = &L->Indices;
      if (!StageIdx || !Guard)
        return S;
      std::vector<Expr> TensorIdx;
      for (size_t D = R.Lead; D < StageIdx->size(); ++D)
        TensorIdx.push_back(ir::simplify(R.Origin[D - R.Lead] + (*StageIdx)[D]));
      Expr G = R.copyGuard(TensorIdx, Ranges, Extra);
      return G ? ir::makeIf(G, S) : S;
    }
  };
  CopyGuarder Guarder(*this, Stage.get(), !St.IsWrite || BoxWriteBack, FixedGuards);
  Body = Guarder.mutate(Body);

  std::vector<Stmt> Parts;
  const auto *Seq = ir::as<ir::SeqNode>(Body);
  std::vector<Stmt> Elems = Seq ? Seq->Stmts : std::vector<Stmt>{Body};
  for (const ir::Access *R : ReadIns)
    Parts.push_back(mirror(*R, Stage, /*WriteBack=*/false));
  for (const Stmt &E : Elems) {
    if (!St.IsWrite || BoxWriteBack || !isWriteBack(E)) {
      Parts.push_back(E);
      continue;
    }
    for (const ir::Access *W : Writes)
      Parts.push_back(mirror(*W, Stage, /*WriteBack=*/true));
  }
  return ir::simplify(ir::makeAllocate(Stage, ir::makeSeq(Parts)));
}

StageResolver::Result StageResolver::run() {
  if (!locate())
    return Result::Failed;
  classify();
  if (!ready())
    return Result::NotReady;
  if (!checkEnclosedWriters() || !inferRegion())
    return Result::Failed;

  bool BoxWriteBack = true;
  std::vector<Expr> FixedGuards;
  std::vector<const ir::Access *> ReadIns;
  if (St.IsWrite) {
    // A shared stage's box write-back is one copy for the whole block: it
    // needs its loops bound to the block's threads (the schedule did), or
    // every thread would store all of it. Left as it was, the write-back
    // mirrors the computation instead, and each thread stores what it wrote.
    bool Shared = Alloc->Buf->MemScope == ir::Scope::Shared;
    std::string Why = Shared ? "a shared stage's write-back not bound to threads stores what each "
                               "thread wrote"
                             : "the computation does not write every element of its region";
    BoxWriteBack = (!Shared || writeBackBound()) && writeBackIsBox(FixedGuards);
    if (!BoxWriteBack) {
      for (const ir::Access *W : Writes)
        if (!mirrorable(*W)) {
          fail("cannot write back " + stageName() + " " + Where + " exactly: " + Why +
               ", and the guards of its writes read memory it writes");
          return Result::Failed;
        }
      if (!writeBackUntouched(Why))
        return Result::Failed;
    }
    for (const ir::Access *R : Reads)
      if (!covered(*R)) {
        if (!mirrorable(*R)) {
          fail("cannot load " + stageName() + " " + Where +
               " from its tensor: the guards of its reads read memory the computation writes");
          return Result::Failed;
        }
        ReadIns.push_back(R);
      }
  }
  Stmt New = rewrite(BoxWriteBack, FixedGuards, ReadIns);
  AllocateReplacer Replace(Alloc, New);
  Nest.Body = Replace.mutate(Nest.Body);
  return Result::Done;
}

} // namespace

ir::LoopNest inferBounds(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  ir::LoopNest Out = Nest;
  std::vector<ir::StageRegion> Pending = Nest.Stages;
  Out.Stages.clear();
  for (const ir::StageRegion &St : Pending)
    Out.StageLocs[St.Name] = St.Loc;
  while (!Pending.empty()) {
    bool Progress = false;
    for (size_t I = 0; I < Pending.size(); ++I) {
      std::set<const VarNode *> Others;
      for (size_t J = 0; J < Pending.size(); ++J)
        if (J != I)
          for (const auto *List : {&Pending[J].Mins, &Pending[J].Extents})
            for (const Var &V : *List)
              Others.insert(V.get());
      StageResolver R(Out, Pending[I], Others, Diags);
      StageResolver::Result Res = R.run();
      if (Res == StageResolver::Result::Failed)
        return Out;
      if (Res == StageResolver::Result::Done) {
        Pending.erase(Pending.begin() + I);
        Progress = true;
        break;
      }
    }
    if (!Progress) {
      std::string Names;
      for (const ir::StageRegion &St : Pending)
        Names += (Names.empty() ? "'" : ", '") + St.Name + "'";
      Diags.push_back(errorAt("the regions of stages " + Names + " depend on each other"));
      return Out;
    }
  }
  return Out;
}

const Pass BoundInferencePass = {
    "BoundInference", /*Requires=*/FormAny, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      S.Nest = inferBounds(S.Nest, S.Diags);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
