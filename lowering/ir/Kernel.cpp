//===- Kernel.cpp - Questions about a lowered kernel's launch -------------===//
//
// What the launch geometry and the launcher's expressions are over: asked by
// the passes that compute them, by codegen and by the launch descriptor.
//
//===----------------------------------------------------------------------===//
#include "ir/Kernel.h"
#include "ir/IRVisitor.h"

namespace sched {

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

ir::Expr launchExtent(const LaunchGeometry &Geometry, const std::string &Tag) {
  int Dim = ir::threadTagDim(Tag);
  if (Dim < 0)
    return nullptr;
  return ir::isBlockTag(Tag) ? Geometry.Grid[Dim] : Geometry.Block[Dim];
}

namespace ir {

namespace {

/// Sums the sizes of the shared allocations; Bytes becomes -1 at the first
/// one whose size is not a constant.
class SharedBytesCounter : public IRVisitor {
public:
  int64_t Bytes = 0;

protected:
  void visitAllocate(const AllocateNode *N) override {
    // Each shared buffer is allocated once (the kernel verifier's final form).
    if (N->Buf->MemScope == Scope::Shared && Bytes >= 0) {
      int64_t Elements = constantElements(*N->Buf);
      Bytes = Elements < 0 ? -1 : Bytes + Elements * dtypeBytes(N->Buf->Type);
    }
    IRVisitor::visitAllocate(N);
  }
};

} // namespace

int64_t staticSharedBytes(const LoopNest &Kernel) { return staticSharedBytes(Kernel.Body); }

int64_t staticSharedBytes(const Stmt &Body) {
  SharedBytesCounter Counter;
  Counter.visit(Body);
  return Counter.Bytes;
}

} // namespace ir

} // namespace sched
