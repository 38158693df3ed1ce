//===- CacheWrite.cpp - cache_write(T, scope, Name) ---===//
//
// cache_write(C, local, Cl): the computation writes (and, for `+=`
// reductions, reads) Cl instead of C, and a write-back stage Cl.ax* after it
// copies Cl to C: allocate Cl { nest'; for Cl.ax0 { ... C[..] = Cl[..] } },
// with the region symbolic like a read stage's (CacheRead.cpp). compute_at
// moves the write-back to the end of a loop's body. What the write-back
// finally stores is decided by bound inference: exactly the elements the
// computation writes there, and the stage starts from C's values where the
// computation reads an element before writing it.
//
// cache_write(C, wmma.accumulator, Cf) caches the output in tensor-core
// accumulator fragments. A fragment is the accumulator itself, so where the
// nest accumulates in a local array (`float acc = 0; for k: acc += ...;
// C[..] = acc`, as the extractor gives the usual way of writing a
// reduction) the computation accumulates in Cf instead: `Cf[..] = 0; for k:
// Cf[..] = Cf[..] + ...` (foldAccumulatorIntoStage). Its initialisation then
// becomes a fill and its update an mma (passes/gpu/TensorizeWmma.cpp).
//
//===----------------------------------------------------------------------===//

#include "ir/Affine.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Simplify.h"
#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

bool applyCacheWrite(ScheduleState &S, const Directive &D) { return makeCacheStage(S, D, true); }

