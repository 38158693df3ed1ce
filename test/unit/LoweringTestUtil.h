//===- LoweringTestUtil.h - Helpers for lowering and codegen tests -*- C++ -*-===//
//
// Lowering tests start from textual IR (the format lit tests use too) and
// check results by evaluating expressions at concrete parameter values, so
// they do not depend on the exact form the simplifier picks.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_TEST_UNIT_LOWERINGTESTUTIL_H
#define SCHED_TEST_UNIT_LOWERINGTESTUTIL_H

#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Parser.h"
#include "ir/Simplify.h"

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

namespace sched {
namespace lowertest {

inline ir::LoopNest parseNest(const std::string &Text) {
  ir::LoopNest Nest;
  std::string Error;
  EXPECT_TRUE(ir::parseLoopNest(Text, Nest, Error)) << Error << "\n" << Text;
  return Nest;
}

inline ir::Var scalarParam(const ir::LoopNest &Nest, const std::string &Name) {
  for (const ir::Param &P : Nest.Params)
    if (P.ParamKind == ir::Param::Kind::Scalar && P.Scalar->Name == Name)
      return P.Scalar;
  return nullptr;
}

inline ir::Buffer bufferParam(const ir::LoopNest &Nest, const std::string &Name) {
  for (const ir::Param &P : Nest.Params)
    if (P.ParamKind == ir::Param::Kind::Buffer && P.Buf->Name == Name)
      return P.Buf;
  return nullptr;
}

/// The value of E with the named scalar parameters of Nest bound; -999999
/// when it does not fold to a constant.
inline int64_t evalAt(const ir::Expr &E, const ir::LoopNest &Nest,
                      const std::map<std::string, int64_t> &Values) {
  std::map<const ir::VarNode *, ir::Expr> Map;
  for (const auto &Entry : Values)
    if (ir::Var V = scalarParam(Nest, Entry.first))
      Map[V.get()] = ir::makeInt(Entry.second, V->Type);
  int64_t Out;
  if (!E || !ir::getConstInt(ir::simplify(ir::substitute(E, Map)), Out))
    return -999999;
  return Out;
}

/// Every For of S, in pre-order.
inline std::vector<const ir::ForNode *> loopsOf(const ir::Stmt &S) {
  struct Collector : ir::IRVisitor {
    std::vector<const ir::ForNode *> Loops;
    void visitFor(const ir::ForNode *N) override {
      Loops.push_back(N);
      ir::IRVisitor::visitFor(N);
    }
  } C;
  C.visit(S);
  return C.Loops;
}

/// Every Store of S, in program order.
inline std::vector<const ir::StoreNode *> storesOf(const ir::Stmt &S) {
  struct Collector : ir::IRVisitor {
    std::vector<const ir::StoreNode *> Stores;
    void visitStore(const ir::StoreNode *N) override {
      Stores.push_back(N);
      ir::IRVisitor::visitStore(N);
    }
  } C;
  C.visit(S);
  return C.Stores;
}

} // namespace lowertest
} // namespace sched

#endif
