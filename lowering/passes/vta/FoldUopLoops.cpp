//===- FoldUopLoops.cpp - Uop loop nests become VTA GEMM/ALU instructions -===//
//
// target(vta), uop form -> kernel form (ir/Vta.h). VTA runs a GEMM or ALU
// instruction over a kernel: a list of uops of one kind (every uop GEMM, or
// every uop a GEMM reset, or every uop the same ALU op with the same
// immediate) repeated by at most two hardware loops, each moving every
// uop's dst/src/wgt element by a constant factor. This pass turns every
// maximal loop nest of uops of one kind into one such instruction:
//  - the nest's outermost loop, and the loop that is its whole body, fold
//    into the two uop loops while every uop operand's element index (flat
//    row-major index in its stage buffer / the scope's lanes, ir/Vta.h) is
//    affine in the loop variable with one constant factor per operand role
//    for all the nest's uops (TVM's FoldUopLoop); folding stops at the first
//    loop that does not qualify;
//  - every loop inside the folded ones is unrolled into the list of uops
//    (a constant extent is required; at most vta::UopDepth uops);
//  - the uops keep their operands as Loads of the element's first scalar,
//    with the folded loops at their first iteration (VtaStorageFlatten turns
//    them into SRAM indices); every operand must provably start an element.
// Sibling uop statements of one kind in a Seq share a kernel only when none
// is a loop (a loop gets its own kernel, so its loops fold). A loop of uops
// of several kinds (a reset and an update, two ALU ops) is distributed over
// its runs of one kind, each becoming its own nest — only where
// ir::distributionIsLegal proves it keeps every dependence (the access
// analysis sees each operand as its element's first scalar, exact since
// every operand starts an element); otherwise an error, never a reorder.
// A loop holding anything else (DMA, an if, a let, a cthread loop) stays a
// host loop and the nests inside it become kernels of their own.
//
// Runs after the passes that write the uop form (TensorizeVtaGemm,
// InjectVtaAlu, InjectVtaDma) and before InjectCoprocSync, which sees one
// compute instruction per kernel. Loops are zero-based (NormalizeLoops),
// though a folded loop's first iteration is taken from its min anyway.
//
//===----------------------------------------------------------------------===//
#include "ir/Check.h"
#include "ir/Affine.h"
#include "ir/Dependence.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "ir/Vta.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <functional>
#include <map>
#include <vector>

namespace sched {
namespace passes {

namespace {

using ir::Expr;
using ir::Stmt;

/// What uops must agree on to share a kernel.
struct UopKind {
  enum Tag { Gemm, Reset, Alu } Which = Gemm;
  int64_t Op = -1, UseImm = -1; // Alu
  Expr Imm;                     // Alu

