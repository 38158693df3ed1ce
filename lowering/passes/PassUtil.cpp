//===- PassUtil.cpp - Small helpers shared by passes and codegen ---------===//
//
// See PassUtil.h. Equality goes through ir::simplify: the one simplifier.
//
//===----------------------------------------------------------------------===//
#include "passes/PassUtil.h"
#include "ir/Affine.h"
#include "ir/Dependence.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Intrinsics.h"
#include "ir/Vta.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"

#include <cctype>

namespace sched {
namespace passes {

std::set<const ir::VarNode *> scalarParams(const ir::LoopNest &Nest) {
  std::set<const ir::VarNode *> Out;
  for (const ir::Param &P : Nest.Params)
    if (P.ParamKind == ir::Param::Kind::Scalar && P.Scalar)
      Out.insert(P.Scalar.get());
  return Out;
}

bool isLaunchExpr(const ir::Expr &E, const ir::LoopNest &Nest) {
  if (!E || ir::dependsOnMemory(E))
    return false;
  std::set<const ir::VarNode *> Params = scalarParams(Nest);
  for (const ir::VarNode *V : ir::varsOf(E))
    if (!Params.count(V))
      return false;
  return true;
}

std::string cIdentifier(const std::string &Name, const std::string &IfEmpty,
                        const std::string &Prefix) {
  std::string Out = Name.empty() ? IfEmpty : Name;
  for (char &C : Out)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_')
      C = '_';
  if (std::isdigit(static_cast<unsigned char>(Out[0])))
    Out = Prefix + Out;
  return Out;
}

bool provablyEqual(const ir::Expr &A, const ir::Expr &B) {
  if (!A || !B)
    return false;
  if (A == B)
    return true;
  int64_t X, Y;
  if (ir::getConstInt(A, X) && ir::getConstInt(B, Y))
    return X == Y;
  int64_t Diff;
  if (ir::getConstInt(ir::simplify(A - B), Diff))
    return Diff == 0;
  // Syntactic equality covers symbolic extents the simplifier leaves alone.
  return ir::print(ir::simplify(A)) == ir::print(ir::simplify(B));
}

bool provablyLessOrEqual(const ir::Expr &A, const ir::Expr &B) {
  if (!A || !B)
    return false;
  if (const auto *M = ir::as<ir::BinaryNode>(A)) {
    if (M->Op == ir::BinOp::Min)
      return provablyLessOrEqual(M->A, B) || provablyLessOrEqual(M->B, B);
    if (M->Op == ir::BinOp::Max)
      return provablyLessOrEqual(M->A, B) && provablyLessOrEqual(M->B, B);
  }
  int64_t Diff;
  return ir::getConstInt(ir::simplify(B - A), Diff) && Diff >= 0;
}

ir::Expr launchExtent(const LaunchGeometry &Geometry, const std::string &Tag) {
  int Dim = ir::threadTagDim(Tag);
  if (Dim < 0)
    return nullptr;
  return ir::isBlockTag(Tag) ? Geometry.Grid[Dim] : Geometry.Block[Dim];
}

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

namespace {
/// Copies the second and later occurrences of each leaf statement; the
/// mutator then rebuilds every statement above a copy, so no node is left in
/// two places.
class Unsharer : public ir::IRMutator {
protected:
  ir::Stmt mutateStore(const ir::Stmt &S, const ir::StoreNode *N) override {
    if (Seen.insert(N).second)
      return S;
    return ir::makeStore(N->Buf, N->Indices, N->Value);
  }
  ir::Stmt mutateEvaluate(const ir::Stmt &S, const ir::EvaluateNode *N) override {
    if (Seen.insert(N).second)
      return S;
    return ir::makeEvaluate(N->Value);
  }

private:
  std::set<const ir::StmtNode *> Seen;
};
} // namespace

ir::Stmt unshareStatements(const ir::Stmt &S) { return Unsharer().mutate(S); }

ir::Stmt guardWith(const ir::Expr &Cond, const ir::Stmt &Body) {
  const auto *Inner = ir::as<ir::IfThenElseNode>(Body);
  if (Inner && !Inner->Else && !ir::dependsOnMemory(Inner->Cond))
    return ir::makeIf(ir::makeBinary(ir::BinOp::And, Cond, Inner->Cond), Inner->Then);
  return ir::makeIf(Cond, Body);
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

ir::Stmt borrow(const ir::StmtNode *N) { return ir::Stmt(N, [](const ir::StmtNode *) {}); }
ir::Expr borrow(const ir::ExprNode *N) { return ir::Expr(N, [](const ir::ExprNode *) {}); }

std::string stmtText(const ir::StmtNode *S) {
  std::string Text = ir::print(borrow(S));
  while (!Text.empty() && (Text.back() == '\n' || Text.back() == ' '))
    Text.pop_back();
  return Text;
}

bool provablyAligned(const ir::LoadNode *L, int64_t Bytes) {
  int64_t Size = ir::dtypeBytes(L->Buf->Type);
  return provablyMultipleOf(flatIndex(L->Buf->Shape, L->Indices) * ir::makeInt(Size), Bytes);
}

ir::Expr flatIndex(const std::vector<ir::Expr> &Shape, const std::vector<ir::Expr> &Indices) {
  ir::Expr Offset = ir::makeInt(0);
  for (size_t D = 0; D < Shape.size(); ++D) {
    ir::Expr Index = D < Indices.size() ? Indices[D] : ir::makeInt(0);
    Offset = D == 0 ? Index : Offset * Shape[D] + Index;
  }
  return ir::simplify(Offset);
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

ir::Expr divideExactly(const ir::Expr &E, int64_t N) {
  ir::AffineForm F;
  if (!ir::toAffine(ir::simplify(E), [](const ir::VarNode *) { return true; }, F))
    return nullptr;
  int64_t C;
  if (!ir::getConstInt(ir::simplify(F.Constant), C) || C % N)
    return nullptr;
  F.Constant = ir::makeInt(C / N);
  for (auto &[V, Coef] : F.Coefs) {
    if (!ir::getConstInt(ir::simplify(Coef), C) || C % N)
      return nullptr;
    Coef = ir::makeInt(C / N);
  }
  return ir::simplify(ir::fromAffine(F));
}

namespace {
class LoopFinder : public ir::IRVisitor {
public:
  explicit LoopFinder(const ir::VarNode *V) : V(V) {}
  const ir::ForNode *Found = nullptr;
  std::vector<const ir::ForNode *> Around;

protected:
  void visitFor(const ir::ForNode *N) override {
    if (N->LoopVar.get() == V) {
      Found = N;
      Around = Path;
    }
    Path.push_back(N);
    ir::IRVisitor::visitFor(N);
    Path.pop_back();
  }

private:
  const ir::VarNode *V;
  std::vector<const ir::ForNode *> Path;
};

class LoopReplacer : public ir::IRMutator {
public:
  LoopReplacer(const ir::ForNode *Old, ir::Stmt New) : Old(Old), New(std::move(New)) {}

protected:
  ir::Stmt mutateFor(const ir::Stmt &S, const ir::ForNode *N) override {
    return N == Old ? New : ir::IRMutator::mutateFor(S, N);
  }

private:
  const ir::ForNode *Old;
  ir::Stmt New;
};
} // namespace

const ir::ForNode *findLoop(const ir::Stmt &Root, const ir::VarNode *V,
                            std::vector<const ir::ForNode *> *Around) {
  LoopFinder Finder(V);
  Finder.visit(Root);
  if (Around)
    *Around = Finder.Around;
  return Finder.Found;
}

ir::Stmt replaceLoop(const ir::Stmt &Root, const ir::ForNode *Old, const ir::Stmt &New) {
  LoopReplacer R(Old, New);
  return R.mutate(Root);
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

StoreNest storeNestOf(const ir::Stmt &S) {
  StoreNest N;
  collectStoreNest(S, N);
  return N;
}

bool linearIn(const ir::Expr &E, const std::set<const ir::VarNode *> &Vars, LinearIndex &Out) {
  ir::AffineForm F;
  if (!ir::toAffine(ir::simplify(E), [&](const ir::VarNode *V) { return Vars.count(V) > 0; }, F))
    return false;
  Out.Coef.clear();
  for (const auto &[V, Coef] : F.Coefs) {
    int64_t C;
    if (!ir::getConstInt(ir::simplify(Coef), C))
      return false;
    if (C)
      Out.Coef[V] = C;
  }
  Out.Rest = ir::simplify(F.Constant);
  return true;
}

bool provablyMultipleOf(const ir::Expr &E, int64_t N) { return divideExactly(E, N) != nullptr; }

bool hasWarpCollective(const ir::Stmt &S) {
  class Finder : public ir::IRVisitor {
  public:
    bool Found = false;

  protected:
    void visitCall(const ir::CallNode *N) override {
      const ir::IntrinsicInfo *Info = ir::lookupIntrinsic(N->Name);
      Found |= Info && Info->IsWarpCollective;
      ir::IRVisitor::visitCall(N);
    }
  } F;
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
      StandIns.push_back(ir::makeFor(L->LoopVar, L->Min, L->Extent, L->Body));
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

} // namespace passes
} // namespace sched
