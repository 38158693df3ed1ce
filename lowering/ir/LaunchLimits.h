//===- LaunchLimits.h - What a CUDA launch may ask for ----------*- C++ -*-===//
//
// One definition of CUDA's launch limits, read by the launcher (before any
// backend runs a kernel: runtime/Launch.cpp), the simulator and the cuda
// backend (each refusing a shape it is handed directly), and the lowering
// (PromoteToShared sizes a block's shared arrays against the same budget).
// The values hold on every architecture sched targets (compute capability
// 5.0 and newer, through sm_90): threads per block, block and grid
// dimensions, and a block's static shared memory without opt-in.
//
// It depends on nothing but ir/Types-level facts, so the launcher uses it
// without the IR library (staticSharedBytes, which reads a kernel, is in
// ir/Kernel.h).
//
// A launch shape is known only at run time when extents depend on scalar
// parameters, so the launcher checks it for each launch; a shape that does
// not fit is a failed run-time assumption (the original loop runs), not an
// error.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_LAUNCHLIMITS_H
#define SCHED_IR_LAUNCHLIMITS_H

#include <cstdint>
#include <string>

namespace sched {
namespace ir {

constexpr int64_t MaxThreadsPerBlock = 1024;
/// blockDim.x, .y, .z.
constexpr int64_t MaxBlockDim[3] = {1024, 1024, 64};
/// gridDim.x, .y, .z.
constexpr int64_t MaxGridDim[3] = {2147483647, 65535, 65535};
/// A block's static (__shared__) memory: 48 KiB without the opt-in that only
/// dynamic shared memory has.
constexpr int64_t MaxStaticSharedBytes = 48 * 1024;

/// Why a launch of Grid x Block blocks and threads with SharedBytes of
/// static shared memory (negative: unknown, not checked) cannot run on any
/// CUDA device, e.g. "a block of 1089 threads (33 x 33 x 1) exceeds CUDA's
/// limit of 1024 threads per block"; empty when it can. Extents are not
/// negative (an empty grid or block is the launcher's own case).
std::string launchShapeProblem(const int64_t Grid[3], const int64_t Block[3],
                               int64_t SharedBytes);

} // namespace ir
} // namespace sched

#endif // SCHED_IR_LAUNCHLIMITS_H
