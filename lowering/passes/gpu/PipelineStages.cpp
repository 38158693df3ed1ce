//===- PipelineStages.cpp - Stages filled S-1 steps ahead by cp.async ------===//
//
// A k-tile loop whose step fills shared stages and then computes on them,
//
//   for ko { fill(ko) -> stages;  barrier;  compute(ko);  barrier }
//
// waits for each tile's global loads before computing on it, and needs two
// barriers per step (the second keeps the next fill from overwriting what
// another warp still reads). With S copies of every stage (a ring) and
// asynchronous copies (PTX cp.async, sm_80+), this pass issues the fill of
// tile ko + S - 1 while tile ko is computed, with one barrier per step:
//
//   for p in [0, S-1):  [if (min + p < end)] fill(min + p) -> copy p;  commit
//   for ko {
//     wait_group(S - 2)          // this thread's copies of tile ko have landed
//     barrier                    // everyone's have; everyone is done with ko-1
//     if (ko + S - 1 < end) fill(ko + S - 1) -> copy (ko - min + S - 1) % S
//     commit                     // a group per step, empty or not
//     compute(ko) on copy (ko - min) % S
//   }
//   wait_group(0)  [barrier, where the step ended with one]
//
// Why one barrier suffices: the fill in step ko writes copy (ko - 1) % S,
// which only compute(ko - 1) read, and every thread finished that before
// the barrier of step ko; compute(ko) reads copy ko % S, whose copies each
// thread waited for (at most S - 2 later groups in flight: the ones of
// tiles ko + 1 .. ko + S - 2) before that barrier, which then publishes
// them. Each vectorized copy of 4, 8 or 16 bytes from global memory into a
// stage becomes one cp.async (DistributeOverThreads made them so for the
// stages of tensor-core operands); any other store of a fill stays an
// ordinary store into its copy, which the same barrier orders. The
// simulator lands a cp.async only at its issuer's wait and reports any
// access to an element in flight, so a wrong count or a missing barrier is
// a test failure, not a silent race.
//
// Which loops: those marked `pipeline(ko, stages=S)` (a LoopPragma
// "pipelineS"), and under tensorcore(auto) on sm_80 and newer every loop
// whose fills all write stages an intrinsic reads: 3 stages, or 2, where the
// rings fit the 48 KiB of static shared memory with ldmatrix stages' rows
// padded (conflict-free at affine addresses; LayoutSharedStages pads them
// where they fit and swizzles them where not). A loop qualifies when
// its body is (under shared allocations, which move around the loop):
// fills (no barrier, allocation or call; they read nothing the loop
// writes), one barrier, the rest (which writes no stage), and maybe a
// barrier at the end; its stages are shared, of constant shape, and
// touched outside the loop only in a branch that excludes it
// (tensorcore(auto)'s ordinary copy for edge blocks: there, copy 0). A marked loop that does not qualify gets a -Wsched-ignored warning
// saying why; an automatic one is left as it is.
//
// Fills outside a pipeline (sm_80 and newer): each run of statements of a
// sequence that only copies 16-byte runs from global memory into shared
// stages becomes cp.async copies, then `commit; wait_group(0)` before the
// statement after the run (the barrier, the reads). The same copies as
// the pipeline's, in the IR, so the simulator checks them too.
//
// Runs after InjectThreadSync and PrefetchDoubleBuffers (it keeps the
// barrier thread sync placed after the fills and drops the one at the end
// of the step), before LayoutSharedStages (which leaves intrinsic operands'
// layouts alone) and StorageFlatten (the copy index is the stages' first).
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/Intrinsics.h"
#include "ir/IRMutator.h"
#include "ir/Kernel.h"
#include "ir/LaunchLimits.h"
#include "ir/IRVisitor.h"
#include "ir/Prove.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"
#include "ir/Vectorize.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <map>
#include <set>

