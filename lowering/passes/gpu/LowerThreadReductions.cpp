//===- LowerThreadReductions.cpp - Reduction loops bound to threadIdx ----===//
//
// `split(j, jo, ji, 64) bind(ji, threadIdx.x)` on a reduction loop (TVM's
// cross-thread reduction) means: each thread reduces its iterations of the
// reduction into a partial result, the block combines the partials, and the
// result is updated once with the total. This pass writes that out in the
// nest's own terms, so every later pass treats it as ordinary code (thread
// distribution, barriers, the race detector, the emitter):
//
//   for (jo) reduce { for (ji) bind(threadIdx.x) reduce { y[i] = y[i] + e } }
// becomes, with 48 lanes (a shared-memory tree),
//   allocate y.red: T[48] local {
//     for (ji, 0, 48) bind(threadIdx.x) {
//       allocate y.part: T[1] local {
//         y.part[0] = 0 ; for (jo) { y.part[0] = y.part[0] + e } ; y.red[ji] = y.part[0] } }
//     for (t, 0, 48) bind(threadIdx.x) { if (t < 16) y.red[t] = y.red[t] + y.red[t + 32] }
//     ... strides 16, 8, 4, 2, 1 (t < stride) ...
//     y[i] = y[i] + y.red[0] }
// and with 64 lanes along threadIdx.x in a block whose x extent is a
// multiple of 32 (whole warps in each row of x), with warp shuffles:
//   allocate y.red: T[2] local {
//     for (ji, 0, 64) bind(threadIdx.x) {
//       ... y.part as above, then per mask 16, 8, 4, 2, 1:
//       warp.shfl_xor(y.shfl[0], y.part[0], mask) ; y.part[0] = y.part[0] + y.shfl[0]
//       if (ji % 32 == 0) y.red[ji / 32] = y.part[0] }
//     y[i] = y[i] + (y.red[0] + y.red[1]) }
// Whoever takes the total (one thread, or every thread for a temporary)
// combines the warps' totals from shared memory itself, as a balanced tree,
// so all end with the same bits (each lane of a warp combines its value with
// its partner's in the same order, too): one barrier in all. Beyond 8 warps,
// every warp combines the totals with shuffles instead and thread 0 leaves
// the result in y.red[warps] (a second barrier, a load each):
//     for (t, 0, 512) bind(threadIdx.x) {
//       y.warps[0] = t % 32 < 16 ? y.red[t % 32] : 0 ; butterfly over masks 8 .. 1 ;
//       if (t == 0) y.red[16] = y.warps[0] }
//     y[i] = y[i] + y.red[16] }
// Lanes that are a whole row of x narrower than a warp (x a power of two
// below 32, in a block of whole warps) shuffle the same way with masks x/2
// down to 1, which stay inside the row's aligned group of lanes, and the
// group's first lane leaves the row's total in y.red[0] (one per row once
// promoted): one barrier. Only where every row of every warp reaches the
// shuffles: no guard above the region reads a thread's coordinates and each
// thread loop around it runs over its whole launch extent; else the tree.
//
// The region reduced at once starts at the outermost loop around the bound
// one that only carries the same reduction (its loops do not move the
// element, and nothing else in them touches it). When the loops from there
// to the bound loop are a perfect band (only guards and lets between), the
// thread loop is moved to the band's top (reductions commute), so each
// thread accumulates in a register (`y.part`, local inside the thread
// loop); otherwise (a stage filled between them) each thread accumulates in
// its own element of `y.red`. `y.red` is local in the nest's terms and
// exchanged between threads, so PromoteToShared makes it a shared array (one
// per thread of the dimensions around it), InjectThreadSync puts the barriers
// between the tree's steps, and DistributeOverThreads gives the final update
// to one thread (every thread, when `y` is a local temporary: each then
// holds the total, as softmax's max and sum need). The tree combines in a
// fixed order, so a result is the same on every run (floating-point sums
// differ from the sequential loop's by reassociation only).
//
// The schedule checked the reduction (ir/Reduction.h) when it bound the loop;
// this pass reads the same description, and the block's x extent from
// computeLaunchGeometry (the kernel context's one rule, asked early). Runs after BoundInference (stages
// are in place) and before every pass that reads thread bindings; a
// thread-bound loop that still carries a reduction after it is a bug.
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/IRMutator.h"
#include "ir/Kernel.h"
#include "ir/IRVisitor.h"
#include "ir/Intrinsics.h"
#include "ir/Printer.h"
#include "ir/Reduction.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"
#include "passes/Passes.h"

