//===- sched_emu_abi.h - Between the emu runtime and a kernel's .so -*- C -*-===//
//
// The `emu` backend compiles a kernel's emitted CUDA as host C++ against
// sched_cuda_emu.h into a shared object and runs it on fibers (EmuScheduler).
// This header is the whole interface between the two sides, in plain C types
// so that nothing about C++ layout or linkage has to agree:
//
//  - the kernel's object exports sched_emu_bind (hands the runtime its
//    sched_emu_regs, which the scheduler fills with the running thread's
//    indices before it switches to it, and its shared-memory section) and
//    sched_emu_kernel (runs the kernel for the current thread, with the
//    `void **` argument array cuLaunchKernel takes);
//  - the runtime gives the object a sched_emu_api: the block barrier, the
//    warp rendezvous every collective (shuffle, wmma, ldmatrix, mma.sync)
//    goes through, and the error exit.
//
// Both sides include this file; SCHED_EMU_ABI_VERSION guards against a stale
// shared object in the cache.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_EMU_ABI_H
#define SCHED_EMU_ABI_H

#define SCHED_EMU_ABI_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

struct sched_emu_uint3 {
  unsigned x, y, z;
};

/// What a thread reads of itself: CUDA's built-in variables and its lane.
/// Written by the scheduler before each switch to a thread.
struct sched_emu_regs {
  struct sched_emu_uint3 thread_idx, block_idx, block_dim, grid_dim;
  unsigned lane, warp;
  /// The top of the running thread's stack: a fragment's offset from it is
  /// what identifies "the same fragment" in every lane of a warp.
  const char *stack_top;
};

/// A warp collective: every lane of `mask` calls sched_emu_api::collective
/// with its own `lane` data; when all have arrived, `run` is called once with
/// every lane's data (lanes[l] is null for a lane outside the mask). The
/// lanes must agree on `op`, `line`, `mask` and the `uniform` values (named
/// by `uniform_names` in error messages), else the launch fails.
struct sched_emu_collective {
  const char *op; // "__shfl_sync", "nvcuda::wmma::mma_sync", "ldmatrix.x4", ...
  unsigned line;  // where the call is in the emitted source
  unsigned mask;  // the lanes that take part
  const long long *uniform;
  const char *const *uniform_names;
  unsigned uniform_count;
  void *lane;
  void (*run)(void *const *lanes, unsigned mask);
};

struct sched_emu_api {
  unsigned version;
  /// __syncthreads at `line`: returns when every thread of the block has
  /// arrived at the same barrier.
  void (*syncthreads)(unsigned line);
  void (*collective)(const struct sched_emu_collective *c);
  /// Stops the launch with `message` (the runtime adds the thread and block).
  /// Does not return.
  void (*fail)(const char *message);
  /// The start of the region of the buffer argument that holds `p` (where a
  /// device copy of it would start, aligned), or null when no region does:
  /// alignment rules apply to a global pointer's offset from there.
  const char *(*region_start)(const void *p);
};

/// The shared memory section of the object (the kernel's __shared__
/// variables), poisoned by the runtime before each block.
struct sched_emu_module {
  unsigned version;
  struct sched_emu_regs *regs;
  char *shared_begin, *shared_end;
};

typedef void (*sched_emu_bind_fn)(const struct sched_emu_api *api, struct sched_emu_module *out);
typedef void (*sched_emu_kernel_fn)(void **args);

#ifdef __cplusplus
}
#endif

#endif // SCHED_EMU_ABI_H