namespace sched {
namespace passes {

namespace {

using ir::Expr;
using ir::Stmt;

constexpr int64_t AutoStages = 3;

Stmt call(const std::string &Name, std::vector<Expr> Args) {
  return ir::makeEvaluate(ir::makeCall(Name, std::move(Args), ir::DType::Int32));
}

/// A fill with each vectorized copy of a run of 4, 8 or 16 bytes from
/// global memory into a stage as one sched.cp_async; Facts: the divisors
/// the conditions around the loop state (ir::withDivisorFacts).
class AsyncCopies : public ir::IRMutator {
public:
  /// OnlyBytes: convert only copies of that many bytes (0: 4, 8 and 16).
  explicit AsyncCopies(const ir::DivisorFacts &Facts, int64_t OnlyBytes = 0)
      : Facts(Facts), OnlyBytes(OnlyBytes) {}
  int Converted = 0;

protected:
  Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
    const auto *St = ir::as<ir::StoreNode>(N->Body);
    const auto *Ld = St ? ir::as<ir::LoadNode>(St->Value) : nullptr;
    int64_t Min, V;
    if (N->LoopKind != ir::ForKind::Vectorized || !Ld || !ir::getConstInt(N->Min, Min) ||
        Min != 0 || !ir::getConstInt(N->Extent, V) || St->Buf->MemScope != ir::Scope::Shared ||
        Ld->Buf->MemScope != ir::Scope::Global || St->Buf->Type != Ld->Buf->Type)
      return ir::IRMutator::mutateFor(S, N);
    int64_t Bytes = V * ir::dtypeBytes(St->Buf->Type);
    const ir::VarNode *Lane = N->LoopVar.get();
    if (!ir::isAsyncCopyBytes(Bytes) || (OnlyBytes && Bytes != OnlyBytes) ||
        !ir::isAlignedRun(St->Buf, St->Indices, Lane, V, Facts) ||
        !ir::isAlignedRun(Ld->Buf, Ld->Indices, Lane, V, Facts))
      return ir::IRMutator::mutateFor(S, N);
    std::map<const ir::VarNode *, Expr> First = {{Lane, ir::makeInt(0, N->LoopVar->Type)}};
    auto At0 = [&](const std::vector<Expr> &Idx) {
      std::vector<Expr> Out;
      for (const Expr &E : Idx)
        Out.push_back(ir::simplify(ir::substitute(E, First)));
      return Out;
    };
    ++Converted;
    return call("sched.cp_async", {ir::makeLoad(St->Buf, At0(St->Indices)),
                                   ir::makeLoad(Ld->Buf, At0(Ld->Indices)), ir::makeInt(1),
                                   ir::makeInt(V)});
  }

private:
  const ir::DivisorFacts &Facts;
  const int64_t OnlyBytes;
};

/// The fills outside a pipeline: a statement that, its 16-byte copies
/// made cp.async, holds nothing but those calls and loops around them is a
/// fill; a run of fills in a sequence is followed by commit and wait(0).
class AsyncFills : public DivisorFactsMutator {
protected:
  Stmt mutateSeq(const Stmt &S, const ir::SeqNode *N) override {
    std::vector<Stmt> Out;
    bool Pending = false;
    for (const Stmt &Child : N->Stmts) {
      if (Stmt Fill = asFill(Child)) {
        Out.push_back(Fill);
        Pending = true;
        continue;
      }
      if (Pending)
        waitFor(Out);
      Pending = false;
      Out.push_back(mutate(Child));
    }
    if (Pending)
      waitFor(Out);
    return ir::makeSeq(Out);
  }
  Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
    // A fill that is no statement of a sequence waits right after itself.
    if (Stmt Fill = asFill(S)) {
      std::vector<Stmt> Out = {Fill};
      waitFor(Out);
      return ir::makeSeq(Out);
    }
    return DivisorFactsMutator::mutateFor(S, N);
  }

private:
  Stmt asFill(const Stmt &S) {
    if (!ir::as<ir::ForNode>(S))
      return nullptr;
    AsyncCopies Async(Facts, 16);
    Stmt Out = Async.mutate(S);
    if (Async.Converted == 0 || !onlyCopies(Out))
      return nullptr;
    return Out;
  }
  static bool onlyCopies(const Stmt &S) {
    struct Finder : ir::IRVisitor {
      bool Other = false;
      void visitStore(const ir::StoreNode *) override { Other = true; }
      void visitEvaluate(const ir::EvaluateNode *N) override {
        const auto *C = ir::as<ir::CallNode>(N->Value);
        Other |= !C || C->Name != "sched.cp_async";
      }
      void visitAllocate(const ir::AllocateNode *) override { Other = true; }
    } F;
    F.visit(S);
    return !F.Other;
  }
  static void waitFor(std::vector<Stmt> &Out) {
    Out.push_back(call("sched.cp_async_commit", {}));
    Out.push_back(call("sched.cp_async_wait", {ir::makeInt(0)}));
  }
};

/// S with every vectorized loop no vectorize directive names made an
/// unrolled one: DistributeOverThreads fills the stages of a loop marked
/// pipeline in runs for the cp.async copies; where the loop is not
/// pipelined after all, a stage's layout may still change for its readers
/// (LayoutSharedStages), and a run that no longer is one would be refused
/// with a warning about a directive nobody wrote.
Stmt unrollStageRuns(const Stmt &S, const ir::LoopNest &Nest) {
  struct Demoter : ir::IRMutator {
    std::set<const ir::VarNode *> Named;
    Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
      Stmt Out = ir::IRMutator::mutateFor(S, N);
      if (N->LoopKind != ir::ForKind::Vectorized || Named.count(N->LoopVar.get()))
        return Out;
      return ir::withKind(ir::as<ir::ForNode>(Out), ir::ForKind::Unrolled, "");
    }
  } D;
  for (const ir::LoopPragma &P : Nest.Pragmas)
    if (P.Kind == ir::VectorizePragma && P.Loop)
      D.Named.insert(P.Loop.get());
  return D.mutate(S);
}