  bool operator==(const UopKind &O) const {
    if (Which != O.Which)
      return false;
    return Which != Alu || (Op == O.Op && UseImm == O.UseImm && ir::structurallyEqual(Imm, O.Imm));
  }
  bool operator!=(const UopKind &O) const { return !(*this == O); }
};

/// The uop call S evaluates; null for anything else.
const ir::CallNode *uopCall(const Stmt &S) {
  const auto *E = ir::as<ir::EvaluateNode>(S);
  const auto *C = E ? ir::as<ir::CallNode>(E->Value) : nullptr;
  if (!C || (C->Name != "vta.uop_gemm" && C->Name != "vta.uop_gemm_reset" && C->Name != "vta.uop_alu"))
    return nullptr;
  return C;
}

UopKind kindOf(const ir::CallNode *C) {
  UopKind K;
  if (C->Name == "vta.uop_gemm_reset") {
    K.Which = UopKind::Reset;
  } else if (C->Name == "vta.uop_alu") {
    K.Which = UopKind::Alu;
    if (C->Args.size() == 5) {
      ir::getConstInt(C->Args[0], K.Op);
      ir::getConstInt(C->Args[3], K.UseImm);
      K.Imm = C->Args[4];
    }
  }
  return K;
}

/// Whether S holds uop calls only (under serial loops and Seqs), and their
/// kinds in program order.
bool uopsOnly(const Stmt &S, std::vector<UopKind> &Kinds) {
  if (const ir::CallNode *C = uopCall(S)) {
    Kinds.push_back(kindOf(C));
    return true;
  }
  if (const auto *F = ir::as<ir::ForNode>(S))
    return F->LoopKind != ir::ForKind::ThreadBound && uopsOnly(F->Body, Kinds);
  if (const auto *Q = ir::as<ir::SeqNode>(S)) {
    for (const Stmt &X : Q->Stmts)
      if (!uopsOnly(X, Kinds))
        return false;
    return true;
  }
  return false;
}

/// The one kind of S's uops, when S holds uops of one kind only.
bool uniformKind(const Stmt &S, UopKind &Kind) {
  std::vector<UopKind> Kinds;
  if (!uopsOnly(S, Kinds) || Kinds.empty())
    return false;
  for (const UopKind &K : Kinds)
    if (K != Kinds.front())
      return false;
  Kind = Kinds.front();
  return true;
}

/// The operand roles of a uop call (the Loads FoldUopLoops moves): dst,
/// then src (inp of a GEMM, acc of an ALU op), then wgt; null where the
/// kind has none (a reset's src and wgt, an immediate ALU op's src).
std::vector<Expr> operandsOf(const ir::CallNode *C, const UopKind &K) {
  switch (K.Which) {
  case UopKind::Gemm:
    return {C->Args[0], C->Args[1], C->Args[2]};
  case UopKind::Reset:
    return {C->Args[0], nullptr, nullptr};
  case UopKind::Alu:
    return {C->Args[1], K.UseImm ? nullptr : C->Args[2], nullptr};
  }
  return {};
}

class Folder : public ir::IRMutator {
public:
  Folder(std::vector<Diag> &Diags) : Diags(Diags) {}
  bool Failed = false;

protected:
  Stmt mutateEvaluate(const Stmt &S, const ir::EvaluateNode *N) override {
    if (uopCall(S))
      return fold(S);
    return ir::IRMutator::mutateEvaluate(S, N);
  }

  Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
    std::vector<UopKind> Kinds;
    if (!uopsOnly(S, Kinds) || Kinds.empty())
      return ir::IRMutator::mutateFor(S, N);
    std::vector<Stmt> Pieces;
    if (!splitKinds(S, Pieces))
      return S;
    std::vector<Stmt> Out;
    for (const Stmt &P : Pieces)
      Out.push_back(fold(P));
    return ir::makeSeq(Out);
  }

  Stmt mutateSeq(const Stmt &S, const ir::SeqNode *N) override {
    std::vector<Stmt> Out, Run;
    UopKind RunKind;
    auto Flush = [&] {
      if (!Run.empty())
        Out.push_back(fold(ir::makeSeq(Run)));
      Run.clear();
    };
    for (const Stmt &X : N->Stmts) {
      const ir::CallNode *C = uopCall(X);
      if (C && (Run.empty() || (kindOf(C) == RunKind && writesApartFromLastTwo(C, Run)))) {
        RunKind = kindOf(C);
        Run.push_back(X);
        continue;
      }
      Flush();
      if (C) {
        RunKind = kindOf(C);
        Run.push_back(X);
      } else {
        Out.push_back(mutate(X));
      }
    }
    Flush();
    return ir::makeSeq(Out);
  }

private:
  std::vector<Diag> &Diags;
  std::string FoldWhy; // why the nest being folded stopped folding

  /// Whether C's destination provably differs from those of the last two
  /// uops of Run: VTA's runtime refuses a kernel whose uop writes the acc
  /// element one of the two uops before it wrote (a pipeline hazard), so
  /// such a uop starts a kernel of its own (`Cb = max(Ab, Bb)` on one
  /// element is MIN, MAX, MAX on the same element).
  bool writesApartFromLastTwo(const ir::CallNode *C, const std::vector<Stmt> &Run) const {
    auto DestOf = [](const ir::CallNode *U) {
      return ir::as<ir::LoadNode>(operandsOf(U, kindOf(U))[0]);
    };
    const ir::LoadNode *D = DestOf(C);
    for (size_t Back = 1; Back <= ir::vta::UopHazardWindow && Back <= Run.size(); ++Back) {
      const ir::CallNode *Prev = uopCall(Run[Run.size() - Back]);
      const ir::LoadNode *PD = Prev ? DestOf(Prev) : nullptr;
      if (!D || !PD)
        return false;
      if (D->Buf != PD->Buf)
        continue;
      int64_t Gap;
      ir::Expr A = flatIndex(D->Buf->Shape, D->Indices), B = flatIndex(PD->Buf->Shape, PD->Indices);
      if (!ir::getConstInt(ir::simplify(A - B), Gap) || Gap == 0)
        return false;
    }
    return true;
  }

