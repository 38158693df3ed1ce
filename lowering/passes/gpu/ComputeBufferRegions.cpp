//===- ComputeBufferRegions.cpp - What the launcher copies ---------------===//
//
// The cuda backend copies host arrays to the device before a launch and back
// after it; it must copy every element the kernel may touch and must never
// read or write past the end of the user's array. For each buffer parameter
// of the flattened kernel this computes Extent, the number of elements from
// index 0 that the kernel may touch: the maximum index over every access
// with all loops (serial and thread-bound) relaxed, plus one, as given by
// the one bound analysis (ir/Bounds.h). Non-dividing splits can make that
// maximum overshoot the array (their guards keep the accesses in bounds,
// but the interval analysis does not see guards), and some indices have no
// known bound; so the extent is capped by, or falls back to, the size of the
// buffer. Read and Written come from the access analysis (ir/Access.h), so
// intrinsics count through their operand declarations.
//
// A pointer parameter may be indexed below zero (`x[i + off]` with off < 0 on
// a pointer into the middle of an array, or `A[(i - 1)*K + k]` with K >= 1
// wherever the k loop runs, is legal C++): the region then starts
// at Min, the smallest index touched where that may be negative
// (min(off, 0)), and Extent counts from there. Where the smallest index is
// unknown the region starts at 0, as it does when it is provably
// non-negative (the copy then starts at the pointer, as before).
//
// The launcher evaluates each extent on the host before the kernel runs, from
// the scalar arguments alone: an extent must never read memory (the kernel's
// buffers are not there yet, and memory may change while it runs). The bound
// analysis already ignores guards that read memory; should an extent still
// mention anything but scalar parameters, the guard-free extent is used, and
// failing that the whole buffer (isLaunchExpr decides).
//
//===----------------------------------------------------------------------===//
#include "ir/Access.h"
#include "ir/Bounds.h"
#include "ir/Simplify.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <map>
#include <optional>

namespace sched {
namespace passes {

namespace {

ir::Expr bufferSize(const ir::Buffer &B) {
  ir::Expr Size = ir::makeInt(1);
  for (const ir::Expr &Dim : B->Shape)
    Size = Size * Dim;
  return ir::simplify(Size);
}

/// The flat intervals of one buffer B the kernel reads or writes, each
/// computed once: the region's start and its extent ask the same ones
/// (regionTouched is the costly part of this pass).
class TouchedRegions {
public:
  TouchedRegions(const ir::LoopNest &Nest, const ir::Buffer &B) : Nest(Nest), B(B) {}

  /// The flat interval of B that the kernel reads (or writes); a bound is
  /// null when unknown or not a launch expression. False when it does not
  /// access B that way or the region is not flat.
  bool touched(bool Reads, ir::GuardUse Guards, ir::Interval &Out) {
    auto Key = std::make_pair(Reads, Guards);
    auto It = Known.find(Key);
    if (It == Known.end())
      It = Known.emplace(Key, compute(Reads, Guards)).first;
    if (!It->second)
      return false;
    Out = *It->second;
    return true;
  }

private:
  const ir::LoopNest &Nest;
  const ir::Buffer &B;
  std::map<std::pair<bool, ir::GuardUse>, std::optional<ir::Interval>> Known;

