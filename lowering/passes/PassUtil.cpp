//===- PassUtil.cpp - Small helpers shared by the passes -----------------===//
//
// See PassUtil.h. Proofs go through ir/Prove.h and ir::simplify: the one
// simplifier.
//
//===----------------------------------------------------------------------===//
#include "passes/PassUtil.h"
#include "ir/Dependence.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Intrinsics.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"
#include "ir/Vta.h"

namespace sched {
namespace passes {

ir::Stmt makeBarrier() {
  return ir::makeEvaluate(ir::makeCall("sched.syncthreads", {}, ir::DType::Int32));
}

bool isBarrierCall(const ir::Expr &E) {
  const auto *C = ir::as<ir::CallNode>(E);
  const ir::IntrinsicInfo *Info = C ? ir::lookupIntrinsic(C->Name) : nullptr;
  return Info && Info->IsBarrier;
}

bool isBarrier(const ir::Stmt &S) {
  const auto *E = ir::as<ir::EvaluateNode>(S);
  return E && isBarrierCall(E->Value);
}

void RegionScan::visitFor(const ir::ForNode *N) {
  if (N->LoopKind == ir::ForKind::ThreadBound && !BoundLoop)
    BoundLoop = N;
  Loops.push_back(N);
  ir::IRVisitor::visitFor(N);
  Loops.pop_back();
}

void RegionScan::visitIfThenElse(const ir::IfThenElseNode *N) {
  ir::Expr Saved = Guard;
  Guard = N->Cond;
  ir::IRVisitor::visitIfThenElse(N);
  Guard = Saved;
}

void RegionScan::visitStore(const ir::StoreNode *N) { Stores.push_back({N, Loops, Guard}); }

void RegionScan::visitEvaluate(const ir::EvaluateNode *N) { Others.push_back(N); }

std::vector<StoreSite> RegionScan::of(const ir::Stmt &S) {
  RegionScan Scan;
  Scan.visit(S);
  return Scan.Stores;
}

bool vtaElementIndex(const ir::LoadNode *L, ir::Expr &Out, std::string &Why) {
  int64_t Lanes = ir::vtaElementLanes(L->Buf->MemScope);
  if (Lanes == 0) {
    Why = "'" + L->Buf->Name + "' is not a VTA stage buffer (" + ir::scopeName(L->Buf->MemScope) + ")";
    return false;
  }
  Out = divideExactly(flatIndex(L->Buf->Shape, L->Indices), Lanes);
  if (!Out)
    Why = "it does not provably start a " + std::to_string(Lanes) + "-lane element of '" +
          L->Buf->Name + "' (" + ir::scopeName(L->Buf->MemScope) + ")";
  return Out != nullptr;
}

static void collectStoreNest(const ir::Stmt &S, StoreNest &N) {
  if (const auto *F = ir::as<ir::ForNode>(S)) {
    N.Loops.push_back(F);
    collectStoreNest(F->Body, N);
  } else if (const auto *St = ir::as<ir::StoreNode>(S)) {
    if (N.Store && !N.Other)
      N.Other = St;
    N.Store = St;
  } else if (const auto *Q = ir::as<ir::SeqNode>(S)) {
    for (const ir::Stmt &X : Q->Stmts)
      collectStoreNest(X, N);
  } else if (!N.Other) {
    N.Other = S.get();
  }
}

ir::Expr updateTerm(const ir::StoreNode *St) {
  const auto *Sum = ir::as<ir::BinaryNode>(St->Value);
  if (!Sum || Sum->Op != ir::BinOp::Add)
    return nullptr;
  for (bool SelfLeft : {true, false}) {
    const auto *Self = ir::as<ir::LoadNode>(SelfLeft ? Sum->A : Sum->B);
    if (Self && Self->Buf == St->Buf && ir::provablyEqualIndices(Self->Indices, St->Indices))
      return SelfLeft ? Sum->B : Sum->A;
  }
  return nullptr;
}

StoreNest storeNestOf(const ir::Stmt &S) {
  StoreNest N;
  collectStoreNest(S, N);
  return N;
}

bool hasWarpCollective(const ir::Stmt &S, bool LanesOnX) {
  class Finder : public ir::IRVisitor {
  public:
    bool LanesOnX = false;
    bool Found = false;

  protected:
    void visitCall(const ir::CallNode *N) override {
      const ir::IntrinsicInfo *Info = ir::lookupIntrinsic(N->Name);
      Found |= Info && Info->IsWarpCollective && (!LanesOnX || Info->LanesAreThreadIdxX);
      ir::IRVisitor::visitCall(N);
    }
  } F;
  F.LanesOnX = LanesOnX;
  F.visit(S);
  return F.Found;
}

bool isThreadIdxLoop(const ir::ForNode *N) {
  return N->LoopKind == ir::ForKind::ThreadBound && ir::isThreadIdxTag(N->ThreadTag);
}

namespace {
/// The threadIdx dimensions whose loops enclose each allocation.
class AllocationThreadDims : public ir::IRVisitor {
public:
  std::map<const ir::BufferNode *, unsigned> DimsAround;

protected:
  void visitFor(const ir::ForNode *N) override {
    ScopedValue<unsigned> Saved(Dims);
    if (isThreadIdxLoop(N))
      Dims |= 1u << ir::threadTagDim(N->ThreadTag);
    ir::IRVisitor::visitFor(N);
  }
  void visitAllocate(const ir::AllocateNode *N) override {
    DimsAround[N->Buf.get()] = Dims;
    ir::IRVisitor::visitAllocate(N);
  }

private:
  unsigned Dims = 0;
};

unsigned threadDimsOf(const ir::Access &A) {
  unsigned Dims = 0;
  for (const ir::ForNode *L : A.Loops)
    if (isThreadIdxLoop(L))
      Dims |= 1u << ir::threadTagDim(L->ThreadTag);
  return Dims;
}

/// Whether the thread reading R may not be the one that wrote W.
bool readByAnotherThread(const ir::Access &W, const ir::Access &R, unsigned DimsAroundAlloc,
                         const std::map<std::string, int64_t> &BlockExtent) {
  // A write outside the loop of a dim runs on every thread of it: the
  // reader's own thread along that dim wrote the element too, so there the
  // reader's index is as free as a serial loop's and the dim is no
  // coordinate. Nor is a dim whose loop encloses the allocation.
  unsigned WriterEverywhere = ~threadDimsOf(W) & 7u;
  ir::Access Reader = R;
  std::vector<ir::Stmt> StandIns;
  for (const ir::ForNode *&L : Reader.Loops)
    if (isThreadIdxLoop(L) && WriterEverywhere & (1u << ir::threadTagDim(L->ThreadTag))) {
      StandIns.push_back(ir::withKind(L, ir::ForKind::Serial, ""));
      L = ir::as<ir::ForNode>(StandIns.back());
    }
  std::map<std::string, int64_t> Extent = BlockExtent;
  for (int D = 0; D < 3; ++D)
    if ((DimsAroundAlloc | WriterEverywhere) & (1u << D))
      Extent["threadIdx." + std::string(1, "xyz"[D])] = 1;
  return ir::mayConflictAcrossThreads(W, Reader, Extent);
}
} // namespace

std::vector<LocalHandOff> localHandOffs(const ir::Stmt &Body,
                                        const std::map<std::string, int64_t> &BlockExtent) {
  std::vector<ir::Access> Accesses = ir::collectAccesses(ir::inlineLets(Body));
  AllocationThreadDims Allocations;
  Allocations.visit(Body);
  std::vector<LocalHandOff> Out;
  std::set<const ir::BufferNode *> Found;
  for (const ir::Access &W : Accesses) {
    const ir::BufferNode *Buf = W.Buf.get();
    if (!W.IsWrite || Buf->MemScope != ir::Scope::Local || Found.count(Buf))
      continue;
    for (const ir::Access &R : Accesses)
      if (!R.IsWrite && R.Buf.get() == Buf &&
          readByAnotherThread(W, R, Allocations.DimsAround[Buf], BlockExtent)) {
        Out.push_back({W, R});
        Found.insert(Buf);
        break;
      }
  }
  return Out;
}

bool allocatesShared(const ir::Stmt &S) {
  struct Finder : ir::IRVisitor {
    bool Found = false;
    void visitAllocate(const ir::AllocateNode *N) override {
      Found |= N->Buf->MemScope == ir::Scope::Shared;
      ir::IRVisitor::visitAllocate(N);
    }
  } F;
  F.visit(S);
  return F.Found;
}

unsigned ThreadDependence::of(const std::set<const ir::VarNode *> &Vars) const {
  unsigned M = 0;
  for (const ir::VarNode *V : Vars) {
    auto It = Mask.find(V);
    if (It != Mask.end())
      M |= It->second;
  }
  return M;
}

unsigned ThreadDependence::of(const ir::Expr &E) const { return of(ir::varsOf(E)); }

unsigned ThreadDependence::of(const ir::Stmt &S) const { return of(ir::varsOf(S)); }

unsigned ThreadDependence::enter(const ir::ForNode *N) {
  unsigned M = isThreadIdxLoop(N) ? 1u << ir::threadTagDim(N->ThreadTag)
                                  : of(N->Min) | of(N->Extent);
  if (M)
    Mask[N->LoopVar.get()] = M;
  return M;
}

unsigned ThreadDependence::enter(const ir::LetStmtNode *N) {
  unsigned M = of(N->Value);
  if (M)
    Mask[N->LetVar.get()] = M;
  return M;
}

void flattenBody(const ir::Stmt &S, std::vector<const ir::AllocateNode *> &Allocs,
                 std::vector<ir::Stmt> &Stmts) {
  const auto *A = ir::as<ir::AllocateNode>(S);
  if (A && A->Buf->MemScope == ir::Scope::Shared) {
    Allocs.push_back(A);
    flattenBody(A->Body, Allocs, Stmts);
  } else if (const auto *Seq = ir::as<ir::SeqNode>(S)) {
    for (const ir::Stmt &Child : Seq->Stmts)
      flattenBody(Child, Allocs, Stmts);
  } else {
    Stmts.push_back(S);
  }
}

int64_t ldmatrixPitch(int64_t Row) {
  int64_t Pitch = (Row + 7) / 8 * 8;
  return (Pitch / 8) % 2 ? Pitch : Pitch + 8;
}

ir::Stmt LoopRangeMutator::mutateFor(const ir::Stmt &S, const ir::ForNode *N) {
  Ranges[N->LoopVar.get()] = ir::loopRange(N);
  ir::Stmt Out = ir::IRMutator::mutateFor(S, N);
  Ranges.erase(N->LoopVar.get());
  return Out;
}

ir::Stmt DivisorFactsMutator::mutateIfThenElse(const ir::Stmt &S, const ir::IfThenElseNode *N) {
  ir::DivisorFacts Outer = Facts;
  ir::addDivisorFacts(N->Cond, Facts);
  ir::Stmt Then = mutate(N->Then);
  Facts = Outer;
  ir::Stmt Else = N->Else ? mutate(N->Else) : nullptr;
  ir::Expr Cond = mutate(N->Cond);
  if (Then == N->Then && Else == N->Else && Cond == N->Cond)
    return S;
  return ir::makeIf(Cond, Then, Else);
}

} // namespace passes
} // namespace sched
