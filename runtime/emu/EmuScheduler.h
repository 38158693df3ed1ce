//===- EmuScheduler.h - CUDA blocks as fibers on one OS thread --*- C++ -*-===//
//
// The execution model of the `emu` backend. Blocks run one after another;
// the threads of a block are cooperatively scheduled fibers on the calling
// OS thread, switched by a few instructions of assembly on x86-64 (ucontext
// elsewhere). A thread runs until it finishes or waits:
//  - at __syncthreads, until every thread of the block waits at the same
//    barrier (the same line of the emitted source); threads waiting at
//    different barriers, or a thread that finishes while others wait, is an
//    error (CUDA leaves it undefined);
//  - at a warp collective, until every lane of its mask arrived with the same
//    operation, line and uniform arguments; the collective then runs once
//    for the warp (sched_emu_abi.h). Lanes that disagree, a mask that names a
//    lane outside the block, or lanes that never arrive are errors.
// Before each block the kernel's shared memory and the used part of every
// thread's stack are filled with 0xFF bytes, so that reading what nothing
// wrote gives a visibly wrong value (NaN, -1) rather than the previous
// block's.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_EMU_EMUSCHEDULER_H
#define SCHED_RUNTIME_EMU_EMUSCHEDULER_H

#include "sched_emu_abi.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sched {
namespace emu {

struct EmuStats {
  uint64_t Blocks = 0, Threads = 0, Barriers = 0, Collectives = 0;
  double Milliseconds = 0; // wall time of the grid's run (SCHED_TIME reports it)
};

/// What runs: Body(Context) is one thread of the kernel; Regs is where the
/// kernel reads its indices; [SharedBegin, SharedEnd) its shared memory;
/// Regions the [begin, end) of each buffer argument's region (what the cuda
/// backend would copy to an aligned device allocation).
struct KernelImage {
  sched_emu_regs *Regs = nullptr;
  char *SharedBegin = nullptr, *SharedEnd = nullptr;
  void (*Body)(void *Context) = nullptr;
  void *Context = nullptr;
  std::vector<std::pair<const char *, const char *>> Regions;
};

/// The functions a kernel object is bound with (sched_emu_bind).
const sched_emu_api &schedulerApi();

/// Runs the grid. Launches are serialized (one process-wide lock). False
/// with Error (naming the thread and block) when the kernel failed.
bool runGrid(const KernelImage &K, const unsigned Grid[3], const unsigned Block[3], EmuStats &Stats,
             std::string &Error);

} // namespace emu
} // namespace sched

#endif // SCHED_RUNTIME_EMU_EMUSCHEDULER_H
