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

#include "codegen/LaunchDescriptor.h"

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

/// True when the driver loads and sees at least one device (the `auto` rule).
/// Never prints anything.
bool deviceAvailable();

/// The compiled module of one launch site, built on its first launch.
struct CompiledKernel;
struct KernelCache {
  std::mutex Lock;
  std::shared_ptr<CompiledKernel> Kernel;
};

/// Runs D's kernel with ParamData (one data pointer per parameter, as the
/// simulator takes them). False with Error naming what failed otherwise.
bool launch(const LaunchDescriptor &D, KernelCache &Cache,
            const std::vector<void *> &ParamData, std::string &Error);

} // namespace cuda
} // namespace sched

#endif // SCHED_RUNTIME_CUDA_CUDABACKEND_H