#include <map>
#include <set>

namespace sched {
namespace passes {

namespace {

using namespace ir;

/// The outermost loop bound to blockIdx or threadIdx that carries a
/// reduction, if any. Outermost first: a reduction over threadIdx.y around
/// one over threadIdx.x moves above the serial loops they share, so the
/// inner one (then reducing into the outer's per-thread partial) combines
/// once per row after all of them, not once per iteration; a reduction
/// across blocks becomes the block's partial, which its thread loops then
/// reduce into.
class BoundReductionFinder : public IRVisitor {
public:
  const ForNode *Found = nullptr;

protected:
  void visitFor(const ForNode *N) override {
    if (Found)
      return;
    if (N->LoopKind == ForKind::ThreadBound && N->IsReduction) {
      Found = N;
      return;
    }
    IRVisitor::visitFor(N);
  }
};

/// The reduced element's buffers for one bound loop: the block's exchange
/// array (one element per thread of the loop) and the thread's partial.
struct Reduced {
  ReductionUpdate Update;
  Buffer Red, Part;
  Buffer Shfl; // the value a warp shuffle brings from another lane
  Expr Identity;
};

/// The bound loop's body with each reduced element's updates made updates
/// of its partial: `Part[0]`, or `Red[Lane]` when each thread accumulates in
/// the exchange array.
Stmt redirectAll(const Stmt &Body, const std::vector<Reduced> &Reductions, bool IntoArray,
                 const Expr &Lane) {
  Stmt Out = Body;
  for (const Reduced &R : Reductions)
    Out = redirectUpdates(Out, R.Update, IntoArray ? R.Red : R.Part,
                          {IntoArray ? Lane : makeInt(0)});
  return Out;
}

int64_t powerOfTwoAtLeast(int64_t N) {
  int64_t P = 1;
  while (P < N)
    P *= 2;
  return P;
}

class ThreadReductionLowering {
public:
  explicit ThreadReductionLowering(LoweringState &S) : S(S) {}

  /// Lowers every thread-bound reduction loop, outermost first.
  bool run() {
    for (;;) {
      BoundReductionFinder F;
      F.visit(S.Nest.Body);
      if (!F.Found)
        return true;
      if (!lower(F.Found))
        return false;
    }
  }

private:
  LoweringState &S;