  Stmt error(const Stmt &S, const std::string &Message) {
    Failed = true;
    Diag D;
    D.Message = "cannot make a VTA kernel of " + nestName(S) + ": " + Message;
    Diags.push_back(D);
    return S;
  }

  /// How a message names a nest: its outer loop, or its first uop.
  static std::string nestName(const Stmt &S) {
    if (const auto *F = ir::as<ir::ForNode>(S))
      return "the uop loop nest at loop '" + F->LoopVar->Name + "'";
    if (const auto *Q = ir::as<ir::SeqNode>(S))
      return nestName(Q->Stmts.front());
    return "'" + stmtText(S.get()) + "'";
  }

  /// S (uops only) as pieces of one kind each, in order: a loop of several
  /// kinds is distributed over its runs of one kind where that is legal.
  bool splitKinds(const Stmt &S, std::vector<Stmt> &Pieces) {
    UopKind K;
    if (uniformKind(S, K) || uopCall(S)) {
      Pieces.push_back(S);
      return true;
    }
    if (const auto *Q = ir::as<ir::SeqNode>(S)) {
      for (const Stmt &X : Q->Stmts)
        if (!splitKinds(X, Pieces))
          return false;
      return true;
    }
    const auto *F = ir::as<ir::ForNode>(S);
    SCHED_CHECK(F, "uopsOnly admits calls, loops and Seqs");
    std::vector<Stmt> Inner;
    if (!splitKinds(F->Body, Inner))
      return false;
    if (Inner.empty())
      return true; // a loop without uops does nothing on VTA
    // Runs of one kind, each a statement of the distributed body.
    std::vector<Stmt> Runs;
    std::vector<Stmt> Run;
    UopKind RunKind;
    for (const Stmt &P : Inner) {
      UopKind PK;
      uniformKind(P, PK);
      // A new run per kind, and, as in a Seq (mutateSeq), per loop and
      // before a uop that would write an element one of the two before it
      // wrote: two same-kind steps of an ALU chain on one element (min, then
      // max A, max B) are two instructions, not a hazard in one.
      const ir::CallNode *PC = uopCall(P);
      bool Apart = !PC || writesApartFromLastTwo(PC, Run);
      if (!Run.empty() && (PK != RunKind || ir::as<ir::ForNode>(P) ||
                           ir::as<ir::ForNode>(Run.back()) || !Apart)) {
        Runs.push_back(ir::makeSeq(Run));
        Run.clear();
      }
      RunKind = PK;
      Run.push_back(P);
    }
    Runs.push_back(ir::makeSeq(Run));
    // The loop as distributionIsLegal asks it: its body the Seq of the runs
    // (built directly: makeSeq would flatten the runs into their uops).
    auto Body = std::make_shared<const ir::SeqNode>(Runs);
    Stmt Whole = ir::withBody(F, Body);
    ir::DependenceWitness Why;
    if (!ir::distributionIsLegal(ir::as<ir::ForNode>(Whole), Body.get(), {}, &Why)) {
      error(S, "its loop '" + F->LoopVar->Name +
                   "' holds uops of several kinds, and splitting it into one loop per kind "
                   "would reorder dependent uops (" +
                   Why.describe("dependence") + ")");
      return false;
    }
    for (const Stmt &R : Runs)
      Pieces.push_back(ir::withBody(F, R));
    return true;
  }

  /// A uop loop being folded: its extent and, per operand role, how far
  /// one iteration moves the element.
  struct UopLoop {
    const ir::ForNode *Loop;
    int64_t Extent = 0;
    int64_t Factor[3] = {0, 0, 0};
  };

