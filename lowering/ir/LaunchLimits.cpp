//===- LaunchLimits.cpp - What a CUDA launch may ask for ------------------===//
//
// See LaunchLimits.h.
//
//===----------------------------------------------------------------------===//
#include "LaunchLimits.h"

namespace sched {
namespace ir {

namespace {

std::string shapeText(const int64_t E[3]) {
  return std::to_string(E[0]) + " x " + std::to_string(E[1]) + " x " + std::to_string(E[2]);
}

} // namespace

std::string launchShapeProblem(const int64_t Grid[3], const int64_t Block[3],
                               int64_t SharedBytes) {
  static const char *const Axis = "xyz";
  for (int D = 0; D < 3; ++D)
    if (Block[D] > MaxBlockDim[D])
      return std::string("the block (") + shapeText(Block) + ") has " +
             std::to_string(Block[D]) + " threads in " + Axis[D] + ", over CUDA's limit of " +
             std::to_string(MaxBlockDim[D]);
  int64_t Threads = Block[0] * Block[1] * Block[2]; // each at most 1024: no overflow
  if (Threads > MaxThreadsPerBlock)
    return "a block of " + std::to_string(Threads) + " threads (" + shapeText(Block) +
           ") exceeds CUDA's limit of " + std::to_string(MaxThreadsPerBlock) +
           " threads per block";
  for (int D = 0; D < 3; ++D)
    if (Grid[D] > MaxGridDim[D])
      return std::string("the grid (") + shapeText(Grid) + ") has " + std::to_string(Grid[D]) +
             " blocks in " + Axis[D] + ", over CUDA's limit of " + std::to_string(MaxGridDim[D]);
  if (SharedBytes > MaxStaticSharedBytes)
    return "the kernel's shared arrays take " + std::to_string(SharedBytes) +
           " bytes, over CUDA's limit of " + std::to_string(MaxStaticSharedBytes) +
           " bytes of static shared memory per block";
  return "";
}

} // namespace ir
} // namespace sched
