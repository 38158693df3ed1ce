//===- Kernel.h - A lowered nest as the launcher sees it -------*- C++ -*-===//
//
// The vocabulary shared by the lowering passes (which compute it), the
// emitters and the launch descriptor (which carry it) and the runtime (which
// reads it back): a kernel's IR with its launch geometry, the regions of
// each buffer it moves and the architecture it was built for. Plain data
// over IR expressions; it depends on ir/ only, so codegen and the runtime
// include it without the passes or the pipeline.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_KERNEL_H
#define SCHED_IR_KERNEL_H

#include "ir/IR.h"
#include "ir/LaunchPlan.h"
#include "ir/TargetArch.h"
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace sched {

/// How a kernel is launched: grid and block extents, each an expression over
/// the nest's scalar parameters (1 where the dimension is unused).
struct LaunchGeometry {
  ir::Expr Grid[3];
  ir::Expr Block[3];
};

/// What the launcher must move for one buffer parameter: elements
/// [Min, Min + Extent) of the flattened buffer (both over scalar
/// parameters), and whether the kernel reads and/or writes them.
struct BufferRegion {
  std::string Param;
  /// The region is the flat elements [Min, Min + Extent) of the argument.
  /// Min is null for 0; it is negative where the kernel reads or writes below
  /// the pointer it was given (`x[i + off]` with off < 0: legal C++ for a
  /// pointer into the middle of an array).
  ir::Expr Min;
  ir::Expr Extent;
  bool Read = false, Written = false;
};


struct LoweredKernel {
  ir::LoopNest Kernel;             // flattened, thread loops still as bound Fors
  LaunchGeometry Geometry;
  std::vector<BufferRegion> Regions;
  /// The architecture NVRTC must compile for and the device must have
  /// (PipelineOptions::Arch); unset: the device's own.
  TargetArch Arch;
};

/// The launch extent for Tag in Geometry (null for an unknown tag).
ir::Expr launchExtent(const LaunchGeometry &Geometry, const std::string &Tag);

/// The scalar parameters of Nest.
std::set<const ir::VarNode *> scalarParams(const ir::LoopNest &Nest);

/// Whether the launcher can evaluate E before the kernel runs: E uses
/// literals and Nest's scalar parameters only (no loop variable, no load, no
/// call). Launch geometry, copy regions and run-time assumptions must be.
bool isLaunchExpr(const ir::Expr &E, const ir::LoopNest &Nest);

namespace ir {
/// The bytes of static shared memory Kernel's shared allocations take
/// together (each is its own __shared__ array); -1 when one has a size that
/// is not a constant.
int64_t staticSharedBytes(const LoopNest &Kernel);
int64_t staticSharedBytes(const Stmt &Body); // the same, of the allocations in Body
} // namespace ir

} // namespace sched

#endif