  bool lower(const ForNode *L) {
    const std::string Where = "the reduction loop '" + L->LoopVar->Name + "' bound to " +
                              L->ThreadTag;
    std::vector<ReductionUpdate> Updates;
    std::string Why;
    if (!reductionUpdatesOf(L, Updates, &Why))
      return S.error(Where + " is no cross-thread reduction: " + Why);
    if (isBlockTag(L->ThreadTag))
      return lowerAcrossBlocks(L, Updates);
    int64_t Lanes = 0, Min = -1;
    if (!getConstInt(L->Extent, Lanes) || Lanes < 1 || !getConstInt(L->Min, Min) || Min != 0)
      return S.error(Where + " has no constant extent from 0 (" + print(L->Extent) +
                     "): its partial results need an array of known size");
    std::vector<const StmtNode *> Path;
    enclosingStmts(S.Nest.Body, L, Path);
    size_t Top = regionTop(Updates, Path);

    const bool Perfect = isPerfectBand(Path, Top);
    // Warp shuffles need whole warps along the reduced dimension: x, in
    // multiples of 32 lanes, in a block whose x extent is a multiple of 32
    // (so a warp never spans two rows of x).
    // Or, in a block of whole warps whose x extent is a power of two below
    // 32, lanes that are the whole row of x: each warp holds 32 / x rows, and
    // shuffles within aligned groups of x lanes combine each row's partials.
    const int64_t X = L->ThreadTag == "threadIdx.x" ? shuffleWidth(S.Nest, Lanes, Path, Top) : 0;
    const bool Shuffles = Perfect && X > 0;
    const int64_t Width = std::min<int64_t>(X, 32); // lanes one shuffle group combines
    const int64_t Warps = Shuffles ? std::max<int64_t>(Lanes / 32, 1) : 0;
    // Up to MaxWarpsReadDirectly warps, whoever takes the total reads the
    // warps' totals from shared memory and combines them itself (one barrier
    // in all); beyond, every warp combines them with shuffles and thread 0
    // leaves the total in Red[Warps] (a second barrier, fewer loads).
    const bool ReadWarpTotals = Shuffles && Warps > 1 && Warps <= MaxWarpsReadDirectly;
    const int64_t ResultAt = Shuffles && Warps > 1 && !ReadWarpTotals ? Warps : 0;

    std::vector<Reduced> Reductions;
    for (const ReductionUpdate &U : Updates) {
      Reduced R;
      R.Update = U;
      int64_t RedSize = !Shuffles ? Lanes : ReadWarpTotals ? Warps : ResultAt + 1;
      R.Red = makeBuffer(U.Buf->Name + ".red", U.Buf->Type, {makeInt(RedSize)}, Scope::Local);
      R.Part = makeBuffer(U.Buf->Name + ".part", U.Buf->Type, {makeInt(1)}, Scope::Local);
      R.Shfl = makeBuffer(U.Buf->Name + ".shfl", U.Buf->Type, {makeInt(1)}, Scope::Local);
      R.Identity = reductionIdentity(U.Combine, U.Buf->Type);
      if (!R.Identity)
        return S.error(Where + ": no identity for " + binOpSymbol(U.Combine) + " on " +
                       dtypeName(U.Buf->Type));
      Reductions.push_back(R);
    }

    const StmtNode *TopNode = Top < Path.size() ? Path[Top] : L;
    std::vector<Stmt> Seq;
    if (Shuffles) {
      Seq.push_back(accumulateInRegisters(L, Path, Top, Reductions, Width));
      if (Warps > 1 && !ReadWarpTotals)
        combineWarpTotals(L, Warps, Reductions, Seq);
    } else {
      Seq.push_back(Perfect ? accumulateInRegisters(L, Path, Top, Reductions, 0)
                            : accumulateInArray(L, TopNode, Reductions));
      for (const Reduced &R : Reductions)
        combine(L, Lanes, R, Seq);
    }
    for (const Reduced &R : Reductions) {
      const StoreNode *First = R.Update.Stores.front();
      Expr Old = makeLoad(R.Update.Buf, R.Update.Indices);
      Expr Total = ReadWarpTotals ? combinedTotals(R, 0, Warps) : makeLoad(R.Red, {makeInt(ResultAt)});
      Seq.push_back(makeStoreLike(First, R.Update.Buf, R.Update.Indices,
                                  combineIn(R.Update.Combine, R.Update.Buf->Type, Old, Total)));
    }
    Stmt New = makeSeq(Seq);
    for (auto It = Reductions.rbegin(); It != Reductions.rend(); ++It)
      New = makeAllocate(It->Red, New);
    S.Nest.Body = replaceStmt(S.Nest.Body, TopNode, New);
    return true;
  }

