//===- StorageAlign.cpp - storage_align(Name, axis, factor, offset) ---===//
//
// TVM's storage_align: pads an allocation so that the stride of dimension
// `axis` (named by the stage's loop Name.ax<d>) is k*factor + offset, the
// usual cure for shared-memory bank conflicts. The buffer keeps its logical
// extents for every access; only the allocated extent of dimension axis+1
// grows. That makes the stride of `axis` exactly the padded extent when axis
// is the second-innermost dimension (the row). The stride of an outer axis
// is the padded extent times the extents inside it: an array's extent is the
// smallest that gives k*factor + offset (an error when none does); a stage's
// extents are known only after bound inference, so an outer axis of a stage
// takes offset 0 and its next extent is rounded up to a multiple of factor.
// The innermost axis has stride 1: an error.
//
// A cache stage's row length is only known after bound inference, so its
// padded extent is written in terms of the placeholder (As.ext1) and becomes
// a constant when lowering replaces it: storage_align may come before or
// after the stage's compute_at and double_buffer.
//
//===----------------------------------------------------------------------===//

#include "schedule/ScheduleImpl.h"

#include <cstdlib>

namespace sched {
namespace schedule {

using namespace ir;

namespace {

/// The d of `Name.ax<d>`, or -1.
int axisOf(const std::string &Name, const std::string &Axis) {
  std::string Prefix = Name + ".ax";
  if (Axis.compare(0, Prefix.size(), Prefix) != 0 || Axis.size() == Prefix.size())
    return -1;
  std::string Digits = Axis.substr(Prefix.size());
  for (char C : Digits)
    if (C < '0' || C > '9')
      return -1;
  return std::atoi(Digits.c_str());
}

} // namespace

bool applyStorageAlign(ScheduleState &S, const Directive &D) {
  const DirectiveArg &NameArg = D.Args[0], &AxisArg = D.Args[1], &FactorArg = D.Args[2],
                     &OffsetArg = D.Args[3];
  Buffer Buf = findBufferByName(S, NameArg.Text);
  const AllocateNode *Alloc = Buf ? findAllocate(S.Nest.Body, Buf.get()) : nullptr;
  if (!Alloc)
    return S.error(NameArg.Loc, "no array named '" + NameArg.Text + "' is allocated in the nest");
  auto Stage = S.Stages.find(NameArg.Text);
  bool IsStage = Stage != S.Stages.end();
  // A double-buffered stage has a leading copy dimension its loops do not name.
  int Copies = IsStage && Stage->second.DoubleBufferApplied ? 1 : 0;
  int Rank = static_cast<int>(Buf->Shape.size()) - Copies;
  int Axis = axisOf(NameArg.Text, AxisArg.Text);
  if (Axis < 0 || Axis >= Rank)
    return S.error(AxisArg.Loc, "expected an axis of '" + NameArg.Text + "': " + NameArg.Text +
                                    ".ax0 to " + NameArg.Text + ".ax" +
                                    std::to_string(Rank - 1));
  if (Axis == Rank - 1)
    return S.error(AxisArg.Loc, "cannot align the innermost axis of '" + NameArg.Text +
                                    "': its stride is 1" +
                                    (Rank > 1 ? "; align an outer axis (" + NameArg.Text + ".ax" +
                                                    std::to_string(Rank - 2) + ", the row)"
                                              : std::string()));
  // The parser checked literals; a factor named by a constant (or computed
  // from constants) gets its value only at the nest.
  int64_t Factor = std::atoll(FactorArg.Text.c_str());
  int64_t Offset = std::atoll(OffsetArg.Text.c_str());
  if (Factor <= 0)
    return S.error(FactorArg.Loc, "storage_align factor must be a positive integer");
  if (Offset < 0)
    return S.error(OffsetArg.Loc, "storage_align offset must be a non-negative integer");
  if (Offset >= Factor)
    return S.error(OffsetArg.Loc, "offset must be smaller than factor (" +
                                      std::to_string(Factor) + ")");
  if (IsStage) {
    // A stage's extents are known only after bound inference: an outer
    // axis's stride, a product of them, can only be made a multiple of F.
    if (Axis < Rank - 2 && Offset != 0)
      return S.error(OffsetArg.Loc, "storage_align of " + AxisArg.Text +
                                        " (not the row) needs offset 0: its stride is the "
                                        "product of the extents inside it, which bound "
                                        "inference gives, and is padded to a multiple of " +
                                        std::to_string(Factor));
    Stage->second.AlignFactor = Factor;
    Stage->second.AlignOffset = Offset;
    Stage->second.AlignAxis = Axis;
    return rebuildStage(S, Stage->second, NameArg.Loc);
  }
  // The stride of Axis is the extent of Axis + 1 times Inner, the product of
  // the extents inside that: the smallest extent at least the old one that
  // makes it k*Factor + Offset.
  int64_t Next, Inner = 1, Extent;
  for (int D = Axis + 2; D < Rank; ++D)
    if (!getConstInt(Buf->Shape[Copies + D], Extent))
      return S.error(NameArg.Loc, "cannot align '" + NameArg.Text +
                                      "': its extents are not constant");
    else
      Inner *= Extent;
  if (!getConstInt(Buf->Shape[Copies + Axis + 1], Next))
    return S.error(NameArg.Loc, "cannot align '" + NameArg.Text + "': its row length is not constant");
  int64_t Padded = Next;
  while (Padded < Next + Factor && ((Padded * Inner) % Factor) != Offset)
    ++Padded;
  if (((Padded * Inner) % Factor) != Offset)
    return S.error(OffsetArg.Loc, "no extent of " + NameArg.Text + ".ax" +
                                      std::to_string(Axis + 1) + " makes the stride of " +
                                      AxisArg.Text + " k*" + std::to_string(Factor) + " + " +
                                      std::to_string(Offset) + ": the extents inside it multiply to " +
                                      std::to_string(Inner));
  std::vector<Expr> Shape = Buf->Shape;
  Shape[Copies + Axis + 1] = makeInt(Padded);
  Buffer New = makeBuffer(Buf->Name, Buf->Type, Shape, Buf->MemScope);
  S.Nest.Body = replaceBuffer(S.Nest.Body, Buf.get(), New);
  return true;
}

} // namespace schedule
} // namespace sched