  /// Whether L folds into a uop loop: a constant extent, and every operand
  /// of every uop under it affine in L's variable with one constant factor
  /// per role.
  bool foldable(const ir::ForNode *L, const UopKind &K, UopLoop &Out, std::string &Why) {
    Out.Loop = L;
    bool Seen[3] = {false, false, false};
    bool Ok = true;
    std::function<void(const Stmt &)> Walk = [&](const Stmt &S) {
      if (const auto *F = ir::as<ir::ForNode>(S))
        return Walk(F->Body);
      if (const auto *Q = ir::as<ir::SeqNode>(S)) {
        for (const Stmt &X : Q->Stmts)
          Walk(X);
        return;
      }
      std::vector<Expr> Ops = operandsOf(uopCall(S), K);
      for (int R = 0; R < 3; ++R) {
        const auto *Ld = Ops[R] ? ir::as<ir::LoadNode>(Ops[R]) : nullptr;
        if (!Ld) {
          Ok = Ok && !Ops[R]; // a non-Load operand is reported when the uop is listed
          continue;
        }
        int64_t Lanes = ir::vtaElementLanes(Ld->Buf->MemScope);
        ir::AffineForm A;
        if (Lanes == 0 ||
            !ir::toAffine(flatIndex(Ld->Buf->Shape, Ld->Indices),
                          [&](const ir::VarNode *V) { return V == L->LoopVar.get(); }, A)) {
          Why = "index " + ir::print(Ops[R]) + " is not affine in it";
          Ok = false;
          continue;
        }
        int64_t Coef = 0;
        auto It = A.Coefs.find(L->LoopVar.get());
        if (It != A.Coefs.end() && (!ir::getConstInt(ir::simplify(It->second), Coef) || Coef % Lanes)) {
          Why = "index " + ir::print(Ops[R]) + " does not move by a constant number of elements";
          Ok = false;
          continue;
        }
        Coef /= Lanes;
        if (Seen[R] && Out.Factor[R] != Coef) {
          Why = "its uops' operands move by different amounts";
          Ok = false;
        }
        Seen[R] = true;
        Out.Factor[R] = Coef;
      }
    };
    Walk(L->Body);
    if (!Ok)
      return false;
    if (!ir::getConstInt(ir::simplify(L->Extent), Out.Extent) || Out.Extent < 1) {
      Why = "its extent " + ir::print(L->Extent) + " is not a positive constant";
      return false;
    }
    return true;
  }

  /// The uops of S in order, inner loops unrolled, with Env substituted.
  bool listUops(const Stmt &Root, const Stmt &S, std::map<const ir::VarNode *, Expr> &Env,
                const UopKind &K, std::vector<Expr> &Uops) {
    if (const auto *F = ir::as<ir::ForNode>(S)) {
      int64_t Extent;
      if (!ir::getConstInt(ir::simplify(ir::substitute(F->Extent, Env)), Extent)) {
        error(Root, "loop '" + F->LoopVar->Name + "' neither folds into a uop loop (" +
                        (FoldWhy.empty() ? "it is not one of the two outermost" : FoldWhy) +
                        ") nor unrolls into uops (its extent " + ir::print(F->Extent) +
                        " is not a constant)");
        return false;
      }
      Expr Min = ir::substitute(F->Min, Env);
      for (int64_t I = 0; I < Extent; ++I) {
        Env[F->LoopVar.get()] = ir::simplify(Min + ir::makeInt(I));
        if (!listUops(Root, F->Body, Env, K, Uops))
          return false;
      }
      Env.erase(F->LoopVar.get());
      return true;
    }
    if (const auto *Q = ir::as<ir::SeqNode>(S)) {
      for (const Stmt &X : Q->Stmts)
        if (!listUops(Root, X, Env, K, Uops))
          return false;
      return true;
    }
    const ir::CallNode *C = uopCall(S);
    std::vector<Expr> Ops = operandsOf(C, K);
    if (Uops.size() / 3 >= static_cast<size_t>(ir::vta::UopDepth)) {
      error(Root, "it unrolls into more than " + std::to_string(ir::vta::UopDepth) +
                      " uops (the uop buffer's depth)");
      return false;
    }
    static const ir::Scope Scopes[2][3] = {
        {ir::Scope::VtaAcc, ir::Scope::VtaInp, ir::Scope::VtaWgt},  // GEMM
        {ir::Scope::VtaAcc, ir::Scope::VtaAcc, ir::Scope::VtaAcc}}; // ALU
    for (int R = 0; R < 3; ++R) {
      if (!Ops[R]) {
        Uops.push_back(ir::makeInt(0));
        continue;
      }
      Expr Op = ir::simplify(ir::substitute(Ops[R], Env));
      const auto *Ld = ir::as<ir::LoadNode>(Op);
      ir::Scope Want = Scopes[K.Which == UopKind::Alu][R];
      std::string Why;
      Expr Elem;
      if (!Ld || Ld->Buf->MemScope != Want) {
        error(Root, "uop operand " + ir::print(Ops[R]) + " is not an element of a " +
                        ir::scopeName(Want) + " stage buffer");
        return false;
      }
      if (!vtaElementIndex(Ld, Elem, Why)) {
        error(Root, "uop operand " + ir::print(Op) + ": " + Why);
        return false;
      }
      Uops.push_back(Op);
    }
    return true;
  }

