//===- ComputeLaunchGeometry.cpp - The kernel context ---------------------===//
//
// The one place launch extents are computed. The launcher needs gridDim and
// blockDim before the kernel runs, so they must be expressions over the
// kernel's scalar parameters. A thread loop whose extent depends on an
// enclosing loop (the inner loop of a triangular nest bound to threads, `for
// (j, 0, i + 1)`) launches the largest extent it takes over the enclosing
// loops' ranges (a constant where one bounds it: a band `min(n, i + 3) -
// max(0, i - 2)` launches 5); WidenThreadLoops then guards it with its own
// extent. An extent with no such bound over the parameters is an error,
// reported here. Loops bound to the same tag in
// different parts of the kernel (a shared-memory fill over 64 threads and a
// compute over 32) share one launch extent, the max of theirs (WidenThreadLoops
// then makes every such loop run over it). A threadIdx loop inside a loop of
// its own tag names that loop's threads again and is no launch dimension.
// Unused dimensions are 1, but for threadIdx.x in a kernel with warp
// collectives (tensor-core operations): that is the lane, 32 threads. A
// kernel with warp shuffles needs them to stay in a row of x: an x extent
// that is a multiple of 32, or a power of two above every lane mask in a
// block of whole warps.
//
// Runs after VerifyThreadBindings (tags are known and nest properly) and
// InjectVirtualThread (no virtual-thread loop is left, and none is a launch
// dimension anyway). Every later pass reads the extents from the
// KernelContext filled in here.
//
//===----------------------------------------------------------------------===//
#include "ir/Bounds.h"
#include "ir/Check.h"
#include "ir/IRVisitor.h"
#include "ir/Intrinsics.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"


namespace sched {
namespace passes {

namespace {

/// The slot of a launch tag in Geometry (null for any other tag).
ir::Expr *slotOf(LaunchGeometry &Geometry, const std::string &Tag) {
  int Dim = ir::threadTagDim(Tag);
  if (Dim < 0)
    return nullptr;
  return ir::isBlockTag(Tag) ? &Geometry.Grid[Dim] : &Geometry.Block[Dim];
}

class GeometryCollector : public ir::IRVisitor {
public:
  GeometryCollector(const std::set<const ir::VarNode *> &Params, KernelContext &Ctx,
                    std::vector<Diag> &Diags)
      : Params(Params), Ctx(Ctx), Diags(Diags) {}
  bool Failed = false;

protected:
  void visitFor(const ir::ForNode *N) override {
    bool Opens = N->LoopKind == ir::ForKind::ThreadBound && Open.insert(N->ThreadTag).second;
    if (Opens)
      record(N);
    Enclosing[N->LoopVar.get()] = {N->Min, ir::simplify(N->Min + N->Extent -
                                                        ir::makeInt(1, N->Extent->Type))};
    ir::IRVisitor::visitFor(N);
    Enclosing.erase(N->LoopVar.get());
    if (Opens)
      Open.erase(N->ThreadTag);
  }

private:
  const std::set<const ir::VarNode *> &Params;
  KernelContext &Ctx;
  std::vector<Diag> &Diags;
  std::set<std::string> Open; // tags of the enclosing thread-bound loops
  ir::VarRanges Enclosing;    // the ranges of the enclosing loops

  bool onlyParams(const ir::Expr &E) const {
    for (const ir::VarNode *V : ir::varsOf(E))
      if (!Params.count(V))
        return false;
    return true;
  }

  /// The extent N launches: its own, or the largest it takes over the
  /// enclosing loops (null when that has no bound over the parameters).
  ir::Expr launchExtentOf(const ir::ForNode *N) const {
    if (onlyParams(N->Extent))
      return ir::simplify(N->Extent);
    int64_t Constant;
    if (ir::constantUpperBound(N->Extent, Enclosing, Constant))
      return ir::makeInt(std::max<int64_t>(Constant, 0), N->Extent->Type);
    ir::Interval Hull = ir::boundsOf(N->Extent, Enclosing);
    if (Hull.Max && onlyParams(Hull.Max))
      return ir::simplify(ir::makeBinary(ir::BinOp::Max, Hull.Max,
                                         ir::makeInt(0, N->Extent->Type)));
    return nullptr;
  }

  void error(const std::string &Message) {
    Diag D;
    D.Message = Message;
    Diags.push_back(D);
    Failed = true;
  }