/// Whether every access to a buffer of Stages outside loop N lies in a
/// branch of an `if` whose other branch holds N (so never in the same run
/// of the code as N).
bool onlyInOtherBranches(const Stmt &Root, const ir::ForNode *N,
                         const std::set<const ir::BufferNode *> &Stages) {
  struct Walker {
    const ir::ForNode *N;
    const std::set<const ir::BufferNode *> &Stages;
    bool Ok = true;
    bool holds(const Stmt &S) const {
      bool Found = false;
      struct Finder : ir::IRVisitor {
        const ir::ForNode *N;
        bool &Found;
        Finder(const ir::ForNode *N, bool &F) : N(N), Found(F) {}
        void visitFor(const ir::ForNode *L) override {
          Found |= L == N;
          if (!Found)
            ir::IRVisitor::visitFor(L);
        }
      } F(N, Found);
      F.visit(S);
      return Found;
    }
    bool touches(const Stmt &S) const {
      for (const ir::Access &A : ir::collectAccesses(S))
        if (Stages.count(A.Buf.get()))
          return true;
      return false;
    }
    /// S holds N: walks down the path to it, checking what lies beside it.
    void walk(const Stmt &S) {
      if (!S || !Ok || S.get() == N)
        return;
      if (const auto *If = ir::as<ir::IfThenElseNode>(S)) {
        // The branch without N never runs with it.
        walk(holds(If->Then) ? If->Then : If->Else);
        return;
      }
      if (const auto *Seq = ir::as<ir::SeqNode>(S)) {
        for (const Stmt &C : Seq->Stmts)
          if (holds(C))
            walk(C);
          else
            Ok = Ok && !touches(C);
        return;
      }
      if (const auto *L = ir::as<ir::ForNode>(S))
        return walk(L->Body);
      if (const auto *A = ir::as<ir::AllocateNode>(S))
        return walk(A->Body);
      if (const auto *Let = ir::as<ir::LetStmtNode>(S))
        return walk(Let->Body);
      Ok = false;
    }
  } W{N, Stages};
  W.walk(Root);
  return W.Ok;
}

class Pipeliner : public DivisorFactsMutator {
public:
  Pipeliner(const ir::LoopNest &Nest, bool Auto, std::vector<Diag> &Diags)
      : Nest(Nest), Auto(Auto), Diags(Diags) {
    for (const ir::LoopPragma &P : Nest.Pragmas)
      if (P.Loop && ir::pipelineStages(P))
        Marks[P.Loop.get()] = {ir::pipelineStages(P), P.Loc};
  }

