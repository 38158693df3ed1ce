//===- VerifyKernel.cpp - Well-formedness of the kernel ------------------===//
//
// The lowered kernel goes to CUDA codegen, into the launch descriptor and
// into the simulator, none of which can report a malformed kernel in source
// terms. So this checks, and reports as errors ("malformed kernel: ..."),
// always:
//  - every variable is a scalar parameter or defined by an enclosing loop or
//    let (and no loop or let redefines a variable already in scope);
//  - every buffer accessed is a parameter or allocated around the access, and
//    is accessed with one index per dimension;
// and, as the pipeline goes on, what the passes so far promise (KernelForm):
//  - bindings verified: every thread-bound loop has a known tag, and no block
//    loop sits inside a thread loop;
//  - no virtual threads: no vthread/cthread loop is left;
//  - geometry known: the kernel context is filled in, and knows every tag a
//    loop is bound to;
//  - launch loops widened: the outermost loop of each tag runs over exactly
//    the tag's launch extent;
//  - distributed: so does every thread-bound loop (no loop names its
//    enclosing loop's threads again), and every statement that writes global
//    or shared memory lies inside a loop of every thread dimension of the
//    block (CUDA would run it on every thread of a dimension it is outside
//    of) - but a warp collective, which every lane (threadIdx.x) of its warp
//    runs, with arguments and under conditions that do not depend on the
//    lane;
//  - synchronized: no barrier under control flow that depends on the thread
//    (not every thread would reach it);
//  - flattened: every buffer has one dimension;
//  - final: every allocation has a constant, positive size (CUDA arrays and
//    __shared__ arrays are sized at compile time), and a shared buffer is
//    allocated once (CUDA declares it once, at the kernel's top; two copies
//    of code share one allocation around both).
// The last pass runs it with everything; it is the GPU target's verifier
// (targets/GPU.cpp): the pass driver runs it on a pass's input with the form
// the pass requires, and, under PipelineOptions::VerifyEach, after every
// pass with what holds there.
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/IRVisitor.h"
#include "ir/Intrinsics.h"
#include "ir/Printer.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

namespace {

class KernelVerifier : public ir::IRVisitor {
public:
  KernelVerifier(const ir::LoopNest &Nest, const KernelContext &Ctx, unsigned Form,
                 std::vector<Diag> &Diags)
      : Ctx(Ctx), Form(Form), Diags(Diags) {
    for (const ir::Param &P : Nest.Params) {
      if (P.ParamKind == ir::Param::Kind::Scalar && P.Scalar)
        Vars.insert(P.Scalar.get());
      else if (P.ParamKind == ir::Param::Kind::Buffer && P.Buf)
        Buffers.insert(P.Buf.get());
    }
    // A cache stage's region placeholders stand for values bound inference
    // has not inferred yet.
    for (const ir::StageRegion &Stage : Nest.Stages)
      for (const auto *List : {&Stage.Mins, &Stage.Extents})
        for (const ir::Var &V : *List)
          Vars.insert(V.get());
    // A warp collective runs on every lane (threadIdx.x) by design, and a
    // fragment belongs to its warp.
    for (const ir::Access &A : ir::collectAccesses(Nest.Body))
      if (A.IsWrite && (A.Buf->MemScope == ir::Scope::Global || A.Buf->MemScope == ir::Scope::Shared))
        (A.ByWarp ? WarpWrite : NonLocalWrite).emplace(A.Statement, A.Buf);
    if (has(FormGeometryKnown)) {
      if (!Ctx.Known)
        error("the kernel context is not filled in");
      for (const std::string &Tag : Ctx.threadTags())
        BlockThreadDims |= 1u << ir::threadTagDim(Tag);
    }
  }
  bool Failed = false;

protected:
  void visitVar(const ir::VarNode *N) override {
    if (!Vars.count(N) && Reported.insert(N).second)
      error("variable '" + N->Name + "' is used outside the loop or let that defines it");
  }

  void visitLoad(const ir::LoadNode *N) override {
    checkAccess(N->Buf, N->Indices.size());
    ir::IRVisitor::visitLoad(N);
  }

  void visitStore(const ir::StoreNode *N) override {
    checkAccess(N->Buf, N->Indices.size());
    checkRunsOncePerThread(N);
    ir::IRVisitor::visitStore(N);
  }

