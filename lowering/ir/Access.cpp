//===- Access.cpp - The one access analysis -------------------------------===//
//
// collectAccesses walks a statement once, recording every load and store with
// its enclosing loops and guards; intrinsic calls contribute the buffer
// operands their declarations name (Intrinsics.h). isParallelLoop is the
// dependence test schedule legality uses, built on that list and on affine
// forms of the indices.
//
//===----------------------------------------------------------------------===//

#include "Access.h"
#include "Affine.h"
#include "Bounds.h"
#include "IRMutator.h"
#include "IRVisitor.h"
#include "Intrinsics.h"
#include "Simplify.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <set>

namespace sched {
namespace ir {

namespace {

class AccessCollector : public IRVisitor {
public:
  std::vector<Access> Accesses;

protected:
  void visitLoad(const LoadNode *N) override {
    IRVisitor::visitLoad(N); // loads inside the indices happen first
    record(N->Buf, N->Indices, false);
  }

  void visitCall(const CallNode *N) override {
    const IntrinsicInfo *Info = lookupIntrinsic(N->Name);
    for (size_t I = 0; I < N->Args.size(); ++I) {
      OperandRole Role = Info && I < Info->Operands.size() ? Info->Operands[I] : OperandRole::Value;
      const auto *BufArg = as<LoadNode>(N->Args[I]);
      if (!BufArg || Role == OperandRole::Value || Role == OperandRole::FragmentIndex) {
        visit(N->Args[I]);
        continue;
      }
      for (const Expr &Index : BufArg->Indices)
        visit(Index);
      if (Role == OperandRole::ReadBuffer || Role == OperandRole::ReadWriteBuffer)
        record(BufArg->Buf, BufArg->Indices, false);
      if (Role == OperandRole::WriteBuffer || Role == OperandRole::ReadWriteBuffer)
        record(BufArg->Buf, BufArg->Indices, true);
    }
  }

  void visitStore(const StoreNode *N) override {
    StatementScope Scope(Current, N);
    IRVisitor::visitStore(N);
    record(N->Buf, N->Indices, true);
  }

  void visitEvaluate(const EvaluateNode *N) override {
    StatementScope Scope(Current, N);
    IRVisitor::visitEvaluate(N);
  }

  void visitFor(const ForNode *N) override {
    {
      StatementScope Scope(Current, N);
      visit(N->Min);
      visit(N->Extent);
    }
    Loops.push_back(N);
    visit(N->Body);
    Loops.pop_back();
  }

  void visitIfThenElse(const IfThenElseNode *N) override {
    {
      StatementScope Scope(Current, N);
      visit(N->Cond);
    }
    Guards.push_back(N->Cond);
    visit(N->Then);
    Guards.back() = makeUnary(UnOp::Not, N->Cond);
    visit(N->Else);
    Guards.pop_back();
  }

  void visitLetStmt(const LetStmtNode *N) override {
    {
      StatementScope Scope(Current, N);
      visit(N->Value);
    }
    visit(N->Body);
  }

private:
  std::vector<const ForNode *> Loops;
  std::vector<Expr> Guards;
  const StmtNode *Current = nullptr;

  struct StatementScope {
    const StmtNode *&Slot;
    const StmtNode *Saved;
    StatementScope(const StmtNode *&S, const StmtNode *N) : Slot(S), Saved(S) { Slot = N; }
    ~StatementScope() { Slot = Saved; }
  };