  /// The nest with its qualifying loops pipelined.
  Stmt run() {
    Stmt Body = Nest.Body;
    // One loop at a time, from the root: each changes the stages' shapes.
    for (bool Changed = true; Changed;) {
      Changed = false;
      Root = Body;
      Done = false;
      Remap = nullptr;
      Stmt Out = mutate(Body);
      if (Done) {
        Body = Remap ? Remap(Out) : Out;
        Changed = true;
      }
    }
    return Body;
  }

private:
  struct Mark {
    int64_t Stages;
    int Loc;
  };
  const ir::LoopNest &Nest;
  const bool Auto;
  std::vector<Diag> &Diags;
  std::map<const ir::VarNode *, Mark> Marks;
  std::set<const ir::VarNode *> Pipelined;
  Stmt Root;
  bool Done = false;
  std::function<Stmt(const Stmt &)> Remap; // the stages outside the loop, to copy 0

  Stmt mutateFor(const Stmt &S, const ir::ForNode *N) override {
    if (Done)
      return S;
    if (N->LoopKind == ir::ForKind::Serial && !Pipelined.count(N->LoopVar.get())) {
      auto MarkIt = Marks.find(N->LoopVar.get());
      std::string Why;
      if (Stmt Out = pipelined(N, MarkIt == Marks.end() ? nullptr : &MarkIt->second, Why)) {
        Done = true;
        Pipelined.insert(N->LoopVar.get());
        return Out;
      }
      if (MarkIt != Marks.end()) {
        Diags.push_back({Diag::Level::Warning, MarkIt->second.Loc,
                         "pipeline(" + N->LoopVar->Name + ", stages=" +
                             std::to_string(MarkIt->second.Stages) + ") has no effect: " + Why,
                         "sched-ignored"});
        Marks.erase(MarkIt);
        return mutate(unrollStageRuns(S, Nest)); // the mark is gone: not again
      }
    }
    return ir::IRMutator::mutateFor(S, N);
  }

