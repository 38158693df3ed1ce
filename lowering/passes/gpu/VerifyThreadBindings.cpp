//===- VerifyThreadBindings.cpp - Check thread bindings -------------------===//
//
// A schedule binds loops to CUDA's block and thread indices. This pass checks
// that the bindings describe a real launch:
//  - a tag is one of blockIdx.{x,y,z}, threadIdx.{x,y,z}, vthread or cthread
//    (VTA's name for a virtual thread; lowered the same way here);
//  - a tag appears at most once on any nesting path (threadIdx.x cannot index
//    two nested loops), and no block-bound loop sits inside a thread-bound one
//    (a block cannot be chosen by a thread).
//    The exception: a threadIdx loop inside a loop of its own tag whose
//    subtree does not use the outer variable names the same threads again
//    (a cache stage spread over the compute's threads); it is no launch
//    dimension of its own, and DistributeOverThreads lowers it.
// A warp collective (a tensor-core operation) is executed by the 32 lanes
// of a warp with the same arguments: threadIdx.x is the lane, so no loop
// bound to threadIdx.x may decide a collective's arguments or whether it
// runs (bind warps to threadIdx.y and threadIdx.z).
// Virtual-thread loops (vthread, cthread) are not launch dimensions: they may
// sit anywhere and are left as they are for InjectVirtualThread, which runs
// next. The launch extents are ComputeLaunchGeometry's (the kernel context);
// this pass changes nothing.
//
// Runs right after NormalizeLoops, first of the passes that read bindings.
//
//===----------------------------------------------------------------------===//
#include "ir/IRVisitor.h"
#include "ir/Intrinsics.h"
#include "ir/Printer.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

namespace {

Diag makeDiag(Diag::Level Level, std::string Message) {
  Diag D;
  D.Severity = Level;
  D.Message = std::move(Message);
  return D;
}

/// Walks the loop tree and checks every binding against the path above it.
class BindingChecker : public ir::IRVisitor {
public:
  explicit BindingChecker(std::vector<Diag> &Diags) : Diags(Diags) {}

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

  void visitIfThenElse(const ir::IfThenElseNode *N) override {
    Conditions.push_back(N->Cond);
    ir::IRVisitor::visitIfThenElse(N);
    Conditions.pop_back();
  }

  void visitLetStmt(const ir::LetStmtNode *N) override {
    Lets.push_back(N);
    ir::IRVisitor::visitLetStmt(N);
    Lets.pop_back();
  }

  void visitEvaluate(const ir::EvaluateNode *N) override {
    if (ir::isWarpCollectiveCall(N->Value))
      checkCollective(N->Value);
    ir::IRVisitor::visitEvaluate(N);
  }

private:
  std::vector<Diag> &Diags;
  std::vector<const ir::ForNode *> Path; // enclosing thread-bound loops
  std::vector<ir::Expr> Conditions;      // enclosing if conditions
  std::vector<const ir::LetStmtNode *> Lets; // enclosing lets
  bool ReportedLane = false;

  /// Whether E depends on V, through the enclosing lets too.
  bool dependsOn(const ir::Expr &E, const ir::VarNode *V) const {
    std::set<const ir::VarNode *> Vars = ir::varsOf(E);
    for (size_t I = Lets.size(); I-- > 0;)
      if (Vars.count(Lets[I]->LetVar.get()))
        for (const ir::VarNode *U : ir::varsOf(Lets[I]->Value))
          Vars.insert(U);
    return Vars.count(V) != 0;
  }

  void checkCollective(const ir::Expr &Call) {
    for (const ir::ForNode *L : Path) {
      if (ReportedLane || L->ThreadTag != "threadIdx.x")
        continue;
      std::string Why;
      if (dependsOn(Call, L->LoopVar.get()))
        Why = "its arguments depend on loop '" + L->LoopVar->Name + "'";
      for (const ir::Expr &C : Conditions)
        if (Why.empty() && dependsOn(C, L->LoopVar.get()))
          Why = "it runs under `" + ir::print(C) + "`";
      if (Why.empty())
        continue;
      ReportedLane = true;
      error("the tensor-core operation `" + ir::print(Call) + "` would differ between the lanes " +
            "of a warp: " + Why + ", bound to threadIdx.x, which is the lane of the warp that " +
            "executes it (bind warps to threadIdx.y and threadIdx.z)");
    }
  }

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
  }
};

} // namespace

bool verifyThreadBindings(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  BindingChecker Checker(Diags);
  Checker.visit(Nest.Body);
  return !Checker.Failed;
}

const Pass VerifyThreadBindingsPass = {
    "VerifyThreadBindings", /*Requires=*/FormAny, /*Establishes=*/FormBindingsVerified,
    [](LoweringState &S) {
      return verifyThreadBindings(S.Nest, S.Diags);
    }};

} // namespace passes
} // namespace sched
