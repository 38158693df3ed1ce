//===- PassUtil.cpp - Small helpers shared by passes and codegen ---------===//
//
// See PassUtil.h. Equality goes through ir::simplify: the one simplifier.
//
//===----------------------------------------------------------------------===//
#include "passes/PassUtil.h"
#include "ir/IRVisitor.h"
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

ir::Expr launchExtent(const LaunchGeometry &Geometry, const std::string &Tag) {
  int Dim = ir::threadTagDim(Tag);
  if (Dim < 0)
    return nullptr;
  return ir::isBlockTag(Tag) ? Geometry.Grid[Dim] : Geometry.Block[Dim];
}

} // namespace passes
} // namespace sched