  /// N pipelined, or null with Why.
  Stmt pipelined(const ir::ForNode *N, const Mark *M, std::string &Why) {
    if (!M && !Auto)
      return nullptr;
    int64_t Min;
    if (!ir::getConstInt(N->Min, Min)) {
      Why = "the loop does not start at a constant";
      return nullptr;
    }
    // Shared allocations in the step move around the loop (a shared array
    // holds nothing from one step to the next that the step does not write
    // first).
    std::vector<const ir::AllocateNode *> Allocs;
    std::vector<Stmt> Stmts;
    flattenBody(N->Body, Allocs, Stmts);
    size_t Barrier = 0;
    while (Barrier < Stmts.size() && !isBarrier(Stmts[Barrier]))
      ++Barrier;
    if (Barrier == 0 || Barrier == Stmts.size()) {
      Why = "its step is not fills of shared stages, a barrier and the computation";
      return nullptr;
    }
    std::vector<Stmt> Fills(Stmts.begin(), Stmts.begin() + Barrier);
    std::vector<Stmt> Rest(Stmts.begin() + Barrier + 1, Stmts.end());
    bool EndBarrier = !Rest.empty() && isBarrier(Rest.back());
    if (EndBarrier)
      Rest.pop_back();
    Stmt Fill = ir::makeSeq(Fills), Compute = ir::makeSeq(Rest);

    // The stages: what the fills write.
    std::set<const ir::BufferNode *> Stages;
    std::map<const ir::BufferNode *, ir::Buffer> StageBufs;
    std::set<const ir::BufferNode *> WrittenInLoop;
    for (const ir::Access &A : ir::collectAccesses(N->Body))
      if (A.IsWrite)
        WrittenInLoop.insert(A.Buf.get());
    for (const ir::Access &A : ir::collectAccesses(Fill)) {
      if (A.IsWrite) {
        Stages.insert(A.Buf.get());
        StageBufs[A.Buf.get()] = A.Buf;
      }
    }
    struct FillShape : ir::IRVisitor {
      bool Plain = true;
      void visitEvaluate(const ir::EvaluateNode *) override { Plain = false; }
      void visitAllocate(const ir::AllocateNode *) override { Plain = false; }
    } Shape;
    Shape.visit(Fill);
    if (!Shape.Plain) {
      Why = "a fill holds a call or an allocation";
      return nullptr;
    }
    for (const ir::Access &A : ir::collectAccesses(Fill))
      if (!A.IsWrite && WrittenInLoop.count(A.Buf.get())) {
        Why = "a fill reads '" + A.Buf->Name + "', which the loop writes";
        return nullptr;
      }
    int64_t StageBytes = 0, PaddedBytes = 0;
    for (const auto &[Node, Buf] : StageBufs) {
      int64_t Elems = ir::constantElements(*Buf);
      if (Buf->MemScope != ir::Scope::Shared || Elems <= 0) {
        Why = "'" + Buf->Name + "' is not a shared stage of constant shape";
        return nullptr;
      }
      if (!M && !ir::isIntrinsicOperand(Compute, Node))
        return nullptr; // auto: tensor-core stages only
      int64_t Bytes = Elems * ir::dtypeBytes(Buf->Type);
      StageBytes += Bytes;
      // A stage ldmatrix reads has its rows padded after (LayoutSharedStages)
      // where they fit: under tensorcore(auto), the depth is chosen so they do.
      int64_t Row;
      if (!M && ir::isIntrinsicOperand(Compute, Node) && ir::getConstInt(Buf->Shape.back(), Row) &&
          Row > 0)
        PaddedBytes += Bytes / Row * ldmatrixPitch(Row);
      else
        PaddedBytes += Bytes;
    }
    for (const ir::Access &A : ir::collectAccesses(Compute))
      if (A.IsWrite && Stages.count(A.Buf.get())) {
        Why = "the computation writes stage '" + A.Buf->Name + "'";
        return nullptr;
      }
    if (!onlyInOtherBranches(Root, N, Stages)) {
      Why = "a stage is used outside the loop";
      return nullptr;
    }
    int64_t All = ir::staticSharedBytes(Root);
    if (All < 0) {
      Why = "a shared array of the kernel has a run-time size";
      return nullptr;
    }
    int64_t S = M ? M->Stages : AutoStages, Others = All - StageBytes;
    while (S >= 2 && Others + S * (M ? StageBytes : PaddedBytes) > ir::MaxStaticSharedBytes)
      --S;
    if (!M && S < 2 && Others + 2 * StageBytes <= ir::MaxStaticSharedBytes)
      S = 2; // two swizzled copies rather than no pipeline
    if (S < 2) {
      Why = "two copies of its stages (" + std::to_string(2 * StageBytes) +
            " bytes) do not fit in the 48 KiB of static shared memory";
      return nullptr;
    }
    AsyncCopies Async(Facts);
    Stmt AsyncFill = Async.mutate(Fill);
    if (Async.Converted == 0 && !M)
      return nullptr; // auto: only where copies go asynchronous

    // The ring: each stage gets its copy index first.
    std::map<const ir::BufferNode *, ir::Buffer> Ring;
    for (const auto &[Node, Buf] : StageBufs) {
      std::vector<Expr> Shape = {ir::makeInt(S)};
      Shape.insert(Shape.end(), Buf->Shape.begin(), Buf->Shape.end());
      Ring[Node] = ir::makeBuffer(Buf->Name, Buf->Type, Shape, Buf->MemScope);
    }
    auto AtCopy = [&](const Stmt &Body, const Expr &Copy) {
      ir::BufferRemaps Map;
      for (const auto &[Node, New] : Ring)
        Map[Node] = {New, [Copy](const std::vector<Expr> &Idx) {
                       std::vector<Expr> Out = {Copy};
                       Out.insert(Out.end(), Idx.begin(), Idx.end());
                       return Out;
                     }};
      return ir::remapBuffers(Body, Map);
    };
    const ir::Var &V = N->LoopVar;
    Expr End = ir::simplify(N->Min + N->Extent);
    auto Int = [&](int64_t X) { return ir::makeInt(X, V->Type); };
    auto FillOf = [&](const Expr &Tile, const Expr &Copy) {
      // The tile first: the copy index is in terms of the step's variable.
      Stmt Body = AtCopy(ir::substitute(AsyncFill, {{V.get(), Tile}}), Copy);
      return ir::cloneDeclarations(ir::simplify(Body));
    };
    auto Guarded = [&](const Expr &Cond, const Stmt &Body) {
      Expr C = ir::simplify(Cond);
      int64_t Holds;
      if (ir::getConstInt(C, Holds))
        return Holds ? Body : ir::makeSeq({});
      return ir::makeIf(C, Body);
    };
    std::vector<Stmt> Out;
    for (int64_t P = 0; P + 1 < S; ++P) {
      Expr Tile = ir::simplify(N->Min + Int(P));
      Out.push_back(Guarded(Tile < End, FillOf(Tile, Int(P))));
      Out.push_back(call("sched.cp_async_commit", {}));
    }
    Expr Ahead = Expr(V) + Int(S - 1);
    Stmt Step = ir::makeSeq(
        {call("sched.cp_async_wait", {ir::makeInt(S - 2)}), makeBarrier(),
         Guarded(Ahead < End, FillOf(Ahead, ir::simplify((Ahead - N->Min) % Int(S)))),
         call("sched.cp_async_commit", {}),
         AtCopy(Compute, ir::simplify((Expr(V) - N->Min) % Int(S)))});
    Out.push_back(ir::withBody(N, Step));
    Out.push_back(call("sched.cp_async_wait", {ir::makeInt(0)}));
    if (EndBarrier)
      Out.push_back(makeBarrier());
    Stmt Result = ir::makeSeq(Out);
    for (auto It = Allocs.rbegin(); It != Allocs.rend(); ++It) {
      auto R = Ring.find((*It)->Buf.get());
      Result = ir::makeAllocate(R == Ring.end() ? (*It)->Buf : R->second, Result);
    }
    // Everywhere else (a branch that excludes the loop), copy 0; and the
    // allocations become the ring's.
    Remap = [Ring](const Stmt &Body) {
      ir::BufferRemaps Map;
      for (const auto &[Node, New] : Ring)
        Map[Node] = {New, [](const std::vector<Expr> &Idx) {
                       std::vector<Expr> Out = {ir::makeInt(0)};
                       Out.insert(Out.end(), Idx.begin(), Idx.end());
                       return Out;
                     }};
      return ir::remapBuffers(Body, Map);
    };
    return Result;
  }
};

} // namespace