  void record(const Buffer &B, const std::vector<Expr> &Indices, bool IsWrite) {
    Access A;
    A.Buf = B;
    A.Indices = Indices;
    A.IsWrite = IsWrite;
    A.Loops = Loops;
    A.Guards = Guards;
    A.Statement = Current;
    Accesses.push_back(std::move(A));
  }
};

/// Buffers allocated in a statement, and calls whose effects are unknown.
class BodyFacts : public IRVisitor {
public:
  std::set<const BufferNode *> Allocated;
  std::string UnknownCall;

protected:
  void visitAllocate(const AllocateNode *N) override {
    Allocated.insert(N->Buf.get());
    IRVisitor::visitAllocate(N);
  }
  void visitCall(const CallNode *N) override {
    if (!lookupIntrinsic(N->Name) && UnknownCall.empty())
      UnknownCall = N->Name;
    IRVisitor::visitCall(N);
  }
};

bool sameIndices(const std::vector<Expr> &A, const std::vector<Expr> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t D = 0; D < A.size(); ++D) {
    int64_t Diff;
    if (!structurallyEqual(A[D], B[D]) &&
        !(getConstInt(canonicalize(makeBinary(BinOp::Sub, A[D], B[D])), Diff) && Diff == 0))
      return false;
  }
  return true;
}

enum class Disjointness { Disjoint, Invariant, Unknown };

/// True when the affine form is injective in all its loop variables jointly:
/// taken by increasing |coefficient|, each coefficient exceeds everything
/// the smaller terms can add (the digits of a mixed-radix number). A strided
/// loop inside a thread loop (`tx + j*32` with tx < 32) is injective this
/// way although neither variable's stride alone exceeds the other's reach.
bool isMixedRadix(const AffineForm &F, const std::map<const VarNode *, const ForNode *> &LoopOf) {
  std::vector<std::pair<int64_t, int64_t>> Terms; // |coefficient|, extent
  for (const auto &Term : F.Coefs) {
    auto It = LoopOf.find(Term.first);
    int64_t Coef, Extent;
    if (It == LoopOf.end() || !getConstInt(Term.second, Coef) ||
        !getConstInt(It->second->Extent, Extent))
      return false;
    Terms.push_back({Coef < 0 ? -Coef : Coef, Extent});
  }
  std::sort(Terms.begin(), Terms.end());
  int64_t Reach = 0;
  for (const auto &[Coef, Extent] : Terms) {
    if (Coef <= Reach)
      return false;
    Reach += Coef * (Extent > 0 ? Extent - 1 : 0);
  }
  return true;
}

/// Matches `X / C` or `X % C` with a positive constant C.
bool matchDivMod(const Expr &E, BinOp Op, Expr &X, int64_t &C) {
  const auto *B = as<BinaryNode>(E);
  if (!B || B->Op != Op || !getConstInt(B->B, C) || C <= 0)
    return false;
  X = B->A;
  return true;
}

/// The indices of an access plus the linear indices they determine. A fused
/// loop f reaches a buffer as [f / E, f % E] (fuse, or a split of a fused
/// loop): neither dimension is affine, but since X == C * (X / C) + X % C
/// (for C's truncating division as well), the pair determines X, so two
/// accesses with different X touch different elements. Adding X lets the
/// stride test below see through the fuse.
std::vector<Expr> withRecoveredLinearIndices(const std::vector<Expr> &Indices) {
  std::vector<Expr> Result = Indices;
  for (const Expr &Quotient : Indices) {
    Expr X;
    int64_t C;
    if (!matchDivMod(Quotient, BinOp::Div, X, C))
      continue;
    for (const Expr &Remainder : Indices) {
      Expr Y;
      int64_t C2;
      if (matchDivMod(Remainder, BinOp::Mod, Y, C2) && C2 == C && structurallyEqual(X, Y))
        Result.push_back(X);
    }
  }
  return Result;
}

/// Whether different iterations of L write different elements through
/// Indices: some dimension moves by a constant stride on L's variable that
/// the loops inside L (constant extents and coefficients) cannot make up.
Disjointness iterationsDisjoint(const ForNode *L, const std::vector<Expr> &Indices,
                                const std::vector<const ForNode *> &Inner) {
  std::map<const VarNode *, const ForNode *> LoopOf;
  for (const ForNode *F : Inner)
    LoopOf[F->LoopVar.get()] = F;
  LoopOf[L->LoopVar.get()] = L;
  auto IsIndexVar = [&](const VarNode *V) { return LoopOf.count(V) != 0; };
  bool DependsOnL = false;
  for (const Expr &Index : withRecoveredLinearIndices(Indices)) {
    AffineForm F;
    if (!toAffine(Index, IsIndexVar, F)) {
      // Proves nothing itself; another (or a recovered) index may.
      DependsOnL = true;
      continue;
    }
    auto It = F.Coefs.find(L->LoopVar.get());
    int64_t Stride;
    if (It == F.Coefs.end())
      continue;
    DependsOnL = true;
    if (!getConstInt(It->second, Stride) || Stride == 0)
      continue;
    bool Bounded = true;
    int64_t Reach = 0;
    for (const auto &Term : F.Coefs) {
      if (Term.first == L->LoopVar.get())
        continue;
      int64_t Coef, Extent;
      const ForNode *F2 = LoopOf.at(Term.first);
      if (!getConstInt(Term.second, Coef) || !getConstInt(F2->Extent, Extent)) {
        Bounded = false;
        break;
      }
      Reach += (Coef < 0 ? -Coef : Coef) * (Extent > 0 ? Extent - 1 : 0);
    }
    if (Bounded && Reach < (Stride < 0 ? -Stride : Stride))
      return Disjointness::Disjoint;
    if (isMixedRadix(F, LoopOf))
      return Disjointness::Disjoint;
  }
  return DependsOnL ? Disjointness::Unknown : Disjointness::Invariant;
}

//===----------------------------------------------------------------------===//
// Cross-thread dependence (thread sync)
//===----------------------------------------------------------------------===//

/// What each variable of an access is to the cross-thread test.
struct ThreadView {
  std::map<const VarNode *, std::string> TagOf;      // threadIdx-bound loop variables
  std::map<const VarNode *, int64_t> SerialExtent;   // other loops (-1: unknown)
  std::map<std::string, int64_t> PinnedTag;          // guards `v == c` on a thread variable
  std::map<std::string, int64_t> UpperBound;         // guards `v < c` on a thread variable

