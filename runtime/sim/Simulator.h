//===- Simulator.h - Running a lowered kernel on the CPU --------*- C++ -*-===//
//
// The `sim` backend: executes a LoweredKernel with GPU semantics - a grid of
// blocks, each a set of threads that run in lockstep phases separated by
// `sched.syncthreads` barriers, with per-block shared memory and per-thread
// local memory. Every global access is bounds-checked against the region the
// launch descriptor gives, and (optionally) every shared and global access is
// checked for races: between threads of a block that no barrier orders, and
// for global memory also between threads of different blocks. Reads of
// shared and local memory are checked for initialization, as
// compute-sanitizer's initcheck does: an element must have been written
// before it is read.
//
// The IR is compiled once into a compact register bytecode (SimProgram) and
// that is interpreted; the shared_ptr IR is never walked per element. A
// program can be compiled once and run many times (the launcher caches it per
// descriptor).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_SIM_SIMULATOR_H
#define SCHED_RUNTIME_SIM_SIMULATOR_H

#include "ir/Kernel.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sched {
namespace sim {

struct SimOptions {
  /// Report two accesses by different threads to the same shared or global
  /// element, at least one a write, that nothing orders: threads of one block
  /// with no barrier between the accesses, or (global memory) threads of two
  /// blocks. Global shadow state costs 48 bytes per element of each global
  /// buffer the kernel writes, in pages allocated on first touch and freed
  /// when the launch ends.
  bool DetectRaces = true;
  /// Report a read of a shared element that no thread (or warp collective)
  /// of the block has written since the block started, and of a local
  /// element that the thread has not written since it last entered the
  /// buffer's allocation. Global memory is not checked (the launch's
  /// regions are host data). Shared elements use the race detector's
  /// per-element state (kept when only this check is on); local ones a flag
  /// byte per element of each thread of the block being run.
  bool CheckInit = true;
  /// Test hook (empty normally): called for each lane of a warp after an
  /// mma.load_a or mma.load_b (ldmatrix) with the register elements the lane
  /// received (a0..a7 or b0..b3, as values), which it may change - a test
  /// permutes one lane's registers and sees the product change.
  std::function<void(ir::Scope Sc, int64_t Lane, std::vector<double> &Elements)> LaneRegistersHook;
};

/// What one run did (for tests and SCHED_VERBOSE).
struct SimStats {
  uint64_t Blocks = 0;         // blocks started (above 0: the kernel ran on the buffers)
  uint64_t Threads = 0;        // thread executions, over all blocks
  uint64_t Barriers = 0;       // barrier phases completed, over all blocks
  uint64_t Instructions = 0;   // bytecode instructions executed
  uint64_t Collectives = 0;    // warp collectives (wmma) executed, once per warp each
  /// Shared-memory bank conflicts of ldmatrix (a report, not an error): per
  /// 8x8 matrix, the wavefronts its 8 rows of 16 bytes take beyond the one a
  /// conflict-free read needs (rows whose words fall in the same one of the
  /// 32 four-byte banks at different addresses are served one after the
  /// other), summed over every ldmatrix run.
  uint64_t LdmatrixBankConflicts = 0;
};

class SimProgram; // the compiled kernel (opaque)

/// Compiles K for the simulator. Returns null and sets Error when the kernel
/// uses something the simulator does not support or is malformed.
std::shared_ptr<const SimProgram> compileKernel(const LoweredKernel &K, std::string &Error);

/// Runs a compiled kernel on the buffers ParamData points to, in place: once
/// a block has started (Stats->Blocks > 0), a failed run may have written
/// them. Warp collectives (the wmma intrinsics) run once per warp when its 32
/// lanes arrive with equal arguments, on per-warp fragment matrices; errors for divergent or partial warps, non-uniform
/// arguments, misaligned tiles, bad strides and fragments read before they
/// are written. ParamData has one pointer per kernel parameter, in
/// Params order: a buffer's data for a buffer parameter, the address of the
/// value (of the parameter's dtype) for a scalar. Returns false and sets Error
/// (naming the buffer, index, block and thread) on an out-of-bounds access, a
/// race, a read of uninitialized shared or local memory, a division by zero,
/// a misused collective, or a malformed launch (one outside CUDA's limits,
/// ir/LaunchLimits.h, included).
bool runKernel(const SimProgram &P, const std::vector<void *> &ParamData,
               const SimOptions &Opts, std::string &Error, SimStats *Stats = nullptr);

/// compileKernel + runKernel.
bool simulate(const LoweredKernel &K, const std::vector<void *> &ParamData,
              const SimOptions &Opts, std::string &Error, SimStats *Stats = nullptr);

/// IEEE binary16 conversions (ir/Types.h), by their simulator names.
using ir::floatToHalf;
using ir::halfToFloat;
using ir::roundToHalf;

} // namespace sim
} // namespace sched

#endif // SCHED_RUNTIME_SIM_SIMULATOR_H