  /// A reduction loop bound to blockIdx (schedule/Bind.cpp): each block
  /// reduces its iterations into `y.blk` (local: after the block's own
  /// cross-thread reductions, lowered first, every thread holds the block's
  /// total). Where atomic updates give the same result in any order
  /// (integer sums, min, max, bitwise), or atomic(C) accepts the order the
  /// hardware picks, the partial goes into the element with one atomic
  /// update (DistributeOverThreads gives it to one thread of the block).
  /// Otherwise (a floating-point sum) the blocks combine in a fixed order:
  /// fixedOrderCombine.
  bool lowerAcrossBlocks(const ForNode *L, const std::vector<ReductionUpdate> &Updates) {
    Stmt Body = L->Body;
    std::vector<Stmt> Seq;
    std::vector<Buffer> Partials;
    std::vector<Stmt> Atomics;
    std::vector<std::pair<const ReductionUpdate *, Buffer>> Ordered;
    for (const ReductionUpdate &U : Updates) {
      Expr Identity = reductionIdentity(U.Combine, U.Buf->Type);
      if (!Identity || !hasAtomicUpdate(U.Combine, U.Buf->Type))
        return S.error("the reduction loop '" + L->LoopVar->Name + "' bound to " + L->ThreadTag +
                       " has no atomic " + binOpSymbol(U.Combine) + " on " +
                       dtypeName(U.Buf->Type));
      Buffer Blk = makeBuffer(U.Buf->Name + ".blk", U.Buf->Type, {makeInt(1)}, Scope::Local);
      Body = redirectUpdates(Body, U, Blk, {makeInt(0)});
      Seq.push_back(makeStore(Blk, {makeInt(0)}, Identity));
      if (atomicUpdateIsExact(U.Combine, U.Buf->Type) || S.Nest.AtomicUpdates.count(U.Buf->Name))
        Atomics.push_back(
            makeAtomicUpdate(U.Combine, U.Buf, U.Indices, makeLoad(Blk, {makeInt(0)})));
      else
        Ordered.push_back({&U, Blk});
      Partials.push_back(Blk);
    }
    Seq.push_back(Body);
    Seq.insert(Seq.end(), Atomics.begin(), Atomics.end());
    if (!Ordered.empty()) {
      Stmt Combine;
      if (!fixedOrderCombine(L, Ordered, Combine))
        return false;
      Seq.push_back(Combine);
    }
    Stmt New = makeSeq(Seq);
    for (auto It = Partials.rbegin(); It != Partials.rend(); ++It)
      New = makeAllocate(*It, New);
    S.Nest.Body = replaceStmt(
        S.Nest.Body, L,
        makeFor(L->LoopVar, L->Min, L->Extent, New, ForKind::ThreadBound, L->ThreadTag));
    return true;
  }