  explicit ThreadView(const Access &A) {
    VarRanges Ranges; // of the enclosing loop variables, outermost first
    for (const ForNode *L : A.Loops) {
      // A trip count that depends on outer loops (the thread, say) is
      // bounded by the bound analysis.
      Interval Trips = boundsOf(L->Extent, Ranges);
      int64_t Min = -1, Extent = -1;
      if (!getConstInt(L->Min, Min) || !Trips.Max || !getConstInt(Trips.Max, Extent) ||
          Min != 0)
        Extent = -1;
      if (Extent > 0)
        Ranges[L->LoopVar.get()] = {makeInt(0, L->LoopVar->Type),
                                    makeInt(Extent - 1, L->LoopVar->Type)};
      if (L->LoopKind == ForKind::ThreadBound && isThreadIdxTag(L->ThreadTag))
        TagOf[L->LoopVar.get()] = L->ThreadTag;
      else if (!(L->LoopKind == ForKind::ThreadBound && isBlockTag(L->ThreadTag)))
        SerialExtent[L->LoopVar.get()] = Extent;
    }
    for (const Expr &G : A.Guards)
      collectPins(G);
  }

  bool isIndexVar(const VarNode *V) const { return TagOf.count(V) || SerialExtent.count(V); }

private:
  void collectPins(const Expr &G) {
    const auto *B = as<BinaryNode>(G);
    if (!B)
      return;
    if (B->Op == BinOp::And) {
      collectPins(B->A);
      collectPins(B->B);
      return;
    }
    const auto *V = as<VarNode>(B->A);
    int64_t C;
    if (!V || !getConstInt(B->B, C) || !TagOf.count(V))
      return;
    if (B->Op == BinOp::EQ)
      PinnedTag[TagOf.at(V)] = C;
    else if (B->Op == BinOp::LT)
      UpperBound[TagOf.at(V)] = C; // `tx < 32`: only the first 32 run it
  }
};

/// One side of an index equation: per-tag thread coefficients, serial terms
/// (coefficient, extent) and the rest (constant in the thread's eyes).
struct IndexSide {
  std::map<std::string, int64_t> TagCoef;
  std::vector<std::pair<int64_t, int64_t>> Serial;
  Expr Rest;
};

/// Folds `(X / C)*C + X % C` back to X: a fused (distributed) loop reaches
/// a flattened buffer that way, and the affine test wants X.
class RecombineDivMod : public IRMutator {
protected:
  Expr mutateBinary(const Expr &E, const BinaryNode *N) override {
    Expr Folded = IRMutator::mutateBinary(E, N);
    const auto *B = as<BinaryNode>(Folded);
    if (!B || B->Op != BinOp::Add)
      return Folded;
    for (int Order = 0; Order < 2; ++Order) {
      const Expr &Scaled = Order ? B->B : B->A, &Rem = Order ? B->A : B->B;
      Expr X;
      if (recombines(Scaled, Rem, X))
        return X;
      // (R + (X/C)*C) + X%C, as a flattened offset is printed: R + X.
      const auto *Sum = as<BinaryNode>(Scaled);
      if (Sum && Sum->Op == BinOp::Add)
        for (int Side = 0; Side < 2; ++Side)
          if (recombines(Side ? Sum->B : Sum->A, Rem, X))
            return makeBinary(BinOp::Add, Side ? Sum->A : Sum->B, X);
    }
    return Folded;
  }

private:
  /// Scaled is (X/C)*C and Rem is X%C.
  static bool recombines(const Expr &Scaled, const Expr &Rem, Expr &X) {
    const auto *Mul = as<BinaryNode>(Scaled);
    Expr Y;
    int64_t C, C2, Factor;
    return Mul && Mul->Op == BinOp::Mul && getConstInt(Mul->B, Factor) &&
           matchDivMod(Mul->A, BinOp::Div, X, C) && Factor == C &&
           matchDivMod(Rem, BinOp::Mod, Y, C2) && C2 == C && structurallyEqual(X, Y);
  }
};

/// Replaces `X % C` where X is a non-negative affine form of serial loop
/// variables (no thread variable) by a fresh variable ranging over [0, C):
/// a double-buffered stage is indexed by `(ko % 2) * size + ...`, which is
/// not affine, but to the cross-thread question it is just one more serial
/// term whose value each side may pick independently.
class AbstractSerialResidues : public IRMutator {
public:
  explicit AbstractSerialResidues(const ThreadView &View) : View(View) {}
  std::map<const VarNode *, int64_t> Extent; // of the fresh variables
  std::vector<Var> Fresh;                     // keeps them alive

protected:
  Expr mutateBinary(const Expr &E, const BinaryNode *N) override {
    int64_t C;
    if (N->Op != BinOp::Mod || !getConstInt(N->B, C) || C <= 0 || !isNonNegativeSerial(N->A))
      return IRMutator::mutateBinary(E, N);
    Var V = makeVar("residue", E->Type);
    Fresh.push_back(V);
    Extent[V.get()] = C;
    return V;
  }

private:
  const ThreadView &View;

