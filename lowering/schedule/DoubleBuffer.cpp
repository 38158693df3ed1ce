//===- DoubleBuffer.cpp - double_buffer(Name) ---===//
//
// A stage computed at loop ko gets two copies, [2, ...], and iteration ko
// uses copy (ko - min) % 2, in the stage and in its consumers alike. The
// stage of iteration ko+1 then writes the copy iteration ko does not read, so
// the write-after-read barrier between ko's consumers and ko+1's stage is
// no longer needed (the barrier after ko+1's stage orders ko's reads before
// ko+2's writes); whether it is dropped is up to thread-sync insertion.
//
//===----------------------------------------------------------------------===//

#include "ir/IRMutator.h"
#include "ir/Simplify.h"
#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

namespace {

/// Prepends Index to every access of Old, rewritten to New.
class PrependIndex : public IRMutator {
public:
  PrependIndex(const BufferNode *Old, Buffer New, Expr Index)
      : Old(Old), New(std::move(New)), Index(std::move(Index)) {}

protected:
  Expr mutateLoad(const Expr &E, const LoadNode *N) override {
    Expr M = IRMutator::mutateLoad(E, N);
    const LoadNode *L = as<LoadNode>(M);
    if (!L || L->Buf.get() != Old)
      return M;
    return makeLoad(New, prepend(L->Indices));
  }
  Stmt mutateStore(const Stmt &S, const StoreNode *N) override {
    Stmt M = IRMutator::mutateStore(S, N);
    const StoreNode *St = as<StoreNode>(M);
    if (!St || St->Buf.get() != Old)
      return M;
    return makeStore(New, prepend(St->Indices), St->Value);
  }
  Stmt mutateAllocate(const Stmt &S, const AllocateNode *N) override {
    Stmt M = IRMutator::mutateAllocate(S, N);
    const AllocateNode *A = as<AllocateNode>(M);
    return A && A->Buf.get() == Old ? makeAllocate(New, A->Body) : M;
  }

private:
  std::vector<Expr> prepend(const std::vector<Expr> &Indices) const {
    std::vector<Expr> Out{Index};
    Out.insert(Out.end(), Indices.begin(), Indices.end());
    return Out;
  }
  const BufferNode *Old;
  Buffer New;
  Expr Index;
};

} // namespace

bool applyDoubleBuffer(ScheduleState &S, const Directive &D) {
  const DirectiveArg &StageArg = D.Args[0];
  auto It = S.Stages.find(StageArg.Text);
  if (It == S.Stages.end())
    return S.error(StageArg.Loc, "no cache stage named '" + StageArg.Text + "'");
  StageInfo &Info = It->second;
  if (!Info.ComputedAt)
    return S.error(StageArg.Loc, "double_buffer of stage '" + StageArg.Text +
                                     "' needs its compute_at first (the loop whose iterations "
                                     "alternate the two copies)");
  if (Info.DoubleBuffered)
    return S.error(StageArg.Loc, "stage '" + StageArg.Text + "' is already double-buffered");
  const ForNode *Loop = findLoop(S, DirectiveArg{Info.AttachLoop, StageArg.Loc});
  if (!Loop)
    return false;
  const AllocateNode *Alloc = findAllocate(S.Nest.Body, Info.Stage.get());
  if (!Alloc)
    return S.error(StageArg.Loc, "stage '" + StageArg.Text + "' is no longer allocated");
  std::vector<Expr> Shape{makeInt(2)};
  Shape.insert(Shape.end(), Info.Stage->Shape.begin(), Info.Stage->Shape.end());
  Buffer New = makeBuffer(Info.Stage->Name, Info.Stage->Type, Shape, Info.Stage->MemScope);
  Expr Parity = simplify((Expr(Loop->LoopVar) - Loop->Min) % makeInt(2));
  PrependIndex P(Info.Stage.get(), New, Parity);
  S.Nest.Body = P.mutate(S.Nest.Body);
  Info.Stage = New;
  Info.DoubleBuffered = true;
  return true;
}

} // namespace schedule
} // namespace sched