namespace {

/// The stores into Stage, with the loops around each (outermost first).
class StageStores : public IRVisitor {
public:
  explicit StageStores(const BufferNode *Stage) : Stage(Stage) {}
  struct Found {
    const StoreNode *Store;
    std::vector<const ForNode *> Loops;
  };
  std::vector<Found> Stores;

protected:
  void visitFor(const ForNode *N) override {
    Loops.push_back(N);
    IRVisitor::visitFor(N);
    Loops.pop_back();
  }
  void visitStore(const StoreNode *N) override {
    if (N->Buf.get() == Stage)
      Stores.push_back({N, Loops});
    IRVisitor::visitStore(N);
  }

private:
  const BufferNode *Stage;
  std::vector<const ForNode *> Loops;
};

/// Rewrites acc[e] into Stage[Target(e)], drops acc's allocation and the
/// copy nest (the loop or store Copy) that moved acc into Stage.
class AccumulatorFolder : public IRMutator {
public:
  /// KeepCopy: the copy computes Stage[g] = f(acc[h]) (an epilogue): it
  /// stays, as Stage[g] = f(Stage[g]).
  AccumulatorFolder(const BufferNode *Acc, Buffer Stage, const StmtNode *Copy, bool KeepCopy,
                    std::function<std::vector<Expr>(const std::vector<Expr> &)> Target)
      : Acc(Acc), Stage(std::move(Stage)), Copy(KeepCopy ? nullptr : Copy),
        Target(std::move(Target)) {}

protected:
  Expr mutateLoad(const Expr &E, const LoadNode *N) override {
    Expr Out = IRMutator::mutateLoad(E, N);
    const auto *L = as<LoadNode>(Out);
    if (!L || L->Buf.get() != Acc)
      return Out;
    return makeLoad(Stage, Target(L->Indices));
  }
  Stmt mutateStore(const Stmt &S, const StoreNode *N) override {
    if (N == Copy)
      return makeSeq({});
    Stmt Out = IRMutator::mutateStore(S, N);
    const auto *St = as<StoreNode>(Out);
    if (!St || St->Buf.get() != Acc)
      return Out;
    std::vector<Expr> Idx = Target(St->Indices);
    // acc = C[g] of an output accumulated in place becomes Stage[g] =
    // Stage[g]: nothing to do (the stage starts from C's values).
    Expr Value = St->Value;
    if (const auto *Same = as<CastNode>(Value))
      Value = Same->Type == Same->Value->Type ? Same->Value : Value;
    const auto *Self = as<LoadNode>(Value);
    if (Self && Self->Buf == Stage && Self->Indices.size() == Idx.size()) {
      bool Same = true;
      for (size_t D = 0; D < Idx.size(); ++D)
        Same &= structurallyEqual(simplify(Self->Indices[D]), simplify(Idx[D]));
      if (Same)
        return makeSeq({});
    }
    return makeStoreLike(St, Stage, Idx, St->Value);
  }
  Stmt mutateFor(const Stmt &S, const ForNode *N) override {
    if (N == Copy)
      return makeSeq({});
    return IRMutator::mutateFor(S, N);
  }
  Stmt mutateAllocate(const Stmt &S, const AllocateNode *N) override {
    if (N->Buf.get() == Acc)
      return mutate(N->Body);
    return IRMutator::mutateAllocate(S, N);
  }

private:
  const BufferNode *Acc;
  Buffer Stage;
  const StmtNode *Copy;
  std::function<std::vector<Expr>(const std::vector<Expr> &)> Target;
};

/// The accesses of Stage, each with its loops (outermost first) and its
/// place in program order (a load counts as its statement's).
class StageUses : public IRVisitor {
public:
  explicit StageUses(const BufferNode *Stage) : Stage(Stage) {}
  struct Use {
    const std::vector<Expr> *Indices;
    std::vector<const ForNode *> Loops;
    size_t Order;
  };
  std::vector<Use> Loads, Stores;

protected:
  void visitFor(const ForNode *N) override {
    Loops.push_back(N);
    IRVisitor::visitFor(N);
    Loops.pop_back();
  }
  void visitLoad(const LoadNode *N) override {
    if (N->Buf.get() == Stage)
      Loads.push_back({&N->Indices, Loops, Count});
    IRVisitor::visitLoad(N);
  }
  void visitStore(const StoreNode *N) override {
    IRVisitor::visitStore(N);
    if (N->Buf.get() == Stage)
      Stores.push_back({&N->Indices, Loops, Count});
    ++Count;
  }

private:
  const BufferNode *Stage;
  std::vector<const ForNode *> Loops;
  size_t Count = 0;
};

/// Whether every iteration of Loops (constant extents) gives Indices an
/// element of its own: each index an exact mixed-radix sum of loop variables
/// (by increasing coefficient, each one more than what the smaller terms
/// reach), every loop of more than one iteration in one term.
bool oneElementPerIteration(const std::vector<Expr> &Indices,
                            const std::vector<const ForNode *> &Loops) {
  std::map<const VarNode *, int64_t> Extent;
  for (const ForNode *L : Loops)
    if (!getConstInt(L->Extent, Extent[L->LoopVar.get()]))
      return false;
  std::set<const VarNode *> Used;
  for (const Expr &Index : Indices) {
    AffineForm F;
    if (!toAffine(Index, [&](const VarNode *V) { return Extent.count(V) != 0; }, F))
      return false;
    std::vector<std::pair<int64_t, int64_t>> Terms; // |coefficient|, extent
    for (const auto &[V, Coef] : F.Coefs) {
      int64_t C;
      if (!getConstInt(simplify(Coef), C) || !Used.insert(V).second)
        return false;
      if (Extent[V] > 1)
        Terms.push_back({C < 0 ? -C : C, Extent[V]});
    }
    std::sort(Terms.begin(), Terms.end());
    int64_t Reach = 0;
    for (const auto &[Coef, Count] : Terms) {
      if (Coef != Reach + 1)
        return false;
      Reach += Coef * (Count - 1);
    }
  }
  for (const auto &[V, E] : Extent)
    if (E > 1 && !Used.count(V))
      return false;
  return true;
}

/// Stage[g] = T(e) with e int32 becomes Stage[g] = e (storeUnnarrowedIntoVtaAcc).
class StripNarrowing : public IRMutator {
public:
  explicit StripNarrowing(const BufferNode *Stage) : Stage(Stage) {}

protected:
  Stmt mutateStore(const Stmt &S, const StoreNode *N) override {
    Stmt Out = IRMutator::mutateStore(S, N);
    const auto *St = as<StoreNode>(Out);
    const auto *Narrow = St && St->Buf.get() == Stage ? as<CastNode>(St->Value) : nullptr;
    if (!Narrow || Narrow->Value->Type != DType::Int32 || !isInt(Narrow->Type))
      return Out;
    return makeStoreLike(St, St->Buf, St->Indices, Narrow->Value);
  }

private:
  const BufferNode *Stage;
};

/// The loads in an expression.
class LoadCollector : public IRVisitor {
public:
  std::vector<const LoadNode *> Loads;

protected:
  void visitLoad(const LoadNode *N) override {
    Loads.push_back(N);
    IRVisitor::visitLoad(N);
  }
};

} // namespace

