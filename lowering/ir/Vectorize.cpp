//===- Vectorize.cpp - How a vectorized loop runs as CUDA vector accesses ===//
//
// planVectorLoop: see Vectorize.h.
//
//===----------------------------------------------------------------------===//
#include "ir/Vectorize.h"
#include "ir/Intrinsics.h"
#include "ir/IRVisitor.h"
#include "ir/Printer.h"
#include "ir/Prove.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"

#include <algorithm>

namespace sched {
namespace ir {

const char *cudaVectorTypeName(DType T, int64_t Lanes) {
  if (Lanes != 2 && Lanes != 4)
    return nullptr;
  bool Two = Lanes == 2;
  switch (T) {
  case DType::Float32: return Two ? "float2" : "float4";
  case DType::Int32: return Two ? "int2" : "int4";
  case DType::UInt32: return Two ? "uint2" : "uint4";
  case DType::Float64: return Two ? "double2" : nullptr; // double4 wants 32 bytes
  case DType::Int64: return Two ? "longlong2" : nullptr;
  case DType::Float16: return Two ? "__half2" : nullptr;
  default: return nullptr;
  }
}

const char *copyVectorTypeName(int64_t Bytes) {
  switch (Bytes) {
  case 4: return "unsigned int";
  case 8: return "uint2";
  case 16: return "uint4";
  default: return nullptr;
  }
}

namespace {

/// Checks every access of one statement and records its vector accesses.
class AccessPlanner : public IRVisitor {
public:
  AccessPlanner(const ForNode *L, VectorLoop &Out) : V(L->LoopVar.get()), Out(Out) {}

  std::string Why;

  void planStore(const StoreNode *N) {
    if (!Why.empty())
      return;
    Expr Base;
    bool Vector = false;
    if (!access(N->Buf, N->Indices, "written", Base, Vector))
      return;
    if (!usesVar(N->Indices[0], V)) {
      Why = "every lane writes the same element of " + N->Buf->Name;
      return;
    }
    if (Vector)
      Out.VectorStores[N] = Base;
    Current = N;
    visit(N->Indices[0]);
    visit(N->Value);
  }

protected:
  void visitLoad(const LoadNode *N) override {
    if (!Why.empty())
      return;
    Expr Base;
    bool Vector = false;
    if (!access(N->Buf, N->Indices, "read", Base, Vector))
      return;
    if (Vector) {
      Out.VectorLoads[N] = Base;
      Out.LoadsOf[Current].push_back(N);
    }
    IRVisitor::visitLoad(N);
  }
  void visitCall(const CallNode *N) override {
    const IntrinsicInfo *Info = lookupIntrinsic(N->Name);
    if ((!Info || !Info->IsPure) && Why.empty())
      Why = "its body calls " + N->Name;
    IRVisitor::visitCall(N);
  }

private:
  const VarNode *V;
  VectorLoop &Out;
  const StoreNode *Current = nullptr; // the statement whose accesses are visited

  std::string loopName() const { return "'" + V->Name + "'"; }

