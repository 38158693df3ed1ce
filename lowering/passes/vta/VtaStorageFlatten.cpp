//===- VtaStorageFlatten.cpp - Stage buffers become SRAM element ranges ---===//
//
// What: every allocation in vta.inp / vta.wgt / vta.acc gets a range of its
// SRAM (in elements: 16 scalars of inp and acc, 256 of wgt) and disappears
// (but around a statement no pass lowered that still accesses it, which
// VerifyVtaProgram then reports);
// every call takes its final form (ir/Vta.h form 3, the runtime API one for
// one): an SRAM operand becomes its element index (the range's base plus
// the operand's flat index over the element's scalars), a DRAM operand its
// buffer's base and an element offset.
//
// Ranges with lifetimes: a stage lives inside its allocation, so the
// ranges are a stack per scope. A stage takes the range after those of the
// stages allocated around it, and gives it back when its allocation ends:
// stages of sibling allocations (the weights of one k block, then those of
// the next loop nest) share SRAM, and a scope needs the peak over the
// program, not the sum. Within one context that is safe: InjectCoprocSync
// orders every instruction after the one before it in program order (a
// token between any two instructions of different queues), so the load
// that fills a range waits for the last instruction that read the stage
// before it. Two contexts' streams are interleaved and each context's
// tokens order only its own instructions: a range given back by one
// context could be refilled by the other while the first still reads it,
// so with two contexts nothing is reused (the sum, as before).
// A stage past its SRAM's depth is an error at the directive that made it
// (Nest.StageLocs), naming the stage and by how many elements it overflows.
//
// Why here: the last VTA pass before the verifier; InjectVtaContexts has
// given each context its own slice of every stage (a leading dimension),
// which the flat index takes into account. VerifyVtaProgram checks the
// final indices against the depths again.
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/Affine.h"
#include "ir/Bounds.h"
#include "ir/IRMutator.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "ir/Vta.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

namespace sched {
namespace passes {

using namespace ir;

namespace {

class Flattener : public IRMutator {
public:
  Flattener(const LoopNest &Nest, std::vector<Diag> &Diags)
      : Diags(Diags), StageLocs(Nest.StageLocs), Reuse(Nest.VtaContexts <= 1) {}

protected:
  Stmt mutateAllocate(const Stmt &S, const AllocateNode *N) override {
    int64_t Lanes = vtaElementLanes(N->Buf->MemScope);
    if (!Lanes)
      return IRMutator::mutateAllocate(S, N);
    int64_t Scalars = 1, Ext;
    for (const Expr &E : N->Buf->Shape) {
      if (!getConstInt(simplify(E), Ext)) {
        error("the VTA buffer " + N->Buf->Name + " has no constant size");
        return S;
      }
      Scalars *= Ext;
    }
    if (Scalars % Lanes) {
      error("the VTA buffer " + N->Buf->Name + " holds " + std::to_string(Scalars) +
            " scalars, not whole elements of " + std::to_string(Lanes));
      return S;
    }
    int64_t &Next = NextFree[N->Buf->MemScope];
    const int64_t First = Next, Elements = Scalars / Lanes;
    const int64_t Depth = vtaDepth(N->Buf->MemScope);
    if (First + Elements > Depth) {
      // The stages live at the same time as this one come first.
      Diag D;
      auto It = StageLocs.find(N->Buf->Name);
      D.Loc = It == StageLocs.end() ? -1 : It->second;
      const std::string Mem = scopeName(N->Buf->MemScope);
      D.Message = "the stage " + N->Buf->Name + " needs " + std::to_string(Elements) + " " + Mem +
                  " elements" +
                  (First ? " beside the " + std::to_string(First) + " of the stages live with it"
                         : std::string()) +
                  ": " + std::to_string(First + Elements - Depth) + " more than " + Mem +
                  " holds (" + std::to_string(Depth) + ")";
      Diags.push_back(D);
      return S;
    }
    Base[N->Buf.get()] = First;
    Next += Elements;
    Stmt Body = mutate(N->Body);
    if (Reuse)
      Next = First; // the range is free again after the allocation
    // A statement that is no VTA operation (no pass lowered it) still
    // names the buffer: the allocation stays around it, so the program
    // remains well-formed for VerifyVtaProgram to report the statement.
    for (const Access &A : collectAccesses(Body))
      if (A.Buf == N->Buf)
        return makeAllocate(N->Buf, Body);
    return Body;
  }