  void visitEvaluate(const ir::EvaluateNode *N) override {
    ir::IRVisitor::visitEvaluate(N);
    if (has(FormSynchronized) && Divergent && isBarrierCall(N->Value))
      error("a barrier sits under control flow that depends on the thread");
    // Every lane of a warp runs a warp collective, with the same arguments.
    if (has(FormDistributed) && ir::isWarpCollectiveCall(N->Value) &&
        ((LaneDivergent) || (Dependence.of(N->Value) & 1u)))
      error("a warp collective depends on threadIdx.x, the lane: `" + ir::print(N->Value) + "`");
    checkRunsOncePerThread(N);
  }

  void visitFor(const ir::ForNode *N) override {
    visit(N->Min);
    visit(N->Extent);
    bool Opens = N->LoopKind == ir::ForKind::ThreadBound && OpenTags.insert(N->ThreadTag).second;
    if (N->LoopKind == ir::ForKind::ThreadBound)
      checkThreadLoop(N, Opens);
    unsigned SavedDims = InsideDims;
    bool WasDivergent = Divergent, WasLaneDivergent = LaneDivergent;
    unsigned Mask = Dependence.enter(N);
    if (isThreadIdxLoop(N)) {
      InsideDims |= Mask;
    } else {
      Divergent |= Mask != 0;
      LaneDivergent |= (Mask & 1u) != 0;
    }
    define(N->LoopVar.get());
    visit(N->Body);
    Vars.erase(N->LoopVar.get());
    Dependence.leave(N->LoopVar.get());
    Divergent = WasDivergent;
    LaneDivergent = WasLaneDivergent;
    InsideDims = SavedDims;
    if (Opens)
      OpenTags.erase(N->ThreadTag);
  }

  void visitIfThenElse(const ir::IfThenElseNode *N) override {
    visit(N->Cond);
    bool WasDivergent = Divergent, WasLaneDivergent = LaneDivergent;
    unsigned Mask = Dependence.of(N->Cond);
    Divergent |= Mask != 0;
    LaneDivergent |= (Mask & 1u) != 0;
    visit(N->Then);
    visit(N->Else);
    Divergent = WasDivergent;
    LaneDivergent = WasLaneDivergent;
  }

  void visitLetStmt(const ir::LetStmtNode *N) override {
    visit(N->Value);
    Dependence.enter(N);
    define(N->LetVar.get());
    visit(N->Body);
    Vars.erase(N->LetVar.get());
    Dependence.leave(N->LetVar.get());
  }

  void visitAllocate(const ir::AllocateNode *N) override {
    if (has(FormFinal))
      for (const ir::Expr &Dim : N->Buf->Shape) {
        int64_t Size;
        if (!ir::getConstInt(Dim, Size) || Size <= 0) {
          error("allocation '" + N->Buf->Name + "' must have a constant, positive size");
          break;
        }
      }
    if (has(FormFinal) && N->Buf->MemScope == ir::Scope::Shared &&
        !AllocatedShared.insert(N->Buf.get()).second)
      error("shared buffer '" + N->Buf->Name + "' is allocated twice");
    bool Inserted = Buffers.insert(N->Buf.get()).second;
    visit(N->Body);
    if (Inserted)
      Buffers.erase(N->Buf.get());
  }

private:
  const KernelContext &Ctx;
  const unsigned Form;
  std::vector<Diag> &Diags;
  std::set<const ir::VarNode *> Vars;
  std::set<const ir::BufferNode *> AllocatedShared;
  std::set<const ir::VarNode *> Reported; // one error per undefined variable
  std::set<const ir::BufferNode *> Buffers;
  std::set<std::string> OpenTags; // tags of the enclosing thread-bound loops
  std::map<const ir::StmtNode *, ir::Buffer> NonLocalWrite; // statement -> a buffer it writes
  std::map<const ir::StmtNode *, ir::Buffer> WarpWrite; // the same, by a warp collective
  ThreadDependence Dependence;
  bool Divergent = false;       // under an if or loop bound that depends on the thread
  bool LaneDivergent = false;   // ... on threadIdx.x, the lane of a warp collective
  unsigned InsideDims = 0;      // threadIdx dimensions of the enclosing thread loops
  unsigned BlockThreadDims = 0; // threadIdx dimensions with more than one thread

  bool has(unsigned Property) const { return (Form & Property) != 0; }

