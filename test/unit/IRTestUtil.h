//===- IRTestUtil.h - Small IR builders shared by the IR unit tests -*- C++ -*-===//
//
// A matmul nest built through the public constructors, so every IR test
// starts from the same realistic input.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_TEST_UNIT_IRTESTUTIL_H
#define SCHED_TEST_UNIT_IRTESTUTIL_H

#include "ir/IR.h"

namespace sched {
namespace irtest {

/// C[i, j] = sum_k A[i, k] * B[k, j] with an accumulator in a local buffer.
struct Matmul {
  ir::Var M = ir::makeVar("M"), N = ir::makeVar("N"), K = ir::makeVar("K");
  ir::Var I = ir::makeVar("i"), J = ir::makeVar("j"), Kv = ir::makeVar("k");
  ir::Buffer A = ir::makeBuffer("A", ir::DType::Float32, {M, K});
  ir::Buffer B = ir::makeBuffer("B", ir::DType::Float32, {K, N});
  ir::Buffer C = ir::makeBuffer("C", ir::DType::Float32, {M, N});
  ir::Buffer Acc = ir::makeBuffer("acc", ir::DType::Float32, {ir::makeInt(1)}, ir::Scope::Local);
  ir::Stmt KLoop, JLoop, ILoop;

  Matmul() {
    using namespace ir;
    Expr Zero = makeInt(0);
    Stmt Update = makeStore(Acc, {Zero}, makeLoad(Acc, {Zero}) +
                                             makeLoad(A, {I, Kv}) * makeLoad(B, {Kv, J}));
    KLoop = makeFor(Kv, Zero, K, Update, ForKind::Serial, "", /*IsReduction=*/true);
    Stmt Body = makeAllocate(Acc, makeSeq({makeStore(Acc, {Zero}, makeFloat(0.0)), KLoop,
                                           makeStore(C, {I, J}, makeLoad(Acc, {Zero}))}));
    JLoop = makeFor(J, Zero, N, Body);
    ILoop = makeFor(I, Zero, M, JLoop);
  }

  ir::LoopNest nest() const {
    ir::LoopNest Nest;
    Nest.Name = "sched_mm_10";
    Nest.Target = "gpu";
    for (const ir::Buffer &Buf : {A, B, C})
      Nest.Params.push_back({ir::Param::Kind::Buffer, Buf, nullptr});
    for (const ir::Var &V : {M, N, K})
      Nest.Params.push_back({ir::Param::Kind::Scalar, nullptr, V});
    Nest.Body = ILoop;
    return Nest;
  }
};

} // namespace irtest
} // namespace sched

#endif