  /// One kernel for the nest S (uops of one kind): push_gemm / push_alu.
  Stmt fold(const Stmt &S) {
    UopKind K;
    bool Uniform = uniformKind(S, K);
    SCHED_CHECK(Uniform, "fold takes nests of one kind");
    (void)Uniform;
    if (K.Which == UopKind::Alu) {
      if (K.Op < ir::VtaAluMin || K.Op > ir::VtaAluMul || (K.UseImm != 0 && K.UseImm != 1))
        return error(S, "an ALU uop's opcode and use_imm must be constants (opcode 0-4, use_imm 0/1)");
      for (const ir::VarNode *V : ir::varsOf(K.Imm))
        if (loopVarOf(S, V))
          return error(S, "the ALU immediate " + ir::print(K.Imm) +
                              " changes with loop '" + V->Name + "' of the kernel");
    }
    std::vector<UopLoop> Folded;
    FoldWhy.clear();
    Stmt Cur = S;
    while (Folded.size() < static_cast<size_t>(ir::vta::MaxUopLoops)) {
      const auto *F = ir::as<ir::ForNode>(Cur);
      UopLoop U;
      if (!F || !foldable(F, K, U, FoldWhy))
        break;
      Folded.push_back(U);
      Cur = F->Body;
    }
    std::map<const ir::VarNode *, Expr> Env;
    for (const UopLoop &U : Folded)
      Env[U.Loop->LoopVar.get()] = U.Loop->Min;
    std::vector<Expr> Uops;
    if (!listUops(S, Cur, Env, K, Uops))
      return S;

    std::vector<Expr> Args;
    if (K.Which == UopKind::Alu) {
      Args = {ir::makeInt(K.Op), ir::makeInt(K.UseImm), K.Imm};
    } else {
      Args = {ir::makeInt(K.Which == UopKind::Reset)};
    }
    Args.push_back(ir::makeInt(static_cast<int64_t>(Folded.size())));
    int Roles = K.Which == UopKind::Alu ? 2 : 3;
    for (size_t I = 0; I < 2; ++I) {
      const UopLoop *U = I < Folded.size() ? &Folded[I] : nullptr;
      Args.push_back(ir::makeInt(U ? U->Extent : 0));
      for (int R = 0; R < Roles; ++R)
        Args.push_back(ir::makeInt(U ? U->Factor[R] : 0));
    }
    for (size_t I = 0; I < Uops.size(); I += 3)
      for (int R = 0; R < Roles; ++R)
        Args.push_back(Uops[I + R]);
    const char *Name = K.Which == UopKind::Alu ? "vta.push_alu" : "vta.push_gemm";
    return ir::makeEvaluate(ir::makeCall(Name, Args, ir::DType::Int32));
  }

  /// Whether V is the variable of a loop in S.
  static bool loopVarOf(const Stmt &S, const ir::VarNode *V) {
    if (const auto *F = ir::as<ir::ForNode>(S))
      return F->LoopVar.get() == V || loopVarOf(F->Body, V);
    if (const auto *Q = ir::as<ir::SeqNode>(S))
      for (const Stmt &X : Q->Stmts)
        if (loopVarOf(X, V))
          return true;
    return false;
  }
};

} // namespace

ir::LoopNest foldUopLoops(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  Folder F(Diags);
  ir::LoopNest Out = Nest;
  Out.Body = F.mutate(Nest.Body);
  return Out;
}

const Pass FoldUopLoopsPass = {
    "FoldUopLoops", /*Requires=*/FormAny, /*Establishes=*/VtaFormFolded,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      S.Nest = foldUopLoops(S.Nest, S.Diags);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
