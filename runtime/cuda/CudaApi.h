//===- CudaApi.h - The CUDA driver and NVRTC, loaded at run time -*- C++ -*-===//
//
// The few driver types and entry points the cuda backend uses, declared here
// (no cuda.h) and resolved with dlopen/dlsym, so the runtime builds without
// the toolkit and every program starts without a driver. NVRTC is in
// Nvrtc.h.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_CUDA_CUDAAPI_H
#define SCHED_RUNTIME_CUDA_CUDAAPI_H

#include "Nvrtc.h"

#include <cstddef>
#include <string>
#include <vector>

namespace sched {
namespace cuda {

// Driver API types (ABI-compatible with cuda.h).
using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUdeviceptr = unsigned long long;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;
constexpr int CU_POINTER_ATTRIBUTE_IS_MANAGED = 8;
constexpr unsigned CU_MEMORYTYPE_DEVICE = 2;
constexpr unsigned CU_MEMORYTYPE_UNIFIED = 4;

struct DriverApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, CUstream, void **, void **);
  CUresult (*cuPointerGetAttribute)(void *, int, CUdeviceptr);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  // Optional (null when the driver lacks them): the events SCHED_TIME=1
  // times a kernel with.
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
};

/// The driver, loaded and cuInit'ed once. Null with Error set when
/// libcuda.so.1 is missing or cuInit fails.
const DriverApi *driver(std::string &Error);

/// "cuFoo: <driver's message> (code N)"; where the driver gives none (the
/// toolkit's stub driver), the error's name in cuda.h for the errors of
/// initialisation (CUDA_ERROR_STUB_LIBRARY, CUDA_ERROR_NO_DEVICE, ...).
std::string driverError(const char *Call, CUresult R);

} // namespace cuda
} // namespace sched

#endif // SCHED_RUNTIME_CUDA_CUDAAPI_H
