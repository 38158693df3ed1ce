//===- PromoteToShared.cpp - Arrays threads exchange values through ------===//
//
// An array declared inside the nest is extracted as a local allocation, and
// local memory is per thread: right as long as each thread reads back only
// what it wrote itself. But in C++ an array declared outside a loop is one
// array that all the loop's iterations share, so once the schedule binds such
// a loop to threadIdx (`float tile[16]; for t: tile[t] = x[..]; for u:
// y[..] = tile[15 - u];`, t and u bound to threadIdx.x), thread u reads what
// thread 15 - u wrote, in a copy it never sees. This pass gives those arrays
// the meaning the source has: one array per block, in shared memory.
//
// A local buffer is promoted when some thread may read an element another
// thread of the block wrote (passes::localHandOffs, which asks
// ir::mayConflictAcrossThreads). It then becomes shared, where
//  - no loop bound to blockIdx lies inside its allocation (it is declared
//    inside every block loop, or the kernel has none): shared memory is one
//    array per block, the source's one array per iteration of the block
//    loops;
//  - it has a constant size (shared arrays are sized at compile time) of at
//    most 48 KiB (a block's static shared memory);
//  - declared inside threadIdx loops (one array per iteration of each, shared
//    by the threads of the other dimensions: `tile` in the threadIdx.y loop,
//    exchanged along x), it gets a leading dimension per such loop, of its
//    tag's launch extent, indexed by the loop's variable: `tile[ty, j]`, one
//    slice per y-thread. That is why set_scope(a, shared) refuses such an
//    array (it would merge the copies) while this pass may promote it.
// Anything else is an error naming the array and what stands in the way:
// an array declared outside a block loop would have to be one for all
// blocks (and where blocks exchange values through it, no barrier can order
// them), a size known only at run time cannot be shared memory. The frontend
// then keeps the loop; nothing is miscompiled. A local array each thread uses
// privately stays local.
//
// Runs after WidenThreadLoops (thread loops run over their launch extents,
// which the extra dimensions take from the KernelContext) and before
// DistributeOverThreads, which then gives each store to a promoted array to
// the threads the nest says (a store outside a thread loop: once, not once
// per thread); InjectThreadSync adds the barriers between the threads that
// write and read it, and still reports a local hand-off left (a backstop).
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/Dependence.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/LaunchLimits.h"
#include "ir/Printer.h"
#include "ir/Simplify.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace sched {
namespace passes {

namespace {

/// Where a local allocation stands: the threadIdx loops around it (outermost
/// first) and the first blockIdx loop inside it.
struct Placement {
  std::vector<const ir::ForNode *> ThreadLoops;
  const ir::ForNode *BlockLoopInside = nullptr;
};

class BlockLoopFinder : public ir::IRVisitor {
public:
  const ir::ForNode *Found = nullptr;

protected:
  void visitFor(const ir::ForNode *N) override {
    if (!Found && N->LoopKind == ir::ForKind::ThreadBound && ir::isBlockTag(N->ThreadTag))
      Found = N;
    ir::IRVisitor::visitFor(N);
  }
};

class LocalPlacements : public ir::IRVisitor {
public:
  std::map<const ir::BufferNode *, Placement> Of;

protected:
  void visitFor(const ir::ForNode *N) override {
    bool Thread = isThreadIdxLoop(N);
    if (Thread)
      ThreadLoops.push_back(N);
    ir::IRVisitor::visitFor(N);
    if (Thread)
      ThreadLoops.pop_back();
  }
  void visitAllocate(const ir::AllocateNode *N) override {
    if (N->Buf->MemScope == ir::Scope::Local) {
      BlockLoopFinder Inside;
      Inside.visit(N->Body);
      Of[N->Buf.get()] = Placement{ThreadLoops, Inside.Found};
    }
    ir::IRVisitor::visitAllocate(N);
  }

private:
  std::vector<const ir::ForNode *> ThreadLoops;
};

std::string shapeText(const ir::Buffer &B) {
  std::string Out;
  for (const ir::Expr &E : B->Shape)
    Out += (Out.empty() ? "" : ", ") + ir::print(E);
  return "[" + Out + "]";
}

/// Whether two blocks may touch one element of Buf, one writing.
bool sharedByBlocks(const ir::BufferNode *Buf, const std::vector<ir::Access> &Accesses,
                    const std::map<std::string, int64_t> &Grid) {
  for (const ir::Access &A : Accesses)
    for (const ir::Access &B : Accesses)
      if (A.Buf.get() == Buf && B.Buf.get() == Buf && A.IsWrite &&
          ir::mayConflictAcrossBlocks(A, B, Grid))
        return true;
  return false;
}

class Promoter {
public:
  Promoter(const ir::LoopNest &Nest, const KernelContext &Ctx, std::vector<Diag> &Diags)
      : Nest(Nest), Ctx(Ctx), Diags(Diags) {
    Placements.visit(Nest.Body);
  }

