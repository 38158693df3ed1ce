//===- ComputeLaunchGeometry.cpp - Grid and block extents ----------------===//
//
// The launcher needs gridDim and blockDim before the kernel runs, so they must
// be expressions over the kernel's scalar parameters: an extent that depends
// on a serial loop variable (a thread loop whose size changes per iteration)
// cannot be launched and is an error, reported here. After
// VerifyThreadBindings every loop bound to a tag has the same extent, so the
// extent of a tag is that of any of its loops. Unused dimensions are 1.
//
//===----------------------------------------------------------------------===//
#include "ir/IRVisitor.h"
#include "ir/Simplify.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

namespace {

class GeometryCollector : public ir::IRVisitor {
public:
  GeometryCollector(const std::set<const ir::VarNode *> &Params, LaunchGeometry &Geometry,
                    std::vector<Diag> &Diags)
      : Params(Params), Geometry(Geometry), Diags(Diags) {}
  bool Failed = false;

protected:
  void visitFor(const ir::ForNode *N) override {
    if (N->LoopKind == ir::ForKind::ThreadBound)
      record(N);
    ir::IRVisitor::visitFor(N);
  }

private:
  const std::set<const ir::VarNode *> &Params;
  LaunchGeometry &Geometry;
  std::vector<Diag> &Diags;

  void error(const std::string &Message) {
    Diag D;
    D.Message = Message;
    Diags.push_back(D);
    Failed = true;
  }

  void record(const ir::ForNode *N) {
    int Dim = ir::threadTagDim(N->ThreadTag);
    if (Dim < 0) {
      error("loop '" + N->LoopVar->Name + "' is bound to '" + N->ThreadTag +
            "', which is not a launch dimension");
      return;
    }
    for (const ir::VarNode *V : ir::varsOf(N->Extent))
      if (!Params.count(V)) {
        error("the extent of loop '" + N->LoopVar->Name + "' bound to " + N->ThreadTag +
              " depends on '" + V->Name +
              "', which is not a kernel parameter; launch extents must be loop-invariant");
        return;
      }
    ir::Expr &Slot = ir::isBlockTag(N->ThreadTag) ? Geometry.Grid[Dim] : Geometry.Block[Dim];
    ir::Expr Extent = ir::simplify(N->Extent);
    if (!Slot)
      Slot = Extent;
    else if (!provablyEqual(Slot, Extent))
      Slot = ir::simplify(ir::makeBinary(ir::BinOp::Max, Slot, Extent));
  }
};

} // namespace

bool computeLaunchGeometry(const ir::LoopNest &Nest, LaunchGeometry &Out,
                           std::vector<Diag> &Diags) {
  Out = LaunchGeometry();
  std::set<const ir::VarNode *> Params = scalarParams(Nest);
  GeometryCollector Collector(Params, Out, Diags);
  Collector.visit(Nest.Body);
  for (int D = 0; D < 3; ++D) {
    if (!Out.Grid[D])
      Out.Grid[D] = ir::makeInt(1);
    if (!Out.Block[D])
      Out.Block[D] = ir::makeInt(1);
  }
  return !Collector.Failed;
}

} // namespace passes
} // namespace sched
