//===- NodeKindsTest.cpp - Every node kind of the table round-trips -------===//
//
// ir/NodeKinds.def is the one list of the IR's node kinds. The enums, the
// visitor and the mutator are made from it; this test holds the printer and
// the parser to it: a nest built with one node of every kind in the table
// (checked against the table itself, so a kind added there fails here until
// the sample has it) prints, parses back and prints the same text, and the
// visitor and the mutator see every kind.
//
//===----------------------------------------------------------------------===//
#include "ir/IR.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Parser.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>
#include <set>
#include <string>

using namespace sched;
using namespace sched::ir;

namespace {

/// Every kind of the table, by name.
std::set<std::string> tableKinds() {
  std::set<std::string> Kinds;
#define SCHED_EXPR_NODE(K) Kinds.insert(kindName(ExprKind::K));
#define SCHED_STMT_NODE(K) Kinds.insert(kindName(StmtKind::K));
#include "ir/NodeKinds.def"
  return Kinds;
}

/// The kinds a walk reaches, through one override per kind of the table.
class KindCollector : public IRVisitor {
public:
  std::set<std::string> Seen;

protected:
#define SCHED_EXPR_NODE(K)                                                                         \
  void visit##K(const K##Node *N) override {                                                       \
    Seen.insert(kindName(ExprKind::K));                                                            \
    IRVisitor::visit##K(N);                                                                        \
  }
#define SCHED_STMT_NODE(K)                                                                         \
  void visit##K(const K##Node *N) override {                                                       \
    Seen.insert(kindName(StmtKind::K));                                                            \
    IRVisitor::visit##K(N);                                                                        \
  }
#include "ir/NodeKinds.def"
};

/// The kinds the mutator dispatches, each handed back unchanged.
class MutatedKinds : public IRMutator {
public:
  std::set<std::string> Seen;

protected:
#define SCHED_EXPR_NODE(K)                                                                         \
  Expr mutate##K(const Expr &E, const K##Node *N) override {                                       \
    Seen.insert(kindName(ExprKind::K));                                                            \
    return IRMutator::mutate##K(E, N);                                                             \
  }
#define SCHED_STMT_NODE(K)                                                                         \
  Stmt mutate##K(const Stmt &S, const K##Node *N) override {                                       \
    Seen.insert(kindName(StmtKind::K));                                                            \
    return IRMutator::mutate##K(S, N);                                                             \
  }
#include "ir/NodeKinds.def"
};

/// One node of every kind:
///   for (i, 0, 8) { let t = i + 1 { allocate T: float32[1] local {
///     T[0] = select(i < 4, float32(t), -sqrtf(A[i]) * 2.5); if (!(i < 2)) Out[i] = T[0] } }
///     eval sched.syncthreads() }
LoopNest everyKind() {
  Buffer A = makeBuffer("A", DType::Float32, {makeInt(8)});
  Buffer Out = makeBuffer("Out", DType::Float32, {makeInt(8)});
  Buffer T = makeBuffer("T", DType::Float32, {makeInt(1)}, Scope::Local);
  Var I = makeVar("i"), Tv = makeVar("t");
  Expr Value = makeSelect(
      I < makeInt(4), makeCast(DType::Float32, Tv),
      makeUnary(UnOp::Neg, makeCall("sqrtf", {makeLoad(A, {I})}, DType::Float32)) *
          makeFloat(2.5));
  Stmt Body = makeSeq(
      {makeLet(Tv, I + makeInt(1),
               makeAllocate(T, makeSeq({makeStore(T, {makeInt(0)}, Value),
                                        makeIf(makeUnary(UnOp::Not, I < makeInt(2)),
                                               makeStore(Out, {I}, makeLoad(T, {makeInt(0)})))}))),
       makeEvaluate(makeCall("sched.syncthreads", {}, DType::Int32))});
  LoopNest Nest;
  Nest.Name = "every_kind";
  Nest.Params.push_back({Param::Kind::Buffer, A, nullptr});
  Nest.Params.push_back({Param::Kind::Buffer, Out, nullptr});
  Nest.Body = makeFor(I, makeInt(0), makeInt(8), Body);
  return Nest;
}

TEST(NodeKindsTest, TheSampleHasEveryKindOfTheTable) {
  KindCollector C;
  C.visit(everyKind().Body);
  EXPECT_EQ(C.Seen, tableKinds());
}

TEST(NodeKindsTest, EveryKindPrintsAndParsesBack) {
  LoopNest Nest = everyKind();
  std::string Text = print(Nest);
  LoopNest Parsed;
  std::string Error;
  ASSERT_TRUE(parseLoopNest(Text, Parsed, Error)) << Error << "\n" << Text;
  EXPECT_EQ(print(Parsed), Text);
  KindCollector C;
  C.visit(Parsed.Body);
  EXPECT_EQ(C.Seen, tableKinds());
}

TEST(NodeKindsTest, TheMutatorDispatchesEveryKindAndKeepsAnUnchangedTree) {
  LoopNest Nest = everyKind();
  MutatedKinds M;
  EXPECT_EQ(M.mutate(Nest.Body), Nest.Body);
  EXPECT_EQ(M.Seen, tableKinds());
}

} // namespace
