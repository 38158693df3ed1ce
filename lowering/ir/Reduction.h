//===- Reduction.h - What a reduction loop reduces into ------*- C++ -*-===//
//
// A loop bound to threadIdx that carries a reduction (`for ki: y[i] = y[i] +
// A[i][ki]`, bound by `bind(ki, threadIdx.x)`) is a cross-thread reduction:
// each thread reduces its iterations into a partial result, and the block
// combines the partials (passes/gpu/LowerThreadReductions.cpp). That is
// exact only when everything the loop writes outside itself is such an
// update of one element: this file says whether it is, for the schedule
// (which refuses the bind otherwise, with the reason) and the pass (which
// rewrites the updates it names) alike.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_REDUCTION_H
#define SCHED_IR_REDUCTION_H

#include "ir/IR.h"
#include <string>
#include <vector>

namespace sched {
namespace ir {

/// The updates of one element reduced across a loop's iterations.
struct ReductionUpdate {
  Buffer Buf;                             // y
  std::vector<Expr> Indices;              // [i]: the same element in every update
  BinOp Combine = BinOp::Add;             // how two partial results combine (+ for -)
  std::vector<const StoreNode *> Stores;  // `y[i] = y[i] + e`, in program order

  /// Whether S is one of the updates.
  bool updatedBy(const StmtNode *S) const {
    for (const StoreNode *St : Stores)
      if (St == S)
        return true;
    return false;
  }
};

/// The elements loop L reduces into, when everything L's body writes outside
/// itself (buffers allocated inside L are private to an iteration) is a
/// commutative update (ir::isCommutativeUpdate) of an element that no loop
/// from L inward moves, and such an element is read only by its updates.
/// False, with Why saying what stands in the way, otherwise.
bool reductionUpdatesOf(const ForNode *L, std::vector<ReductionUpdate> &Out,
                        std::string *Why = nullptr);

/// Whether a loop over LoopVar with this body carries a reduction: the body
/// stores an element whose index does not use the loop (`acc += ...`,
/// `C[i][j] += ...`), of a buffer not allocated inside the body, with a
/// value that reads that element. The extractor sets ForNode::IsReduction
/// from it, and rfactor refreshes it.
bool carriesReduction(const Stmt &Body, const VarNode *LoopVar);

/// The buffer of the first extremum Body keeps together with other values it
/// selects, as C writes an argmax: `if (e > M[i]) { M[i] = e; I[j] = k; }`
/// (any of < <= > >=, M on either side); null where there is none. Such a
/// guarded pair is no commutative update, so the loop carries a dependence,
/// not a reduction; Bind names the pattern in its refusal.
const BufferNode *extremumWithPayload(const Stmt &Body);

/// S with every loop's IsReduction recomputed (carriesReduction).
Stmt refreshReductionFlags(const Stmt &S);

/// Body with U's updates made updates of element At of To instead (stored
/// there, and read there where they read their own element, whatever
/// conversions surround the operation): a partial result of the reduction.
Stmt redirectUpdates(const Stmt &Body, const ReductionUpdate &U, const Buffer &To,
                     const std::vector<Expr> &At);

/// A Combine B, converted to T where C's arithmetic computes a narrow type
/// in int (as the store of an update does).
Expr combineIn(BinOp Combine, DType T, Expr A, Expr B);

/// The value a partial result of Combine starts from (0 for +, 1 for *, the
/// type's largest value or infinity for min, ...), of type T; null when
/// Combine is no reduction operation.
Expr reductionIdentity(BinOp Combine, DType T);

} // namespace ir
} // namespace sched

#endif
