//===- CudaBackend.h - Running kernels through the CUDA driver --*- C++ -*-===//
//
// The `cuda` backend. The driver (libcuda.so.1) and NVRTC are dlopen'ed on
// first use, never linked, so every program starts on machines without them.
// A kernel's CUDA source is compiled by NVRTC for the device's architecture
// once per launch site; host arrays are copied in and out by the regions the
// descriptor gives, and device pointers are passed in place.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_CUDA_CUDABACKEND_H
#define SCHED_RUNTIME_CUDA_CUDABACKEND_H

#include "DataScope.h"
#include "ir/LaunchPlan.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sched {
namespace cuda {

/// Loads the driver and initializes it (once per process). False, with
/// "no CUDA driver (libcuda.so.1 not found)" or the driver's error, if that
/// fails.
bool loadDriver(std::string &Error);

/// True when the driver loads, initialises and sees at least one device (the
/// `auto` rule); otherwise false with Why (when given) saying what failed.
/// Never prints anything.
bool deviceAvailable(std::string *Why = nullptr);

/// The compiled module of one launch site, built on its first launch.
struct CompiledKernel;
struct KernelCache {
  std::mutex Lock;
  std::shared_ptr<CompiledKernel> Kernel;
};

/// Runs D's kernel with ParamData (one data pointer per parameter, as the
/// simulator takes them). False with Error naming what failed otherwise, and
/// Touched saying whether the program's memory may have changed: the kernel
/// was launched on a buffer passed in place (device or managed memory), or
/// a copy back to a host buffer began. Until then only device copies were
/// written, and the original loop still gives the right answer. Stats, when
/// given, gets what the launch moved and, when Stats->Time, the kernel's
/// time.
struct LaunchStats {
  bool Time = false;    // time the kernel (CUDA events: a few microseconds)
  double KernelMs = -1; // the kernel's device time, without the copies and
                        // the launcher's host work; -1: not timed
  uint64_t BytesIn = 0, BytesOut = 0; // copied to and from the device
  int64_t Grid[3] = {0, 0, 0}, Block[3] = {0, 0, 0}; // the launch's shape
};
/// Resident, when given, marks the parameters whose ParamData is already
/// device memory the runtime placed (a data scope's copy, DataScope.h): used
/// in place like the program's own device pointers.
bool launch(const LaunchPlan &D, KernelCache &Cache,
            const std::vector<void *> &ParamData, std::string &Error, bool &Touched,
            LaunchStats *Stats = nullptr, const std::vector<bool> *Resident = nullptr);

/// Whether P is device memory the host cannot read (cudaMalloc'ed, not
/// managed): the original loop cannot run on it.
bool hostCannotRead(const void *P);

/// The device's memory, for the data scopes' device copies.
const runtime::DeviceMemory &deviceMemory();

/// Where the cached kernel's code came from ("embedded compute_75", "cache",
/// "NVRTC"); empty before it was loaded.
std::string kernelOrigin(KernelCache &Cache);

} // namespace cuda
} // namespace sched

#endif // SCHED_RUNTIME_CUDA_CUDABACKEND_H