  void record(const ir::ForNode *N) {
    if (ir::isVirtualThreadTag(N->ThreadTag))
      return; // no launch dimension (still there for LowerThreadReductions)
    ir::Expr *Slot = slotOf(Ctx.Geometry, N->ThreadTag);
    if (!Slot) {
      error("loop '" + N->LoopVar->Name + "' is bound to '" + N->ThreadTag +
            "', which is not a launch dimension");
      return;
    }
    ir::Expr Extent = launchExtentOf(N);
    if (!Extent) {
      for (const ir::VarNode *V : ir::varsOf(N->Extent))
        if (!Params.count(V)) {
          error("the extent of loop '" + N->LoopVar->Name + "' bound to " + N->ThreadTag +
                " depends on '" + V->Name + "', and no bound of it over the kernel's "
                "parameters is known; launch extents must be loop-invariant");
          return;
        }
    }
    if (!*Slot)
      *Slot = Extent;
    else if (!provablyEqual(*Slot, Extent))
      *Slot = ir::simplify(ir::makeBinary(ir::BinOp::Max, *Slot, Extent));
    Ctx.BoundTags.insert(N->ThreadTag);
  }
};

} // namespace

ir::Expr KernelContext::extent(const std::string &Tag) const {
  SCHED_CHECK(Known, "the kernel context is read before ComputeLaunchGeometry filled it in");
  return launchExtent(Geometry, Tag);
}

int64_t KernelContext::constExtent(const std::string &Tag) const {
  int64_t Value;
  ir::Expr E = extent(Tag);
  return E && ir::getConstInt(E, Value) ? Value : -1;
}

std::vector<std::string> KernelContext::threadTags() const {
  std::vector<std::string> Tags;
  for (const char *Tag : {"threadIdx.z", "threadIdx.y", "threadIdx.x"})
    if (constExtent(Tag) != 1)
      Tags.push_back(Tag);
  return Tags;
}

std::map<std::string, int64_t> KernelContext::blockExtents() const {
  std::map<std::string, int64_t> Out;
  for (const char *Tag : {"threadIdx.x", "threadIdx.y", "threadIdx.z"})
    Out[Tag] = constExtent(Tag);
  return Out;
}

std::map<std::string, int64_t> KernelContext::gridExtents() const {
  std::map<std::string, int64_t> Out;
  for (const char *Tag : {"blockIdx.x", "blockIdx.y", "blockIdx.z"})
    Out[Tag] = constExtent(Tag);
  return Out;
}

/// The largest lane mask of Body's warp.shfl_xor calls (-1: one not constant).
static int64_t largestShuffleMask(const ir::Stmt &Body) {
  struct Masks : ir::IRVisitor {
    int64_t Largest = 0;
    void visitCall(const ir::CallNode *N) override {
      int64_t Mask;
      if (N->Name == ir::WarpShflXor && Largest >= 0)
        Largest = N->Args.size() == 3 && ir::getConstInt(N->Args[2], Mask)
                      ? std::max(Largest, Mask)
                      : -1;
      ir::IRVisitor::visitCall(N);
    }
  } M;
  M.visit(Body);
  return M.Largest;
}

bool shuffleGroupsStayInRows(const LaunchGeometry &Geometry, int64_t Width) {
  int64_t E[3] = {1, 1, 1};
  bool Constant[3] = {true, true, true};
  for (int D = 0; D < 3; ++D)
    if (Geometry.Block[D])
      Constant[D] = ir::getConstInt(Geometry.Block[D], E[D]);
  if (!Constant[0])
    return false;
  if (E[0] % 32 == 0)
    return true; // whatever the other dimensions: each warp lies in a row
  if (!Constant[1] || !Constant[2])
    return false;
  return (E[0] & (E[0] - 1)) == 0 && Width <= E[0] && (E[0] * E[1] * E[2]) % 32 == 0;
}

bool computeLaunchGeometry(const ir::LoopNest &Nest, KernelContext &Out,
                           std::vector<Diag> &Diags) {
  Out = KernelContext();
  std::set<const ir::VarNode *> Params = scalarParams(Nest);
  GeometryCollector Collector(Params, Out, Diags);
  Collector.visit(Nest.Body);
  // A tensor-core collective needs whole warps: threadIdx.x is the lane, 32
  // of them (one warp when nothing binds threadIdx.x).
  if (hasWarpCollective(Nest.Body, /*LanesOnX=*/true)) {
    int64_t X;
    if (!Out.Geometry.Block[0]) {
      Out.Geometry.Block[0] = ir::makeInt(32);
      Out.BoundTags.insert("threadIdx.x"); // the lanes: a stage spread over the block uses them
    } else if (!ir::getConstInt(Out.Geometry.Block[0], X) || X != 32) {
      Diag D;
      D.Message = "the kernel runs tensor-core operations, which the 32 lanes of a warp execute "
                  "together along threadIdx.x, but threadIdx.x has launch extent " +
                  ir::print(Out.Geometry.Block[0]) +
                  "; bind warps to threadIdx.y and threadIdx.z";
      Diags.push_back(D);
      Collector.Failed = true;
    }
  }
  // A shuffle needs whole warps and partners in its own row of x: an x
  // extent that is a multiple of 32, or a power of two below 32 that every
  // shuffle's lane mask stays under, in a block of whole warps (the two ways
  // LowerThreadReductions uses shuffles).
  const bool Shuffles = !Collector.Failed && hasWarpCollective(Nest.Body) &&
                        !hasWarpCollective(Nest.Body, /*LanesOnX=*/true);
  const int64_t Mask = Shuffles ? largestShuffleMask(Nest.Body) : 0;
  if (Shuffles && (Mask < 0 || !shuffleGroupsStayInRows(Out.Geometry, Mask + 1))) {
    Diag D;
    D.Message = "the kernel exchanges values between the lanes of a warp, but threadIdx.x has "
                "launch extent " +
                (Out.Geometry.Block[0] ? ir::print(Out.Geometry.Block[0]) : std::string("1")) +
                ", neither a multiple of 32 nor a power of two the shuffles stay within in a "
                "block of whole warps";
    Diags.push_back(D);
    Collector.Failed = true;
  }
  for (int D = 0; D < 3; ++D) {
    if (!Out.Geometry.Grid[D])
      Out.Geometry.Grid[D] = ir::makeInt(1);
    if (!Out.Geometry.Block[D])
      Out.Geometry.Block[D] = ir::makeInt(1);
  }
  Out.Known = !Collector.Failed;
  return Out.Known;
}

const Pass ComputeLaunchGeometryPass = {
    "ComputeLaunchGeometry", /*Requires=*/FormNoVirtualThreads, /*Establishes=*/FormGeometryKnown,
    [](LoweringState &S) {
      return computeLaunchGeometry(S.Nest, S.Ctx, S.Diags);
    }};

} // namespace passes
} // namespace sched