ir::LoopNest pipelineStages(const ir::LoopNest &Nest, int ArchNumber, std::vector<Diag> &Diags) {
  ir::LoopNest Out = Nest;
  if (ArchNumber < 80) {
    bool Marked = false;
    for (const ir::LoopPragma &P : Nest.Pragmas)
      if (P.Loop && ir::pipelineStages(P)) {
        Marked = true;
        Diags.push_back({Diag::Level::Warning, P.Loc,
                         "pipeline(" + P.Loop->Name +
                             ") has no effect: it needs cp.async, sm_80 or newer "
                             "(-fplugin-arg-sched-arch=sm_80)",
                         "sched-ignored"});
      }
    if (Marked)
      Out.Body = unrollStageRuns(Out.Body, Nest);
  } else {
    Out.Body = AsyncFills().mutate(Pipeliner(Nest, Nest.TensorCoreAuto >= 0, Diags).run());
  }
  std::vector<ir::LoopPragma> Kept;
  for (const ir::LoopPragma &P : Nest.Pragmas)
    if (!ir::pipelineStages(P))
      Kept.push_back(P);
  Out.Pragmas = Kept;
  return Out;
}

const Pass PipelineStagesPass = {
    "PipelineStages", /*Requires=*/FormSynchronized, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      S.Nest = pipelineStages(S.Nest, S.Opts.Arch.isSet() ? S.Opts.Arch.Number : 0, S.Diags);
      return true;
    }};

} // namespace passes
} // namespace sched