  /// The blocks of loop L (n of them, per group: per iteration of the block
  /// loops around L) combine their partials `y.blk` in block order, so a
  /// floating-point sum has the same bits on every run:
  ///   y.blocks[g*n + b] = y.blk[0]              each block its partial
  ///   sched.block_ticket(y.ticket[0], y.tickets[g], n)
  ///   if (y.ticket[0] == n - 1) {              the last block of the group
  ///     y.total[0] = 0 ; for (b', 0, n) y.total[0] = y.total[0] + y.blocks[g*n + b']
  ///     sched.atomic_add(y[i], y.total[0]) }
  /// all on one thread of the block (DistributeOverThreads: the statement
  /// writes global memory outside every thread loop). y.blocks and y.tickets are scratch
  /// parameters the launcher allocates zeroed; the tickets count to n - 1
  /// and wrap to 0, so the counters are 0 again for the next launch. The
  /// ticket orders every block's partial before the last block's reads
  /// (release and acquire); only the last block of a group updates y, with
  /// an atomic update so that no analysis sees the blocks of a group write
  /// it unordered. A group is an iteration of the loops around L: the block
  /// loops, and serial loops the kernel runs in every block (each iteration
  /// has its own partials and counter, so blocks that run ahead into the
  /// next iteration take tickets of another counter). Needs the extents of
  /// L and of the loops around it in the nest's scalar parameters (they
  /// size the scratch).
  bool fixedOrderCombine(const ForNode *L,
                         const std::vector<std::pair<const ReductionUpdate *, Buffer>> &Ordered,
                         Stmt &Out) {
    const std::string Where = "the reduction loop '" + L->LoopVar->Name + "' bound to " +
                              L->ThreadTag + " (a fixed-order combine across blocks)";
    // The scratch is sized by the launcher: from the scalar parameters.
    auto OfParams = [&](const Expr &E) { return isLaunchExpr(E, S.Nest); };
    std::vector<const StmtNode *> Path;
    enclosingStmts(S.Nest.Body, L, Path);
    Expr Group = makeInt(0), Groups = makeInt(1);
    for (const StmtNode *P : Path) {
      const auto *F = as<ForNode>(borrow(P));
      if (!F)
        continue;
      if (F->LoopKind == ForKind::ThreadBound && !isBlockTag(F->ThreadTag))
        return S.error(Where + " is inside loop '" + F->LoopVar->Name + "', bound to " +
                       F->ThreadTag);
      if (!OfParams(F->Min) || !OfParams(F->Extent))
        return S.error(Where + ": the extent of the loop '" + F->LoopVar->Name +
                       "' around it is not a function of the nest's scalar parameters");
      Group = Group * F->Extent + (Expr(F->LoopVar) - F->Min);
      Groups = Groups * F->Extent;
    }
    if (!OfParams(L->Min) || !OfParams(L->Extent))
      return S.error(Where + ": its extent " + print(L->Extent) +
                     " is not a function of the nest's scalar parameters");
    const Expr N = L->Extent;
    const std::string Base = Ordered.front().first->Buf->Name;
    Buffer Counters = makeBuffer(freeParamName(Base + ".tickets"), DType::UInt32,
                                 {simplify(Groups)}, Scope::Global);
    Buffer Ticket = makeBuffer(Base + ".ticket", DType::UInt32, {makeInt(1)}, Scope::Local);
    addScratch(Counters);
    Group = simplify(Group);
    std::vector<Stmt> Publish, Last;
    Var B = makeVar(L->LoopVar->Name);
    for (const auto &[U, Blk] : Ordered) {
      Buffer Blocks = makeBuffer(freeParamName(U->Buf->Name + ".blocks"), U->Buf->Type,
                                 {simplify(Groups * N)}, Scope::Global);
      addScratch(Blocks);
      Publish.push_back(makeStore(Blocks, {simplify(Group * N + (Expr(L->LoopVar) - L->Min))},
                                  makeLoad(Blk, {makeInt(0)})));
      Buffer Total = makeBuffer(U->Buf->Name + ".total", U->Buf->Type, {makeInt(1)},
                                Scope::Local);
      Stmt Sum = makeFor(B, makeInt(0), N,
                         makeStore(Total, {makeInt(0)},
                                   combineIn(U->Combine, U->Buf->Type,
                                             makeLoad(Total, {makeInt(0)}),
                                             makeLoad(Blocks, {simplify(Group * N + Expr(B))}))),
                         ForKind::Serial);
      Last.push_back(makeAllocate(
          Total, makeSeq({makeStore(Total, {makeInt(0)},
                                    reductionIdentity(U->Combine, U->Buf->Type)),
                          Sum,
                          makeAtomicUpdate(U->Combine, U->Buf, U->Indices,
                                           makeLoad(Total, {makeInt(0)}))})));
    }
    Publish.push_back(makeBlockTicket(Ticket, Counters, Group, N));
    Publish.push_back(makeIf(makeBinary(BinOp::EQ, makeLoad(Ticket, {makeInt(0)}),
                                        makeCast(DType::UInt32, N - makeInt(1))),
                             makeSeq(Last)));
    // A statement that writes global memory outside every thread loop:
    // DistributeOverThreads gives the whole allocation to one thread.
    Out = makeAllocate(Ticket, makeSeq(Publish));
    return true;
  }

  /// Name, or Name.2, Name.3, ... : the first no parameter has (a nest with
  /// two fixed-order combines into one array gets two sets of scratch).
  std::string freeParamName(const std::string &Name) const {
    auto Taken = [&](const std::string &N) {
      for (const Param &P : S.Nest.Params)
        if (P.name() == N)
          return true;
      return false;
    };
    std::string Out = Name;
    for (int K = 2; Taken(Out); ++K)
      Out = Name + "." + std::to_string(K);
    return Out;
  }

  /// Adds B as a buffer parameter the launcher allocates (Param::Scratch).
  void addScratch(const Buffer &B) {
    Param P;
    P.ParamKind = Param::Kind::Buffer;
    P.Buf = B;
    P.Scratch = true;
    S.Nest.Params.push_back(P);
  }