  bool isNonNegativeSerial(const Expr &X) const {
    AffineForm F;
    int64_t K;
    if (!toAffine(X, [&](const VarNode *V) { return View.SerialExtent.count(V) != 0; }, F) ||
        !getConstInt(F.Constant, K) || K < 0)
      return false;
    for (const auto &Term : F.Coefs)
      if (!getConstInt(Term.second, K) || K < 0)
        return false;
    return true;
  }
};

bool splitIndex(const Expr &RawIndex, const ThreadView &View,
                const std::map<std::string, int64_t> &SharedPins, IndexSide &Out) {
  AbstractSerialResidues Residues(View);
  Expr Index = Residues.mutate(RecombineDivMod().mutate(RawIndex));
  AffineForm F;
  if (!toAffine(Index,
                [&](const VarNode *V) { return View.isIndexVar(V) || Residues.Extent.count(V); },
                F))
    return false;
  Out.Rest = F.Constant;
  for (const auto &Term : F.Coefs) {
    int64_t Coef;
    if (!getConstInt(Term.second, Coef))
      return false;
    auto Residue = Residues.Extent.find(Term.first);
    if (Residue != Residues.Extent.end()) {
      Out.Serial.push_back({Coef, Residue->second});
      continue;
    }
    auto Tag = View.TagOf.find(Term.first);
    if (Tag == View.TagOf.end()) {
      Out.Serial.push_back({Coef, View.SerialExtent.at(Term.first)});
      continue;
    }
    auto Pin = SharedPins.find(Tag->second);
    if (Pin != SharedPins.end())
      Out.Rest = makeBinary(BinOp::Add, Out.Rest, makeInt(Coef * Pin->second, Out.Rest->Type));
    else
      Out.TagCoef[Tag->second] += Coef;
  }
  return true;
}

/// Whether A's index I and B's index J can only be equal for the same
/// thread (or never): the thread coordinates enter both the same way,
/// injectively (mixed radix), and what the serial loops and constants can
/// add is too small (or too coarse) to make up a different thread.
bool equalOnlyForSameThread(const IndexSide &A, const IndexSide &B,
                            const std::vector<std::string> &Tags,
                            const std::map<std::string, int64_t> &Extent) {
  std::vector<std::pair<int64_t, int64_t>> Radix; // |coef|, extent
  for (const std::string &T : Tags) {
    auto CA = A.TagCoef.find(T), CB = B.TagCoef.find(T);
    int64_t Ca = CA == A.TagCoef.end() ? 0 : CA->second;
    int64_t Cb = CB == B.TagCoef.end() ? 0 : CB->second;
    if (Ca != Cb || Ca == 0)
      return false;
    Radix.push_back({std::llabs(Ca), Extent.at(T)});
  }
  std::sort(Radix.begin(), Radix.end());
  bool SpanKnown = true;
  int64_t Span = 0;
  for (size_t I = 0; I < Radix.size(); ++I) {
    if (Radix[I].second < 0) {
      SpanKnown = false;
      if (I + 1 < Radix.size())
        return false;
      continue;
    }
    if (I + 1 < Radix.size() && Radix[I + 1].first < Radix[I].first * Radix[I].second)
      return false;
    Span += Radix[I].first * (Radix[I].second - 1);
  }
  int64_t CMin = Radix.empty() ? 1 : Radix.front().first;
  int64_t ConstDiff;
  if (!getConstInt(canonicalize(makeBinary(BinOp::Sub, B.Rest, A.Rest)), ConstDiff))
    return false;
  // D = L(t1) - L(t2) = ConstDiff + (B's serial terms) - (A's serial terms).
  bool RangeKnown = true;
  int64_t Lo = ConstDiff, Hi = ConstDiff, Gcd = 0;
  auto AddTerm = [&](int64_t Coef, int64_t Ext) {
    Gcd = std::gcd(Gcd, std::llabs(Coef));
    if (Ext < 0) {
      RangeKnown = false;
      return;
    }
    int64_t Reach = Coef * (Ext > 0 ? Ext - 1 : 0);
    Lo += std::min<int64_t>(0, Reach);
    Hi += std::max<int64_t>(0, Reach);
  };
  for (const auto &T : B.Serial)
    AddTerm(T.first, T.second);
  for (const auto &T : A.Serial)
    AddTerm(-T.first, T.second);
  if (RangeKnown && Lo > -CMin && Hi < CMin)
    return true; // |L(t1) - L(t2)| < CMin forces t1 == t2
  if (RangeKnown && SpanKnown && (Lo > Span || Hi < -Span))
    return true; // the two never meet
  if (Gcd > 0 && SpanKnown && ConstDiff % Gcd == 0 && Span < Gcd)
    return true; // L(t1) - L(t2) is a multiple of Gcd smaller than it
  return false;
}

} // namespace

std::vector<Access> collectAccesses(const Stmt &S) {
  AccessCollector C;
  C.visit(S);
  for (Access &A : C.Accesses)
    A.Root = S;
  return std::move(C.Accesses);
}

namespace {
bool parallelOver(const ForNode *L, const std::set<const BufferNode *> *Only, std::string *Why) {
  auto Fail = [&](const std::string &Reason) {
    if (Why)
      *Why = Reason;
    return false;
  };
  if (!L || !L->LoopVar)
    return Fail("not a loop");
  // Let-bound indices are seen in terms of loop variables.
  Stmt Body = inlineLets(L->Body);
  BodyFacts Facts;
  Facts.visit(Body);
  if (!Facts.UnknownCall.empty())
    return Fail("call to '" + Facts.UnknownCall + "' with unknown effects");
  std::vector<Access> Accesses = collectAccesses(Body);
  std::set<const BufferNode *> Checked;
  for (const Access &W : Accesses) {
    const BufferNode *B = W.Buf.get();
    if (!W.IsWrite || Facts.Allocated.count(B) || (Only && !Only->count(B)) ||
        !Checked.insert(B).second)
      continue;
    for (const Access &Other : Accesses)
      if (Other.Buf.get() == B && !sameIndices(Other.Indices, W.Indices))
        return Fail("loop-carried dependence on '" + B->Name + "'");
    switch (iterationsDisjoint(L, W.Indices, W.Loops)) {
    case Disjointness::Disjoint:
      break;
    case Disjointness::Invariant:
      return Fail("'" + B->Name + "' is reduced over '" + L->LoopVar->Name + "'");
    case Disjointness::Unknown:
      return Fail("loop-carried dependence on '" + B->Name + "'");
    }
  }
  return true;
}
} // namespace

bool isParallelLoop(const ForNode *L, std::string *Why) { return parallelOver(L, nullptr, Why); }

bool isParallelLoopOver(const ForNode *L, const std::set<const BufferNode *> &Only,
                        std::string *Why) {
  return parallelOver(L, &Only, Why);
}

bool mayConflictAcrossThreads(const Access &A, const Access &B,
                              const std::map<std::string, int64_t> &BlockExtent) {
  if (A.Buf.get() != B.Buf.get() || (!A.IsWrite && !B.IsWrite))
    return false;
  ThreadView VA(A), VB(B);
  // Tags on which two different threads may differ: extent > 1 (or unknown)
  // and not pinned to one value on both sides.
  std::map<std::string, int64_t> Extent = BlockExtent, SharedPins;
  for (const ThreadView *V : {&VA, &VB})
    for (const auto &Entry : V->TagOf)
      Extent.emplace(Entry.second, -1);
  // Guards `v < c` on both sides narrow the coordinates that can meet.
  for (auto &Entry : Extent) {
    auto BA = VA.UpperBound.find(Entry.first), BB = VB.UpperBound.find(Entry.first);
    if (BA == VA.UpperBound.end() || BB == VB.UpperBound.end())
      continue;
    int64_t Bound = std::max(BA->second, BB->second);
    if (Entry.second < 0 || Bound < Entry.second)
      Entry.second = std::max<int64_t>(Bound, 1);
  }
  std::vector<std::string> Tags;
  for (const auto &Entry : Extent) {
    auto PA = VA.PinnedTag.find(Entry.first), PB = VB.PinnedTag.find(Entry.first);
    if (PA != VA.PinnedTag.end() && PB != VB.PinnedTag.end() && PA->second == PB->second)
      SharedPins[Entry.first] = PA->second;
    else if (Entry.second != 1)
      Tags.push_back(Entry.first);
  }
  if (Tags.empty())
    return false; // the block has one thread where both run
  if (A.Indices.size() != B.Indices.size())
    return true;
  std::vector<Expr> IA = withRecoveredLinearIndices(A.Indices);
  std::vector<Expr> IB = withRecoveredLinearIndices(B.Indices);
  for (size_t D = 0; D < IA.size() && D < IB.size(); ++D) {
    if (D >= A.Indices.size() && IA.size() != IB.size())
      break;
    IndexSide SA, SB;
    if (splitIndex(IA[D], VA, SharedPins, SA) && splitIndex(IB[D], VB, SharedPins, SB) &&
        equalOnlyForSameThread(SA, SB, Tags, Extent))
      return false;
  }
  return true;
}

bool mayConflictAcrossBlocks(const Access &A, const Access &B,
                             const std::map<std::string, int64_t> &GridExtent) {
  // Blocks are to this question what threads are to the one above: ask it
  // with the roles swapped, block loops as the coordinates (under the
  // matching threadIdx tag) and thread loops as serial ones, whose extent a
  // guard `v < c` narrows as it narrows a thread coordinate there.
  std::vector<Stmt> Swapped; // keeps the stand-in loops alive
  auto Swap = [&](const Access &X) {
    Access Y = X;
    for (const ForNode *&L : Y.Loops) {
      if (L->LoopKind != ForKind::ThreadBound)
        continue;
      bool Block = isBlockTag(L->ThreadTag);
      Expr Extent = L->Extent;
      std::vector<Expr> Conjuncts = X.Guards;
      while (!Conjuncts.empty()) {
        const auto *G = as<BinaryNode>(Conjuncts.back());
        Conjuncts.pop_back();
        int64_t Bound, Old;
        if (G && G->Op == BinOp::And) {
          Conjuncts.push_back(G->A);
          Conjuncts.push_back(G->B);
        } else if (!Block && G && G->Op == BinOp::LT && as<VarNode>(G->A) == L->LoopVar.get() &&
                   getConstInt(G->B, Bound) && getConstInt(Extent, Old) && Bound < Old) {
          Extent = makeInt(Bound, Extent->Type);
        }
      }
      Swapped.push_back(makeFor(L->LoopVar, L->Min, Extent, L->Body,
                                Block ? ForKind::ThreadBound : ForKind::Serial,
                                Block ? "threadIdx" + L->ThreadTag.substr(8) : ""));
      L = as<ForNode>(Swapped.back());
    }
    return Y;
  };
  std::map<std::string, int64_t> Extent;
  for (const auto &Entry : GridExtent)
    Extent["threadIdx" + Entry.first.substr(8)] = Entry.second;
  return mayConflictAcrossThreads(Swap(A), Swap(B), Extent);
}

} // namespace ir
} // namespace sched
