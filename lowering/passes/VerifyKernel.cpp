//===- VerifyKernel.cpp - Well-formedness of the lowered kernel ----------===//
//
// The last pass: the lowered kernel goes to CUDA codegen, into the launch
// descriptor and into the simulator, none of which can report a malformed
// kernel in source terms. So this checks, and reports as errors:
//  - every variable is a scalar parameter or defined by an enclosing loop or
//    let (and no loop or let redefines a variable already in scope);
//  - every buffer accessed is a parameter or allocated around the access, and
//    is accessed with one index (the kernel is flattened);
//  - every allocation has a constant size (CUDA arrays and __shared__ arrays
//    are sized at compile time);
//  - every thread-bound loop runs over exactly its tag's launch extent
//    (VerifyThreadBindings made them agree; a pass after it must not break
//    that).
//
//===----------------------------------------------------------------------===//
#include "ir/IRVisitor.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

namespace {

class KernelVerifier : public ir::IRVisitor {
public:
  KernelVerifier(const ir::LoopNest &Nest, const LaunchGeometry &Geometry,
                 std::vector<Diag> &Diags)
      : Geometry(Geometry), Diags(Diags) {
    for (const ir::Param &P : Nest.Params) {
      if (P.ParamKind == ir::Param::Kind::Scalar && P.Scalar)
        Vars.insert(P.Scalar.get());
      else if (P.ParamKind == ir::Param::Kind::Buffer && P.Buf)
        Buffers.insert(P.Buf.get());
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
    ir::IRVisitor::visitStore(N);
  }

  void visitFor(const ir::ForNode *N) override {
    visit(N->Min);
    visit(N->Extent);
    if (N->LoopKind == ir::ForKind::ThreadBound)
      checkThreadExtent(N);
    define(N->LoopVar.get());
    visit(N->Body);
    Vars.erase(N->LoopVar.get());
  }

  void visitLetStmt(const ir::LetStmtNode *N) override {
    visit(N->Value);
    define(N->LetVar.get());
    visit(N->Body);
    Vars.erase(N->LetVar.get());
  }

  void visitAllocate(const ir::AllocateNode *N) override {
    int64_t Size;
    if (N->Buf->Shape.size() != 1 || !ir::getConstInt(N->Buf->Shape[0], Size) || Size <= 0)
      error("allocation '" + N->Buf->Name + "' must have a constant, positive size");
    bool Inserted = Buffers.insert(N->Buf.get()).second;
    visit(N->Body);
    if (Inserted)
      Buffers.erase(N->Buf.get());
  }

private:
  const LaunchGeometry &Geometry;
  std::vector<Diag> &Diags;
  std::set<const ir::VarNode *> Vars;
  std::set<const ir::VarNode *> Reported; // one error per undefined variable
  std::set<const ir::BufferNode *> Buffers;

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
    if (NumIndices != 1 || B->Shape.size() != 1)
      error("buffer '" + B->Name + "' is not flattened");
  }

  void checkThreadExtent(const ir::ForNode *N) {
    ir::Expr Launch = launchExtent(Geometry, N->ThreadTag);
    if (!Launch)
      error("loop '" + N->LoopVar->Name + "' is bound to '" + N->ThreadTag +
            "', which is not a launch dimension");
    else if (!provablyEqual(Launch, N->Extent))
      error("loop '" + N->LoopVar->Name + "' bound to " + N->ThreadTag +
            " does not run over the launch extent of its tag");
  }
};

} // namespace

bool verifyKernel(const ir::LoopNest &Nest, const LaunchGeometry &Geometry,
                  std::vector<Diag> &Diags) {
  KernelVerifier Verifier(Nest, Geometry, Diags);
  Verifier.visit(Nest.Body);
  return !Verifier.Failed;
}

} // namespace passes
} // namespace sched