  /// The index in Path of the outermost loop the reduction can start at
  /// (Path.size(): the bound loop itself): loops that carry only this
  /// reduction, through guards, lets, sequences and allocations.
  static size_t regionTop(const std::vector<ReductionUpdate> &Updates,
                          const std::vector<const StmtNode *> &Path) {
    size_t Top = Path.size();
    for (size_t K = Path.size(); K-- > 0;) {
      const StmtNode *P = Path[K];
      if (P->Kind != StmtKind::For)
        continue;
      const auto *F = static_cast<const ForNode *>(P);
      if ((F->LoopKind != ForKind::Serial && F->LoopKind != ForKind::Unrolled) ||
          !F->IsReduction || !onlyUpdates(F, Updates))
        break;
      Top = K;
    }
    return Top;
  }

  /// Whether F's loop variable leaves every reduced element where it is and
  /// nothing in F but the updates touches one.
  static bool onlyUpdates(const ForNode *F, const std::vector<ReductionUpdate> &Updates) {
    for (const ReductionUpdate &U : Updates)
      for (const Expr &I : U.Indices)
        if (usesVar(I, F->LoopVar.get()))
          return false;
    for (const Access &A : collectAccesses(F->Body))
      for (const ReductionUpdate &U : Updates)
        if (A.Buf.get() == U.Buf.get() && !U.updatedBy(A.Statement))
          return false;
    return true;
  }

  /// Whether the statements from Path[Top] down to the bound loop each hold
  /// only the next one (loops, guards without else, lets).
  static bool isPerfectBand(const std::vector<const StmtNode *> &Path, size_t Top) {
    for (size_t K = Top; K < Path.size(); ++K) {
      const StmtNode *P = Path[K];
      const StmtNode *Next = K + 1 < Path.size() ? Path[K + 1] : nullptr;
      const StmtNode *Child = nullptr;
      if (const auto *F = as<ForNode>(borrow(P)))
        Child = F->Body.get();
      else if (const auto *I = as<IfThenElseNode>(borrow(P)))
        Child = I->Else ? nullptr : I->Then.get();
      else if (const auto *Let = as<LetStmtNode>(borrow(P)))
        Child = Let->Body.get();
      if (!Child || (Next && Child != Next))
        return false;
    }
    return true;
  }

  /// The bound loop moved to the top of the band, each thread reducing its
  /// iterations into registers and storing its partial into `Red[lane]`;
  /// with shuffles (Width: the lanes of a group, 32 or a row of x), each
  /// group's first lane stores the group's total into `Red[group]`.
  Stmt accumulateInRegisters(const ForNode *L, const std::vector<const StmtNode *> &Path,
                             size_t Top, const std::vector<Reduced> &Reductions, int64_t Width) {
    const bool Shuffles = Width > 0;
    Stmt Body = redirectAll(L->Body, Reductions, false, nullptr);
    for (size_t K = Path.size(); K-- > Top;) {
      const StmtNode *P = Path[K];
      if (const auto *F = as<ForNode>(borrow(P)))
        Body = withBody(F, Body);
      else if (const auto *I = as<IfThenElseNode>(borrow(P)))
        Body = makeIf(I->Cond, Body);
      else if (const auto *Let = as<LetStmtNode>(borrow(P)))
        Body = makeLet(Let->LetVar, Let->Value, Body);
    }
    std::vector<Stmt> Thread;
    for (const Reduced &R : Reductions)
      Thread.push_back(makeStore(R.Part, {makeInt(0)}, R.Identity));
    Thread.push_back(Body);
    if (Shuffles) {
      // The group's partials combined in registers; its first lane leaves
      // the group's total in Red[group].
      Expr Lane = L->LoopVar;
      for (const Reduced &R : Reductions) {
        warpButterfly(R, R.Part, R.Shfl, Width, Thread);
        Thread.push_back(makeIf(makeBinary(BinOp::EQ, Lane % makeInt(Width), makeInt(0)),
                                makeStore(R.Red, {Lane / makeInt(Width)},
                                          makeLoad(R.Part, {makeInt(0)}))));
      }
    } else {
      for (const Reduced &R : Reductions)
        Thread.push_back(makeStore(R.Red, {L->LoopVar}, makeLoad(R.Part, {makeInt(0)})));
    }
    Stmt Inner = makeSeq(Thread);
    for (auto It = Reductions.rbegin(); It != Reductions.rend(); ++It) {
      if (Shuffles)
        Inner = makeAllocate(It->Shfl, Inner);
      Inner = makeAllocate(It->Part, Inner);
    }
    return makeFor(L->LoopVar, L->Min, L->Extent, Inner, ForKind::ThreadBound, L->ThreadTag);
  }