void foldAccumulatorIntoStage(ScheduleState &S, const Buffer &Stage, bool AllowEpilogue) {
  StageStores Finder(Stage.get());
  Finder.visit(S.Nest.Body);
  if (Finder.Stores.size() != 1)
    return;
  const StageStores::Found &Copy = Finder.Stores[0];
  const auto *Value = as<LoadNode>(Copy.Store->Value);
  bool Epilogue = false;
  if (!Value && AllowEpilogue) {
    // Stage[g] = f(acc[h]): acc's only load in the value.
    LoadCollector Loads;
    Loads.visit(Copy.Store->Value);
    if (Loads.Loads.size() == 1) {
      Value = Loads.Loads[0];
      Epilogue = true;
    }
  }
  if (!Value || Value->Buf->MemScope != Scope::Local || Value->Buf->Type != Stage->Type)
    return;
  const BufferNode *Acc = Value->Buf.get();
  // The copy `Stage[g] = acc[h]`: each index of acc a distinct loop of the
  // copy nest (those loops enclosing nothing else), or a constant every
  // access of acc uses (a scalar acc[0]).
  std::vector<const ForNode *> CopyLoops;
  std::map<const VarNode *, size_t> DimOfVar;
  for (size_t D = 0; D < Value->Indices.size(); ++D) {
    const auto *V = as<VarNode>(Value->Indices[D]);
    int64_t C;
    if (!V && !getConstInt(Value->Indices[D], C))
      return;
    if (V && !DimOfVar.emplace(V, D).second)
      return;
  }
  // The copy nest is the innermost loops around the store over acc's
  // index variables, each holding only the next.
  const StmtNode *CopyRoot = Copy.Store;
  for (size_t I = Copy.Loops.size(); I-- > 0;) {
    const ForNode *L = Copy.Loops[I];
    if (!DimOfVar.count(L->LoopVar.get()) || L->Body.get() != CopyRoot)
      break;
    CopyRoot = L;
    CopyLoops.push_back(L);
  }
  if (CopyLoops.size() != DimOfVar.size())
    return;
  const AllocateNode *AccAlloc = findAllocate(S.Nest.Body, Value->Buf.get());
  if (!AccAlloc)
    return;
  std::vector<Expr> CopyIdx = Value->Indices;
  std::vector<Expr> StageIdx = Copy.Store->Indices;
  // Stage's index may use the copy loops (replaced by acc's index at each
  // access) and variables defined outside acc, which every access sees.
  for (const ForNode *L : collectLoops(AccAlloc->Body))
    if (!DimOfVar.count(L->LoopVar.get()))
      for (const Expr &E : StageIdx)
        if (usesVar(E, L->LoopVar.get()))
          return;
  bool Consistent = true;
  auto Target = [&](const std::vector<Expr> &AccIdx) {
    std::map<const VarNode *, Expr> Map;
    for (size_t D = 0; D < AccIdx.size() && D < CopyIdx.size(); ++D) {
      if (const auto *V = as<VarNode>(CopyIdx[D]))
        Map[V] = AccIdx[D];
      else if (!structurallyEqual(simplify(CopyIdx[D]), simplify(AccIdx[D])))
        Consistent = false;
    }
    std::vector<Expr> Out;
    for (const Expr &E : StageIdx)
      Out.push_back(simplify(substitute(E, Map)));
    return Out;
  };
  AccumulatorFolder Folder(Acc, Stage, CopyRoot, Epilogue, Target);
  Stmt Folded = Folder.mutate(S.Nest.Body);
  if (Consistent)
    S.Nest.Body = Folded;
}

Stmt storeUnnarrowedIntoVtaAcc(const Stmt &Computation, const Buffer &Stage) {
  // C[..] = (int8_t)e computed into an int32 stage: the stage keeps e and the
  // write-back narrows it (C = int8(Cb)), which stores the same bytes. Not
  // where the nest reads the stage back: it would see e, not its narrowing.
  // A read of the element before the nest writes it, at its index in the
  // same iteration (`int acc = C[i][j]; ...; C[i][j] = (int8_t)acc`: the
  // output accumulated in place), sees C's value, which is no narrowing:
  // where each iteration has an element of its own, no read sees one.
  StageUses Uses(Stage.get());
  Uses.visit(Computation);
  bool InitialValuesOnly = Uses.Stores.size() == 1;
  for (const StageUses::Use &R : Uses.Loads) {
    if (!InitialValuesOnly)
      break;
    const StageUses::Use &W = Uses.Stores[0];
    InitialValuesOnly = R.Loops == W.Loops && R.Order < W.Order &&
                        structurallyEqual(*R.Indices, *W.Indices) &&
                        oneElementPerIteration(*W.Indices, W.Loops);
  }
  if (!Uses.Loads.empty() && !InitialValuesOnly)
    return Computation;
  return StripNarrowing(Stage.get()).mutate(Computation);
}

} // namespace schedule
} // namespace sched