  /// The shared buffer that replaces H's, with its index map; null (and an
  /// error) when it cannot be shared.
  ir::Buffer promoted(const LocalHandOff &H, ir::IndexMap &Map) {
    const ir::Buffer &Old = H.Write.Buf;
    const Placement &P = Placements.Of[Old.get()];
    std::string Why = "local array '" + Old->Name + "' passes values between threads (" +
                      ir::describeAccess(H.Write) + ", then " + ir::describeAccess(H.Read) +
                      "), so it must be shared memory, but ";
    if (const ir::ForNode *B = P.BlockLoopInside) {
      std::string Loop = "loop '" + B->LoopVar->Name + "', bound to " + B->ThreadTag;
      if (sharedByBlocks(Old.get(), accesses(), Ctx.gridExtents()))
        return refuse(Why + "blocks would exchange values through it too (it is declared "
                            "outside " + Loop + "), and blocks cannot be synchronized within "
                            "a kernel; write and read each of its elements in one block");
      return refuse(Why + "shared memory is one array per block and it is declared outside " +
                    Loop + " (one array for all blocks); declare it inside that loop");
    }
    std::vector<ir::Expr> Shape, ThreadIndex;
    std::set<std::string> Tags;
    for (const ir::ForNode *L : P.ThreadLoops) {
      if (!Tags.insert(L->ThreadTag).second)
        return refuse(Why + "it is declared inside two loops bound to " + L->ThreadTag +
                      "; declare it outside '" + L->LoopVar->Name + "'");
      int64_t Threads = Ctx.constExtent(L->ThreadTag);
      if (Threads < 1)
        return refuse(Why + "it is declared inside loop '" + L->LoopVar->Name +
                      "', bound to " + L->ThreadTag + " (one array per thread of it), whose " +
                      "launch extent is known only at run time; make that extent constant");
      Shape.push_back(ir::makeInt(Threads));
      ThreadIndex.push_back(L->LoopVar);
    }
    int64_t Bytes = ir::dtypeBytes(Old->Type);
    for (const ir::Expr &E : Old->Shape) {
      int64_t N;
      if (!ir::getConstInt(ir::simplify(E), N))
        return refuse(Why + "its size " + shapeText(Old) +
                      " is known only at run time; give it a constant size");
      Shape.push_back(ir::makeInt(N));
    }
    for (const ir::Expr &E : Shape) {
      int64_t N;
      ir::getConstInt(E, N);
      Bytes *= N;
    }
    if (Bytes > ir::MaxStaticSharedBytes)
      return refuse(Why + "it needs " + std::to_string(Bytes) +
                    " bytes and a block has 48 KiB of shared memory");
    Map = [ThreadIndex](const std::vector<ir::Expr> &Indices) {
      std::vector<ir::Expr> Out = ThreadIndex;
      Out.insert(Out.end(), Indices.begin(), Indices.end());
      return Out;
    };
    return ir::makeBuffer(Old->Name, Old->Type, Shape, ir::Scope::Shared);
  }

private:
  const ir::LoopNest &Nest;
  const KernelContext &Ctx;
  std::vector<Diag> &Diags;
  LocalPlacements Placements;
  std::vector<ir::Access> Accesses; // of the whole nest, collected when first needed

  const std::vector<ir::Access> &accesses() {
    if (Accesses.empty())
      Accesses = ir::collectAccesses(ir::inlineLets(Nest.Body));
    return Accesses;
  }

  ir::Buffer refuse(const std::string &Message) {
    Diag D;
    D.Message = Message;
    Diags.push_back(D);
    return nullptr;
  }
};

} // namespace

ir::LoopNest promoteToShared(const ir::LoopNest &Nest, const KernelContext &Ctx,
                             std::vector<Diag> &Diags) {
  std::vector<LocalHandOff> HandOffs = localHandOffs(Nest.Body, Ctx.blockExtents());
  if (HandOffs.empty())
    return Nest;
  Promoter P(Nest, Ctx, Diags);
  ir::LoopNest Out = Nest;
  for (const LocalHandOff &H : HandOffs) {
    ir::IndexMap Map;
    if (ir::Buffer Shared = P.promoted(H, Map))
      Out.Body = ir::remapBuffer(Out.Body, H.Write.Buf.get(), Shared, Map);
  }
  return Out;
}

const Pass PromoteToSharedPass = {
    "PromoteToShared", /*Requires=*/FormLaunchLoopsWidened, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      const KernelContext *Ctx = S.launchContext();
      if (!Ctx)
        return false;
      S.Nest = promoteToShared(S.Nest, *Ctx, S.Diags);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