  /// The region as it is, the bound loop accumulating into `Red[lane]`,
  /// which starts at the identity.
  Stmt accumulateInArray(const ForNode *L, const StmtNode *TopNode,
                         const std::vector<Reduced> &Reductions) {
    std::vector<Stmt> Init;
    Var T = makeVar(L->LoopVar->Name);
    for (const Reduced &R : Reductions)
      Init.push_back(makeStore(R.Red, {T}, R.Identity));
    Stmt Bound = makeFor(L->LoopVar, L->Min, L->Extent,
                         redirectAll(L->Body, Reductions, true, L->LoopVar),
                         ForKind::ThreadBound, L->ThreadTag);
    Stmt Region = TopNode == L ? Bound : replaceStmt(borrow(TopNode), L, Bound);
    return makeSeq({makeFor(T, makeInt(0), L->Extent, makeSeq(Init), ForKind::ThreadBound,
                            L->ThreadTag),
                    Region});
  }

  /// V (each lane's local value) combined over aligned groups of Width
  /// lanes, Width a power of two up to 32: XOR shuffles with lane masks
  /// Width/2 down to 1, each lane combining its value with its partner's
  /// (`v = v op other`, in the same order on every lane, so all lanes of a
  /// group end with the same bits).
  static void warpButterfly(const Reduced &R, const Buffer &V, const Buffer &Other,
                            int64_t Width, std::vector<Stmt> &Out) {
    for (int64_t Mask = Width / 2; Mask >= 1; Mask /= 2) {
      Out.push_back(makeWarpShflXor(Other, V, Mask));
      Out.push_back(makeStore(V, {makeInt(0)},
                              combineIn(R.Update.Combine, V->Type, makeLoad(V, {makeInt(0)}),
                                       makeLoad(Other, {makeInt(0)}))));
    }
  }

  /// The most warps whose totals the reader of the result combines from
  /// shared memory itself (8 loads from one address each, broadcast, against
  /// a barrier, shuffles and a store).
  static constexpr int64_t MaxWarpsReadDirectly = 8;

  /// `Red[From, To)` combined as a balanced tree, in the same order wherever
  /// it is evaluated.
  static Expr combinedTotals(const Reduced &R, int64_t From, int64_t To) {
    if (To - From == 1)
      return makeLoad(R.Red, {makeInt(From)});
    int64_t Mid = From + (To - From + 1) / 2;
    return combineIn(R.Update.Combine, R.Red->Type, combinedTotals(R, From, Mid),
                     combinedTotals(R, Mid, To));
  }

  /// The warps' totals `Red[0, Warps)` combined by every warp at once (lane
  /// l takes Red[l], the identity past the last warp), so no thread waits for
  /// another warp's result; thread 0 leaves the total in `Red[Warps]`.
  static void combineWarpTotals(const ForNode *L, int64_t Warps,
                                const std::vector<Reduced> &Reductions, std::vector<Stmt> &Out) {
    Var T = makeVar(L->LoopVar->Name);
    Expr Lane = T % makeInt(32);
    std::vector<Stmt> Body;
    for (const Reduced &R : Reductions) {
      Buffer V = makeBuffer(R.Update.Buf->Name + ".warps", R.Update.Buf->Type, {makeInt(1)},
                            Scope::Local);
      Buffer Other = makeBuffer(R.Update.Buf->Name + ".shfl", R.Update.Buf->Type, {makeInt(1)},
                                Scope::Local);
      std::vector<Stmt> Steps{
          makeIf(Lane < makeInt(Warps), makeStore(V, {makeInt(0)}, makeLoad(R.Red, {Lane})),
                 makeStore(V, {makeInt(0)}, R.Identity))};
      warpButterfly(R, V, Other, powerOfTwoAtLeast(Warps), Steps);
      Steps.push_back(makeIf(makeBinary(BinOp::EQ, T, makeInt(0)),
                             makeStore(R.Red, {makeInt(Warps)}, makeLoad(V, {makeInt(0)}))));
      Body.push_back(makeAllocate(V, makeAllocate(Other, makeSeq(Steps))));
    }
    Out.push_back(makeFor(T, makeInt(0), L->Extent, makeSeq(Body), ForKind::ThreadBound,
                          L->ThreadTag));
  }