  void error(const std::string &Message) {
    Diag D;
    D.Message = "malformed kernel: " + Message;
    Diags.push_back(D);
    Failed = true;
  }

  void define(const ir::VarNode *V) {
    if (!Vars.insert(V).second)
      error("variable '" + V->Name + "' is defined twice on one path");
  }

  void checkAccess(const ir::Buffer &B, size_t NumIndices) {
    if (!B) {
      error("an access has no buffer");
      return;
    }
    if (!Buffers.count(B.get()))
      error("buffer '" + B->Name + "' is neither a parameter nor allocated here");
    if (NumIndices != B->Shape.size())
      error("buffer '" + B->Name + "' has " + std::to_string(B->Shape.size()) +
            " dimensions but is accessed with " + std::to_string(NumIndices) + " indices");
    else if (has(FormFlattened) && B->Shape.size() != 1)
      error("buffer '" + B->Name + "' is not flattened");
  }

  /// Statement writes global or shared memory: CUDA runs it on every thread
  /// of a dimension it is outside of.
  void checkRunsOncePerThread(const ir::StmtNode *Statement) {
    auto It = NonLocalWrite.find(Statement);
    unsigned Lanes = 0;
    if (It == NonLocalWrite.end()) {
      It = WarpWrite.find(Statement);
      if (It == WarpWrite.end())
        return;
      Lanes = 1u; // threadIdx.x
    }
    if (!has(FormDistributed))
      return;
    if (BlockThreadDims & ~InsideDims & ~Lanes)
      error("a write to '" + It->second->Name +
            "' lies outside the loop of a thread dimension of the block, so every "
            "thread of that dimension would run it");
  }

  void checkThreadLoop(const ir::ForNode *N, bool Outermost) {
    const std::string Loop = "loop '" + N->LoopVar->Name + "'";
    if (has(FormNoVirtualThreads) && ir::isVirtualThreadTag(N->ThreadTag)) {
      error(Loop + " is still bound to " + N->ThreadTag);
      return;
    }
    if (ir::isVirtualThreadTag(N->ThreadTag))
      return;
    if (has(FormBindingsVerified) && ir::threadTagDim(N->ThreadTag) < 0) {
      error(Loop + " is bound to '" + N->ThreadTag + "', which is not a launch dimension");
      return;
    }
    if (has(FormBindingsVerified) && ir::isBlockTag(N->ThreadTag))
      for (const std::string &Open : OpenTags)
        if (ir::isThreadIdxTag(Open))
          error(Loop + " is bound to " + N->ThreadTag + " inside a loop bound to " + Open);
    if (!has(FormGeometryKnown) || !Ctx.Known)
      return;
    if (Outermost && !Ctx.BoundTags.count(N->ThreadTag))
      error(Loop + " is bound to " + N->ThreadTag + ", which the kernel context does not know");
    bool MustMatch = has(FormDistributed) || (Outermost && has(FormLaunchLoopsWidened));
    if (has(FormDistributed) && !Outermost)
      error(Loop + " is bound to " + N->ThreadTag + " inside a loop bound to it already");
    else if (MustMatch && !provablyEqual(Ctx.extent(N->ThreadTag), N->Extent))
      error(Loop + " bound to " + N->ThreadTag +
            " does not run over the launch extent of its tag");
  }
};

} // namespace

bool verifyKernel(const ir::LoopNest &Nest, const KernelContext &Ctx, unsigned Form,
                  std::vector<Diag> &Diags) {
  // Each form includes those the pipeline establishes before it; bits of
  // other targets' forms (VtaForm) are not this verifier's.
  Form &= FormComplete;
  unsigned Reached = 0;
  for (unsigned Bit = 1; Bit && Bit <= Form; Bit <<= 1)
    Reached |= Bit;
  KernelVerifier Verifier(Nest, Ctx, Reached, Diags);
  Verifier.visit(Nest.Body);
  return !Verifier.Failed;
}

const Pass VerifyKernelPass = {
    "VerifyKernel", /*Requires=*/FormAny, /*Establishes=*/FormFinal,
    [](LoweringState &S) {
      const KernelContext *Ctx = S.launchContext();
      return Ctx && verifyKernel(S.Nest, *Ctx, FormComplete, S.Diags);
    }};

} // namespace passes
} // namespace sched
