//===- Tensorize.cpp - tensorize(x, intrinsic) ----------------------------===//
//
// tensorize(x, wmma.load | wmma.mma | wmma.store) says that the region under
// loop x becomes tensor-core operations; tensorize(x, mma.load |
// mma.m16n8k16 | mma.store) the same with PTX mma.sync and ldmatrix (sm_80+). The schedule only records it (a
// TensorizeMark on the nest): the region is concrete, its sizes known, only
// once bound inference has run, so the lowering pass that knows the
// intrinsics (passes/gpu/TensorizeWmma.cpp) matches it and reports a mismatch
// at this directive.
//
// Names follow TVM's tensor-core schedules: after cache_write(C,
// wmma.accumulator, Cf) the computation's loops are also called Cf.i, Cf.j
// (findLoop), and wmma.store on a loop of the computation names the
// accumulator's write-back over the same dimension of C (TVM's write-back
// stage keeps C's axes): `tensorize(Cf.i, wmma.mma) tensorize(i,
// wmma.store)`.
//
// tensorcore(auto) records that lowering should turn the nest, scheduled as
// an ordinary CUDA kernel, into tensor-core code where it qualifies
// (passes/gpu/AutoTensorCore.cpp).
//
//===----------------------------------------------------------------------===//

#include "ir/Access.h"
#include "ir/IRVisitor.h"
#include "schedule/ScheduleImpl.h"
#include "targets/Target.h"

namespace sched {
namespace schedule {

using namespace ir;

/// Whether the region under L stores an accumulator fragment to memory.
static bool storesAccumulator(const ForNode *L) {
  for (const Access &A : collectAccesses(L->Body)) {
    const auto *Store = A.Statement && A.Statement->Kind == StmtKind::Store
                            ? static_cast<const StoreNode *>(A.Statement)
                            : nullptr;
    if (!A.IsWrite && A.Buf->MemScope == Scope::WmmaAccumulator && Store &&
        Store->Buf->MemScope != Scope::WmmaAccumulator)
      return true;
  }
  return false;
}

/// The write-back loop of an accumulator stage that loop L of the
/// computation writes, over the dimension L indexes; reports and returns
/// null when there is none.
static const ForNode *writeBackLoopOf(ScheduleState &S, const ForNode *L, const DirectiveArg &Arg,
                                      const std::string &Intrinsic) {
  for (const Access &A : collectAccesses(L->Body)) {
    if (!A.IsWrite || A.Buf->MemScope != Scope::WmmaAccumulator)
      continue;
    auto Stage = S.Stages.find(A.Buf->Name);
    if (Stage == S.Stages.end() || !Stage->second.IsWrite)
      continue;
    int Dim = -1;
    for (size_t D = 0; D < A.Indices.size(); ++D)
      if (usesVar(A.Indices[D], L->LoopVar.get())) {
        if (Dim >= 0) {
          S.error(Arg.Loc, "loop '" + Arg.Text + "' indexes more than one dimension of '" +
                               A.Buf->Name + "'; name the write-back loop (" + A.Buf->Name +
                               ".ax<d>) to tensorize with " + Intrinsic);
          return nullptr;
        }
        Dim = static_cast<int>(D);
      }
    if (Dim < 0)
      continue;
    DirectiveArg WriteBack = Arg;
    WriteBack.Text = A.Buf->Name + ".ax" + std::to_string(Dim);
    return findLoop(S, WriteBack);
  }
  S.error(Arg.Loc, "tensorize(" + Arg.Text + ", " + Intrinsic + "): loop '" + Arg.Text +
                       "' neither stores an accumulator fragment nor computes into one "
                       "(cache_write the output to wmma.accumulator)");
  return nullptr;
}

bool applyTensorize(ScheduleState &S, const Directive &D) {
  const DirectiveArg &LoopArg = D.Args[0], &IntrinsicArg = D.Args[1];
  // Each target declares the intrinsics of its own (targets/).
  const TargetDescription *Owner = targetWithTensorIntrinsic(IntrinsicArg.Text);
  if (!Owner) {
    std::vector<std::string> Names = allTensorIntrinsics();
    std::string Suggestion = didYouMean(IntrinsicArg.Text, Names);
    return S.error(IntrinsicArg.Loc, "unknown tensor intrinsic '" + IntrinsicArg.Text + "'" +
                                         (Suggestion.empty() ? "; expected " + orList(Names)
                                                             : Suggestion));
  }
  if (Owner != findTarget(S.Nest.Target))
    return S.error(IntrinsicArg.Loc, "tensorize with " + IntrinsicArg.Text + " needs target(" +
                                         Owner->Name + ")");
  const ForNode *L = findLoop(S, LoopArg);
  if (!L)
    return false;
  bool IsStore = IntrinsicArg.Text == "wmma.store" || IntrinsicArg.Text == "mma.store";
  if (IsStore && !storesAccumulator(L) &&
      !(L = writeBackLoopOf(S, L, LoopArg, IntrinsicArg.Text)))
    return false;
  for (const TensorizeMark &M : S.Nest.Tensorize)
    if (M.Loop == L->LoopVar)
      return S.error(LoopArg.Loc, "loop '" + L->LoopVar->Name + "' is already tensorized with " +
                                      M.Intrinsic);
  S.Nest.Tensorize.push_back({L->LoopVar, IntrinsicArg.Text, D.Loc});
  return true;
}

bool applyTensorCore(ScheduleState &S, const Directive &D) {
  const DirectiveArg &Mode = D.Args[0];
  if (Mode.Text != "auto")
    return S.error(Mode.Loc, "unknown tensorcore mode '" + Mode.Text + "'; expected tensorcore(auto)");
  // Recorded only: lowering decides, once the kernel is concrete, whether
  // the nest qualifies (passes/gpu/AutoTensorCore.cpp), with a remark either way.
  S.Nest.TensorCoreAuto = D.Loc;
  return true;
}

} // namespace schedule
} // namespace sched