  /// The block's x extent (its launch extent, as the kernel context will
  /// have it) where Lanes along x can combine with warp shuffles: a multiple
  /// of 32 when Lanes is one (whole warps in each row of x), or Lanes itself,
  /// a power of two below 32, in a block of whole warps (each warp holds
  /// 32 / x rows of x, aligned) where every row reaches the shuffles: no
  /// guard above the region (Path[0, Top)) reads a thread's coordinates and
  /// every thread loop around it runs over its whole launch extent (a warp
  /// then never leaves a row out); 0 otherwise.
  static int64_t shuffleWidth(const LoopNest &Nest, int64_t Lanes,
                              const std::vector<const StmtNode *> &Path, size_t Top) {
    KernelContext Ctx;
    std::vector<Diag> NotKnown; // then no shuffles
    if (!computeLaunchGeometry(Nest, Ctx, NotKnown))
      return 0;
    if (!shuffleGroupsStayInRows(Ctx.Geometry, std::min<int64_t>(Lanes, 32)))
      return 0;
    const int64_t X = Ctx.constExtent("threadIdx.x");
    if (X % 32 == 0)
      return Lanes % 32 == 0 ? X : 0;
    if (Lanes != X)
      return 0;
    std::set<const VarNode *> ThreadVars;
    for (size_t K = 0; K < Top && K < Path.size(); ++K)
      if (const auto *F = as<ForNode>(borrow(Path[K]))) {
        if (F->LoopKind != ForKind::ThreadBound || !isThreadIdxTag(F->ThreadTag))
          continue;
        int64_t Min = -1, Extent = -1;
        if (!getConstInt(F->Min, Min) || Min != 0 || !getConstInt(F->Extent, Extent) ||
            Extent != Ctx.constExtent(F->ThreadTag))
          return 0;
        ThreadVars.insert(F->LoopVar.get());
      } else if (const auto *I = as<IfThenElseNode>(borrow(Path[K]))) {
        for (const VarNode *V : varsOf(I->Cond))
          if (ThreadVars.count(V))
            return 0;
      }
    return X;
  }

  /// The tree that leaves the combination of `Red[0, Lanes)` in `Red[0]`:
  /// at each step the lower half of the live elements takes in the upper.
  static void combine(const ForNode *L, int64_t Lanes, const Reduced &R,
                      std::vector<Stmt> &Out) {
    for (int64_t Half = powerOfTwoAtLeast(Lanes) / 2; Half >= 1; Half /= 2) {
      Var T = makeVar(L->LoopVar->Name);
      const int64_t Live = std::min(Half, Lanes - Half);
      Expr Sum = combineIn(R.Update.Combine, R.Red->Type, makeLoad(R.Red, {T}),
                          makeLoad(R.Red, {T + makeInt(Half)}));
      Stmt Step = makeStore(R.Red, {T}, Sum);
      if (Live < Lanes)
        Step = makeIf(T < makeInt(Live), Step);
      Out.push_back(makeFor(T, makeInt(0), makeInt(Lanes), Step, ForKind::ThreadBound,
                            L->ThreadTag));
    }
  }
};

} // namespace

const Pass LowerThreadReductionsPass = {
    "LowerThreadReductions", /*Requires=*/FormAny, /*Establishes=*/FormAny,
    [](LoweringState &S) { return ThreadReductionLowering(S).run(); }};

} // namespace passes
} // namespace sched