  Expr mutateCall(const Expr &E, const CallNode *N) override {
    const std::string &Name = N->Name;
    const std::vector<Expr> &A = N->Args;
    if (Name == "vta.load_2d" && A.size() == 9) {
      const auto *S = as<LoadNode>(A[0]);
      const auto *G = as<LoadNode>(A[1]);
      if (!S || !G)
        return malformed(E);
      Expr Sram = sramIndex(S), Off = dramOffset(G, vtaElementLanes(S->Buf->MemScope));
      if (!Sram || !Off)
        return E;
      return makeCall("vta.LoadBuffer2D",
                      {dramBase(G), Off, A[2], A[3], A[4], A[5], A[6], A[7], A[8], Sram,
                       makeInt(vtaLoadMemId(S->Buf->MemScope, G->Buf->Type))},
                      N->Type);
    }
    if (Name == "vta.store_2d" && A.size() == 5) {
      const auto *G = as<LoadNode>(A[0]);
      const auto *S = as<LoadNode>(A[1]);
      if (!S || !G)
        return malformed(E);
      Expr Sram = sramIndex(S), Off = dramOffset(G, vta::OutLanes);
      if (!Sram || !Off)
        return E;
      return makeCall("vta.StoreBuffer2D",
                      {Sram, makeInt(VtaMemOut), dramBase(G), Off, A[2], A[3], A[4]}, N->Type);
    }
    if (Name == "vta.pack_tiles" && A.size() == 5) {
      const auto *P = as<LoadNode>(A[0]);
      const auto *G = as<LoadNode>(A[1]);
      if (!P || !G)
        return malformed(E);
      return makeCall("vta.PackTiles", {dramBase(P), dramBase(G), A[2], A[3], A[4]}, N->Type);
    }
    if ((Name == "vta.push_gemm" || Name == "vta.push_alu")) {
      bool Gemm = Name == "vta.push_gemm";
      size_t Fixed = VtaPushFixedArgs, PerUop = vtaUopOperands(Gemm);
      if (A.size() < Fixed + PerUop || (A.size() - Fixed) % PerUop)
        return malformed(E);
      std::vector<Expr> Out(A.begin(), A.begin() + Fixed);
      for (size_t I = Fixed; I < A.size(); ++I) {
        if ((I - Fixed) % PerUop == 0 && !as<LoadNode>(A[I]))
          return malformed(E); // a uop's destination is always an acc element
        if (const auto *L = as<LoadNode>(A[I])) {
          Expr Index = sramIndex(L);
          if (!Index)
            return E;
          Out.push_back(Index);
        } else {
          Out.push_back(A[I]); // the unused operand of a reset or immediate op
        }
      }
      return makeCall(Gemm ? "vta.PushGEMMOp" : "vta.PushALUOp", Out, N->Type);
    }
    return IRMutator::mutateCall(E, N);
  }

private:
  std::vector<Diag> &Diags;
  const std::map<std::string, int> &StageLocs;
  const bool Reuse; // one context: ranges are given back (above)
  std::map<Scope, int64_t> NextFree;
  std::map<const BufferNode *, int64_t> Base;

  void error(const std::string &Message) {
    Diag D;
    D.Message = Message;
    Diags.push_back(D);
  }

  Expr malformed(const Expr &E) {
    error("malformed VTA call `" + print(E) + "`");
    return E;
  }

  Expr sramIndex(const LoadNode *L) {
    auto It = Base.find(L->Buf.get());
    if (It == Base.end()) {
      error("`" + print(makeLoad(L->Buf, L->Indices)) + "` is not in a VTA buffer");
      return nullptr;
    }
    Expr Elem;
    std::string Why;
    if (!vtaElementIndex(L, Elem, Why)) {
      error("`" + print(makeLoad(L->Buf, L->Indices)) + "`: " + Why);
      return nullptr;
    }
    return simplify(makeInt(It->second) + Elem);
  }

  Expr dramOffset(const LoadNode *G, int64_t Lanes) {
    Expr Flat = flatIndex(G->Buf->Shape, G->Indices);
    Expr Elem = divideExactly(Flat, Lanes);
    // A padded LOAD starts at a max (or min) of affine indices (InjectVtaDma):
    // each arm divided.
    for (BinOp Op : {BinOp::Max, BinOp::Min}) {
      std::vector<Expr> Arms = minMaxArms(Flat, Op);
      if (Elem || Arms.size() < 2)
        continue;
      Expr Out;
      for (const Expr &Arm : Arms) {
        Expr Part = divideExactly(Arm, Lanes);
        if (!Part) {
          Out = nullptr;
          break;
        }
        Out = Out ? makeBinary(Op, Out, Part) : Part;
      }
      Elem = Out ? simplify(Out) : nullptr;
    }
    if (!Elem)
      error("`" + print(makeLoad(G->Buf, G->Indices)) + "` does not start a VTA element");
    return Elem;
  }

  static Expr dramBase(const LoadNode *G) {
    return makeLoad(G->Buf, std::vector<Expr>(G->Indices.size(), makeInt(0)));
  }
};

} // namespace

ir::LoopNest vtaStorageFlatten(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  LoopNest Out = Nest;
  Out.Body = Flattener(Nest, Diags).mutate(Nest.Body);
  return Out;
}

const Pass VtaStorageFlattenPass = {
    "VtaStorageFlatten", /*Requires=*/VtaFormNoContexts, /*Establishes=*/VtaFormFinal,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      S.Nest = vtaStorageFlatten(S.Nest, S.Diags);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