  std::optional<ir::Interval> compute(bool Reads, ir::GuardUse Guards) const {
    ir::Region R;
    if (!ir::regionTouched(Nest.Body, B, Reads, ir::VarRanges(), R, Guards) || R.size() != 1)
      return std::nullopt;
    ir::Interval Out = R[0];
    if (Out.Min && !isLaunchExpr(Out.Min, Nest))
      Out.Min = nullptr;
    if (Out.Max && !isLaunchExpr(Out.Max, Nest))
      Out.Max = nullptr;
    return Out;
  }
};

/// One past the largest flat index of B that the kernel reads (or writes),
/// or null when unknown.
ir::Expr touchedEnd(TouchedRegions &Regions, bool Reads, ir::GuardUse Guards) {
  ir::Interval I;
  if (!Regions.touched(Reads, Guards, I) || !I.Max)
    return nullptr;
  return ir::simplify(I.Max + ir::makeInt(1));
}

/// The smallest flat index of B the kernel may touch where that may be below
/// zero, min(first index, 0); null (0) where it is provably non-negative or
/// unknown. The guards tighten it where they can.
ir::Expr regionMin(TouchedRegions &Regions, bool Read, bool Written) {
  ir::Expr Min = ir::makeInt(0);
  for (bool Reads : {true, false}) {
    if (Reads ? !Read : !Written)
      continue;
    ir::Interval I;
    if (!(Regions.touched(Reads, ir::GuardUse::Tighten, I) && I.Min) &&
        !(Regions.touched(Reads, ir::GuardUse::Ignore, I) && I.Min))
      return nullptr;
    Min = ir::makeBinary(ir::BinOp::Min, Min, I.Min);
  }
  Min = ir::simplify(Min);
  int64_t Known;
  if (ir::getConstInt(Min, Known) && Known >= 0)
    return nullptr;
  return Min;
}

/// Loops that run zero times (`j < n - 3` with n = 0) can put the largest
/// index, and even the buffer's size (the extractor sizes a pointer by the
/// largest index it reaches), below zero: the kernel then touches nothing of
/// the buffer, and the launcher must copy (and the simulator allocate)
/// nothing, not fail on a negative size.
ir::Expr clampedAtZero(const ir::Expr &Extent) {
  int64_t Known;
  if (ir::getConstInt(Extent, Known))
    return Known < 0 ? ir::makeInt(0, Extent->Type) : Extent;
  return ir::makeBinary(ir::BinOp::Max, Extent, ir::makeInt(0, Extent->Type));
}

/// The number of elements from Min (null: 0) the kernel may touch.
ir::Expr regionExtent(TouchedRegions &Regions, const ir::Buffer &B, bool Read, bool Written,
                      const ir::Expr &Min) {
  ir::Expr Size = bufferSize(B);
  ir::Expr End;
  for (bool Reads : {true, false}) {
    if (Reads ? !Read : !Written)
      continue;
    ir::Expr E = touchedEnd(Regions, Reads, ir::GuardUse::Tighten);
    if (!E)
      E = touchedEnd(Regions, Reads, ir::GuardUse::Ignore);
    if (!E)
      return clampedAtZero(Size); // an access with unknown bounds: the whole buffer
    End = End ? ir::makeBinary(ir::BinOp::Max, End, E) : E;
  }
  if (!End)
    return ir::makeInt(0);
  End = ir::makeBinary(ir::BinOp::Min, End, Size);
  return clampedAtZero(ir::simplify(Min ? End - Min : End));
}

} // namespace

std::vector<BufferRegion> computeBufferRegions(const ir::LoopNest &Nest) {
  std::vector<ir::Access> Accesses = ir::collectAccesses(Nest.Body);
  std::vector<BufferRegion> Regions;
  for (const ir::Param &P : Nest.Params) {
    if (P.ParamKind != ir::Param::Kind::Buffer || !P.Buf)
      continue;
    BufferRegion R;
    R.Param = P.Buf->Name;
    for (const ir::Access &A : Accesses)
      if (A.Buf == P.Buf)
        (A.IsWrite ? R.Written : R.Read) = true;
    TouchedRegions Touched(Nest, P.Buf);
    R.Min = regionMin(Touched, R.Read, R.Written);
    R.Extent = regionExtent(Touched, P.Buf, R.Read, R.Written, R.Min);
    Regions.push_back(R);
  }
  return Regions;
}

const Pass ComputeBufferRegionsPass = {
    "ComputeBufferRegions", /*Requires=*/FormFlattened, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      S.Regions = computeBufferRegions(S.Nest);
      return true;
    }};

} // namespace passes
} // namespace sched