  /// Whether the access B[Indices] can be done: as one vector access from
  /// Base (Vector), or as scalars. False with Why set otherwise.
  bool access(const Buffer &B, const std::vector<Expr> &Indices, const char *How, Expr &Base,
              bool &Vector) {
    Vector = false;
    if (Indices.size() != 1) {
      Why = B->Name + " is not flattened to one dimension";
      return false;
    }
    const Expr &Index = Indices[0];
    if (!usesVar(Index, V))
      return true; // the same element for every lane: one scalar
    LinearIndex Lin;
    if (!linearIn(Index, {V}, Lin) || (Lin.Rest && usesVar(Lin.Rest, V))) {
      Why = "the index of " + B->Name + ", " + print(Index) + ", is not linear in " + loopName();
      return false;
    }
    if (B->MemScope == Scope::Local)
      return true; // a register per lane
    if (B->MemScope != Scope::Global && B->MemScope != Scope::Shared) {
      Why = B->Name + " is in " + scopeName(B->MemScope) + " memory, which has no vector accesses";
      return false;
    }
    int64_t Stride = Lin.coef(V);
    if (Stride != 1) {
      Why = B->Name + " is " + How + " with stride " + std::to_string(Stride) + " in " +
            loopName() + " (a vector access needs stride 1)";
      return false;
    }
    if (!(Out.CopyType ? Out.CopyType : cudaVectorTypeName(B->Type, Out.Lanes))) {
      Why = "CUDA has no vector type of " + std::to_string(Out.Lanes) + " " +
            cudaTypeName(B->Type) + " elements (" + B->Name + ")";
      return false;
    }
    Base = Lin.Rest ? Lin.Rest : makeInt(0, Index->Type);
    if (!provablyMultipleOf(Base, Out.Lanes)) {
      Why = B->Name + " is " + How + " from index " + print(Base) + ", not provably a multiple of " +
            std::to_string(Out.Lanes) + " (the vector access would be unaligned)";
      return false;
    }
    Vector = true;
    return true;
  }
};

/// Why statement S cannot be in a vectorized loop's body, or "".
std::string statementProblem(const Stmt &S) {
  switch (S->Kind) {
  case StmtKind::Store:
  case StmtKind::Seq:
    return "";
  case StmtKind::For: return "its body has a loop";
  case StmtKind::IfThenElse: return "its body has control flow (an if)";
  case StmtKind::Allocate: return "its body allocates a buffer";
  case StmtKind::LetStmt: return "its body binds a variable";
  case StmtKind::Evaluate: return "its body has a call statement";
  }
  return "its body is not straight-line stores";
}

void collectStores(const Stmt &S, std::vector<const StoreNode *> &Out, std::string &Why) {
  if (!S || !Why.empty())
    return;
  Why = statementProblem(S);
  if (!Why.empty())
    return;
  if (S->Kind == StmtKind::Store) {
    Out.push_back(as<StoreNode>(S));
    return;
  }
  for (const Stmt &Child : as<SeqNode>(S)->Stmts)
    collectStores(Child, Out, Why);
}

} // namespace

std::string planVectorLoop(const ForNode *L, VectorLoop &Out) {
  Out = VectorLoop();
  int64_t Min = 0, Extent = 0;
  if (!getConstInt(L->Min, Min) || Min != 0)
    return "it does not start at 0";
  if (!getConstInt(L->Extent, Extent))
    return "its extent is not a constant";
  std::string Why;
  collectStores(L->Body, Out.Stores, Why);
  if (!Why.empty())
    return Why;
  if (Out.Stores.empty())
    return "its body stores nothing";
  // Copies (every statement `D[..] = S[..]`, one type) without a CUDA
  // vector type of their elements move bytes: a 4-, 8- or 16-byte unsigned
  // vector.
  bool Copies = true;
  for (const StoreNode *S : Out.Stores) {
    const auto *Ld = as<LoadNode>(S->Value);
    Copies &= Ld && Ld->Buf->Type == S->Buf->Type && S->Buf->Type == Out.Stores[0]->Buf->Type &&
              Ld->Buf->MemScope != Scope::Local && S->Buf->MemScope != Scope::Local;
  }
  if (Copies && !cudaVectorTypeName(Out.Stores[0]->Buf->Type, Extent))
    Out.CopyType = copyVectorTypeName(Extent * dtypeBytes(Out.Stores[0]->Buf->Type));
  if (!Out.CopyType && Extent != 2 && Extent != 4)
    return "its extent is " + std::to_string(Extent) +
           ", and CUDA's vector types have 2 or 4 elements (split it by 4 or 2 first)";
  Out.Lanes = Extent;
  AccessPlanner Planner(L, Out);
  for (const StoreNode *S : Out.Stores)
    Planner.planStore(S);
  if (!Planner.Why.empty())
    return Planner.Why;
  if (Out.CopyType && Out.VectorLoads.size() != Out.Stores.size())
    return "a copy's source is not contiguous in '" + L->LoopVar->Name + "'";
  if (Out.VectorLoads.empty() && Out.VectorStores.empty())
    return "no access of its body is contiguous in '" + L->LoopVar->Name + "'";
  return "";
}

bool isAlignedRun(const Buffer &B, const std::vector<Expr> &Indices, const VarNode *Lane,
                  int64_t V, const DivisorFacts &Facts) {
  LinearIndex Lin;
  Expr Flat = simplify(flatIndex(withDivisorFacts(B->Shape, Facts), Indices));
  return linearIn(Flat, {Lane}, Lin) && Lin.coef(Lane) == 1 &&
         (!Lin.Rest || (!usesVar(Lin.Rest, Lane) && provablyMultipleOf(Lin.Rest, V)));
}

std::map<std::string, int64_t> vectorAlignments(const Stmt &Body) {
  struct Finder : IRVisitor {
    std::map<std::string, int64_t> Out;
    void need(const Buffer &B, int64_t Lanes) {
      int64_t &Bytes = Out[B->Name];
      Bytes = std::max(Bytes, Lanes * dtypeBytes(B->Type));
    }
    void visitFor(const ForNode *N) override {
      VectorLoop Plan;
      if (N->LoopKind == ForKind::Vectorized && planVectorLoop(N, Plan).empty()) {
        for (const auto &L : Plan.VectorLoads)
          need(L.first->Buf, Plan.Lanes);
        for (const auto &S : Plan.VectorStores)
          need(S.first->Buf, Plan.Lanes);
      }
      IRVisitor::visitFor(N);
    }
  } F;
  F.visit(Body);
  return F.Out;
}

} // namespace ir
} // namespace sched
