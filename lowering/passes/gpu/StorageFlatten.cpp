//===- StorageFlatten.cpp - Multi-dimensional buffers to flat arrays -----===//
//
// CUDA sees every buffer as a pointer (parameters) or a one-dimensional array
// (local and shared allocations), and the runtime moves parameters as flat
// element ranges. Each buffer with other than one dimension, parameter or
// allocation, is replaced by a one-dimensional buffer of the same name,
// type and scope whose extent is the product of the shape, and every access
// A[i0, i1, ..., in] becomes A[((i0*S1 + i1)*S2 + ...)*Sn + in] (row-major,
// as C lays out arrays and as the extractor delinearized them). Intrinsic
// operands are Loads of a buffer's element and are flattened the same way.
// A zero-dimensional buffer becomes one element. Under a condition that
// states a divisor of a size (`K % 8 == 0`: tensorcore(auto)'s full tiles),
// the size is written `(K/8)*8` in the index, which is the same number
// there, and which proves the copies' 16-byte runs aligned to every later
// pass and to the emitter (ir::withDivisorFacts).
//
//===----------------------------------------------------------------------===//
#include "ir/IRMutator.h"
#include "ir/Prove.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

namespace {

ir::Expr shapeProduct(const std::vector<ir::Expr> &Shape) {
  ir::Expr Product = ir::makeInt(1);
  for (const ir::Expr &Dim : Shape)
    Product = Product * Dim;
  return ir::simplify(Product);
}

ir::Buffer flatBuffer(const ir::Buffer &B) {
  auto Flat = std::make_shared<ir::BufferNode>(
      B->Name, B->Type, std::vector<ir::Expr>{shapeProduct(B->Shape)}, B->MemScope);
  Flat->NoAlias = B->NoAlias; // properties of the storage, not of its shape
  Flat->Swizzle = B->Swizzle;
  return Flat;
}

class Flattener : public DivisorFactsMutator {
public:
  /// Records the flat replacement of B (nothing for 1-D buffers).
  ir::Buffer flatten(const ir::Buffer &B) {
    if (!B || B->Shape.size() == 1)
      return B;
    ir::Buffer Flat = flatBuffer(B);
    Replacement[B.get()] = Flat;
    return Flat;
  }

protected:
  ir::Expr mutateLoad(const ir::Expr &E, const ir::LoadNode *N) override {
    std::vector<ir::Expr> Indices = mutateAll(N->Indices);
    auto It = Replacement.find(N->Buf.get());
    if (It == Replacement.end()) {
      if (Indices == N->Indices)
        return E;
      return ir::makeLoad(N->Buf, Indices);
    }
    return ir::makeLoad(It->second, {flatIndex(N->Buf, Indices)});
  }

  ir::Stmt mutateStore(const ir::Stmt &S, const ir::StoreNode *N) override {
    std::vector<ir::Expr> Indices = mutateAll(N->Indices);
    ir::Expr Value = mutate(N->Value);
    auto It = Replacement.find(N->Buf.get());
    if (It == Replacement.end()) {
      if (Indices == N->Indices && Value == N->Value)
        return S;
      return ir::makeStoreLike(N, N->Buf, Indices, Value);
    }
    return ir::makeStoreLike(N, It->second, {flatIndex(N->Buf, Indices)}, Value);
  }

  ir::Stmt mutateAllocate(const ir::Stmt &S, const ir::AllocateNode *N) override {
    ir::Buffer Flat = flatten(N->Buf);
    ir::Stmt Body = mutate(N->Body);
    if (Flat == N->Buf && Body == N->Body)
      return S;
    return ir::makeAllocate(Flat, Body);
  }

private:
  std::map<const ir::BufferNode *, ir::Buffer> Replacement;

  /// Under a stated divisor (`K % 8 == 0`), the index shows it:
  /// `r*((K/8)*8) + c`, so the vector accesses of a copy that needs it are
  /// proven aligned.
  ir::Expr flatIndex(const ir::Buffer &B, const std::vector<ir::Expr> &Indices) const {
    return ir::flatIndex(ir::withDivisorFacts(B->Shape, Facts), Indices);
  }

  std::vector<ir::Expr> mutateAll(const std::vector<ir::Expr> &Es) {
    std::vector<ir::Expr> Out;
    Out.reserve(Es.size());
    for (const ir::Expr &E : Es)
      Out.push_back(mutate(E));
    return Out;
  }
};

} // namespace

ir::LoopNest storageFlatten(const ir::LoopNest &Nest) {
  Flattener F;
  ir::LoopNest Out = Nest;
  for (ir::Param &P : Out.Params)
    if (P.ParamKind == ir::Param::Kind::Buffer)
      P.Buf = F.flatten(P.Buf);
  Out.Body = F.mutate(Nest.Body);
  return Out;
}

const Pass StorageFlattenPass = {
    "StorageFlatten", /*Requires=*/FormAny, /*Establishes=*/FormFlattened,
    [](LoweringState &S) {
      S.Nest = storageFlatten(S.Nest);
      return true;
    }};

} // namespace passes
} // namespace sched
