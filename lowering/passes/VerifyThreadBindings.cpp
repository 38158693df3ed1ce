//===- VerifyThreadBindings.cpp - Check and complete thread bindings -----===//
//
// A schedule binds loops to CUDA's block and thread indices. This pass checks
// that the bindings describe a real launch and makes the launch uniform:
//  - a tag is one of blockIdx.{x,y,z}, threadIdx.{x,y,z}, vthread or cthread
//    (VTA's name for a virtual thread; lowered the same way here);
//  - a tag appears at most once on any nesting path (threadIdx.x cannot index
//    two nested loops), and no block-bound loop sits inside a thread-bound one
//    (a block cannot be chosen by a thread).
//    The exception: a threadIdx loop inside a loop of its own tag whose
//    subtree does not use the outer variable names the same threads again
//    (a cache stage spread over the compute's threads); it is no launch
//    dimension of its own, is not widened here, and DistributeOverThreads
//    lowers it;
//  - loops bound to the same tag in different parts of the kernel (say a
//    shared-memory fill over 64 threads and a compute over 32) share one
//    launch extent, the max of theirs; every such loop is widened to that
//    extent and its body guarded by `if (v < extent)`, so after this pass all
//    loops of a tag have the same extent, which ComputeLaunchGeometry reads.
// Virtual-thread loops (vthread, cthread) are not launch dimensions: they may
// sit anywhere and are left as they are for InjectVirtualThread, which runs
// next.
//
// Runs right after NormalizeLoops (guards compare the zero-based variable).
//
//===----------------------------------------------------------------------===//
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Simplify.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <map>

namespace sched {
namespace passes {

namespace {

Diag makeDiag(Diag::Level Level, std::string Message) {
  Diag D;
  D.Severity = Level;
  D.Message = std::move(Message);
  return D;
}

/// Walks the loop tree, checks every binding against the path above it and
/// collects the extents of the loops of each tag.
class BindingChecker : public ir::IRVisitor {
public:
  explicit BindingChecker(std::vector<Diag> &Diags) : Diags(Diags) {}

  std::map<std::string, std::vector<ir::Expr>> ExtentsByTag;
  bool Failed = false;

protected:
  void visitFor(const ir::ForNode *N) override {
    if (N->LoopKind != ir::ForKind::ThreadBound) {
      ir::IRVisitor::visitFor(N);
      return;
    }
    checkBinding(N);
    Path.push_back(N);
    ir::IRVisitor::visitFor(N);
    Path.pop_back();
  }

private:
  std::vector<Diag> &Diags;
  std::vector<const ir::ForNode *> Path; // enclosing thread-bound loops

  void error(std::string Message) {
    Diags.push_back(makeDiag(Diag::Level::Error, std::move(Message)));
    Failed = true;
  }

  void checkBinding(const ir::ForNode *N) {
    const std::string &Tag = N->ThreadTag;
    const std::string Loop = "loop '" + N->LoopVar->Name + "'";
    if (ir::isVirtualThreadTag(Tag))
      return;
    if (ir::threadTagDim(Tag) < 0) {
      error(Loop + " is bound to unknown thread tag '" + Tag + "'");
      return;
    }
    for (const ir::ForNode *Outer : Path) {
      if (Outer->ThreadTag == Tag) {
        // The same threads again (DistributeOverThreads lowers it), unless it
        // depends on the enclosing loop, or is a second block loop.
        if (!ir::isThreadIdxTag(Tag) || ir::loopUsesVar(N, Outer->LoopVar.get()))
          error(Loop + " is bound to " + Tag + " inside loop '" + Outer->LoopVar->Name +
                "', which is bound to it already");
        return; // not a launch dimension of its own
      }
      if (ir::isBlockTag(Tag) && ir::isThreadIdxTag(Outer->ThreadTag))
        error(Loop + " is bound to " + Tag + " inside loop '" + Outer->LoopVar->Name +
              "' bound to " + Outer->ThreadTag +
              ": block loops must enclose thread loops");
    }
    ExtentsByTag[Tag].push_back(N->Extent);
  }
};

bool isParamExpr(const ir::Expr &E, const std::set<const ir::VarNode *> &Params) {
  for (const ir::VarNode *V : ir::varsOf(E))
    if (!Params.count(V))
      return false;
  return true;
}

/// The launch extent of a tag: the max over its loops' extents. Extents that
/// are not expressions over parameters are left out here;
/// ComputeLaunchGeometry reports them.
ir::Expr combineExtents(const std::vector<ir::Expr> &Extents,
                        const std::set<const ir::VarNode *> &Params) {
  ir::Expr Launch;
  for (const ir::Expr &E : Extents) {
    if (!isParamExpr(E, Params))
      return nullptr;
    if (!Launch || provablyEqual(Launch, E))
      Launch = Launch ? Launch : E;
    else
      Launch = ir::simplify(ir::makeBinary(ir::BinOp::Max, Launch, E));
  }
  return Launch;
}

/// Widens thread-bound loops to their tag's launch extent behind a guard.
class BindingRewriter : public ir::IRMutator {
public:
  explicit BindingRewriter(const std::map<std::string, ir::Expr> &Launch) : Launch(Launch) {}

protected:
  ir::Stmt mutateFor(const ir::Stmt &S, const ir::ForNode *N) override {
    bool Opens = N->LoopKind == ir::ForKind::ThreadBound && OpenTags.insert(N->ThreadTag).second;
    ir::Stmt Body = mutate(N->Body);
    if (Opens)
      OpenTags.erase(N->ThreadTag);
    auto It = N->LoopKind == ir::ForKind::ThreadBound && !OpenTags.count(N->ThreadTag)
                  ? Launch.find(N->ThreadTag)
                  : Launch.end();
    if (It == Launch.end() || !It->second || provablyEqual(It->second, N->Extent)) {
      if (Body == N->Body)
        return S;
      return ir::makeFor(N->LoopVar, N->Min, N->Extent, Body, N->LoopKind, N->ThreadTag,
                         N->IsReduction);
    }
    ir::Stmt Guarded = ir::makeIf(ir::Expr(N->LoopVar) < N->Extent, Body);
    return ir::makeFor(N->LoopVar, N->Min, It->second, Guarded, N->LoopKind, N->ThreadTag,
                       N->IsReduction);
  }

private:
  const std::map<std::string, ir::Expr> &Launch;
  std::set<std::string> OpenTags; // tags of the enclosing thread-bound loops
};

} // namespace

ir::LoopNest verifyThreadBindings(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  std::set<const ir::VarNode *> Params = scalarParams(Nest);
  BindingChecker Checker(Diags);
  Checker.visit(Nest.Body);
  if (Checker.Failed)
    return Nest;

  std::map<std::string, ir::Expr> Launch;
  for (const auto &Entry : Checker.ExtentsByTag)
    Launch[Entry.first] = combineExtents(Entry.second, Params);

  ir::LoopNest Out = Nest;
  Out.Body = BindingRewriter(Launch).mutate(Nest.Body);
  return Out;
}

} // namespace passes
} // namespace sched
